import { type Kysely, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { MeetingStatus } from './tables.ts';

export interface MeetingFilters {
  scenarioId?: string;
  personId?: string;
  status?: MeetingStatus;
  /** Case-insensitive prefix of the participant's name. */
  personName?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Case-insensitive substring of the participant's name or the scenario's name. */
  search?: string;
}

/** `%`, `_` and `\` match themselves: what the caller typed is text, not a pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The workspace's meetings, newest first, as the list's summaries (scenario name, score). */
export function listMeetings(
  db: Kysely<DB>,
  accountId: string,
  filters: MeetingFilters,
  page: PageRequest | null,
) {
  let query = db
    .selectFrom('meetings')
    .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
    .leftJoin('analyses', 'analyses.meeting_id', 'meetings.id')
    .select([
      'meetings.id',
      'meetings.scenario_id',
      'scenarios.name as scenario_name',
      'meetings.person_name',
      'meetings.status',
      'meetings.analysis_status',
      'analyses.average_score',
      'meetings.created_at',
      'meetings.ended_at',
      'meetings.duration_seconds',
    ])
    .where('meetings.account_id', '=', accountId);
  if (filters.scenarioId) query = query.where('meetings.scenario_id', '=', filters.scenarioId);
  if (filters.personId) query = query.where('meetings.person_id', '=', filters.personId);
  if (filters.status) query = query.where('meetings.status', '=', filters.status);
  if (filters.personName) {
    query = query.where(
      sql<boolean>`lower(meetings.person_name) like ${`${literal(filters.personName.toLowerCase())}%`}`,
    );
  }
  if (filters.createdAfter) query = query.where('meetings.created_at', '>=', filters.createdAfter);
  if (filters.createdBefore) query = query.where('meetings.created_at', '<', filters.createdBefore);
  if (filters.search) {
    const pattern = `%${literal(filters.search)}%`;
    query = query.where((eb) =>
      eb.or([eb('meetings.person_name', 'ilike', pattern), eb('scenarios.name', 'ilike', pattern)]),
    );
  }
  return newestFirst(query, page, 'meetings').execute();
}
