import type { Kysely } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

/** Transcript reads; every lookup by a caller's id filters by account. */
export const transcriptRepository = {
  findMeeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select(['id', 'person_name', 'scenario_id'])
      .where('account_id', '=', accountId)
      .where('id', '=', meetingId)
      .executeTakeFirst();
  },
  forMeeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('transcripts')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .where('account_id', '=', accountId)
      .execute();
  },
  /** The participant's and the persona's names, for the lines of a running transcript. */
  speakers(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select(['meetings.person_name', 'personas.name as persona_name'])
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
  },
  /** The scenario, soft-deleted or not, with its persona's name. */
  scenarioInfo(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .selectFrom('scenarios')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select([
        'scenarios.id',
        'scenarios.name',
        'scenarios.type',
        'scenarios.description',
        'personas.name as persona_name',
      ])
      .where('scenarios.account_id', '=', accountId)
      .where('scenarios.id', '=', scenarioId)
      .executeTakeFirst();
  },
  /** The scenario's meetings with their transcript id, newest first; `limit + 1` rows when paged. */
  scenarioMeetings(db: Kysely<DB>, accountId: string, scenarioId: string, page: PageRequest | null) {
    const query = db
      .selectFrom('meetings')
      .innerJoin('transcripts', 'transcripts.meeting_id', 'meetings.id')
      .select([
        'meetings.id',
        'meetings.person_name',
        'meetings.created_at',
        'transcripts.id as transcript_id',
      ])
      .where('meetings.account_id', '=', accountId)
      .where('meetings.scenario_id', '=', scenarioId);
    return newestFirst(query, page, 'meetings').execute();
  },
  /** The sentences of several transcripts, grouped by transcript and in order within each. */
  sentencesOf(db: Kysely<DB>, transcriptIds: number[]) {
    return db
      .selectFrom('transcript_sentences')
      .selectAll()
      .where('transcript_id', 'in', transcriptIds)
      .orderBy('transcript_id')
      .orderBy('sequence_number')
      .execute();
  },
  /** The transcript with its meeting, when the three ids belong together in the account. */
  findWithMeeting(
    db: Kysely<DB>,
    accountId: string,
    ids: { transcriptId: number; meetingId: string; scenarioId: string },
  ) {
    return db
      .selectFrom('transcripts')
      .innerJoin('meetings', 'meetings.id', 'transcripts.meeting_id')
      .select([
        'transcripts.id as transcript_id',
        'meetings.id',
        'meetings.person_name',
        'meetings.status',
        'meetings.created_at',
        'meetings.started_at',
        'meetings.ended_at',
        'meetings.duration_seconds',
      ])
      .where('transcripts.id', '=', ids.transcriptId)
      .where('transcripts.account_id', '=', accountId)
      .where('meetings.id', '=', ids.meetingId)
      .where('meetings.scenario_id', '=', ids.scenarioId)
      .executeTakeFirst();
  },
};
