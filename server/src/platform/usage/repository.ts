import { type Kysely, sql } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** The account's usage per provider, over the meetings created in [from, to). */
export const usageRepository = {
  totalsByProvider(db: Kysely<DB>, accountId: string, period: { from: Date; to: Date; scenarioId?: string }) {
    let query = db
      .selectFrom('meeting_usage')
      .innerJoin('meetings', 'meetings.id', 'meeting_usage.meeting_id')
      .select([
        'meeting_usage.provider',
        sql<number>`count(*)`.as('meetings'),
        sql<number>`coalesce(sum(meeting_usage.session_seconds), 0)`.as('session_seconds'),
        sql<number>`coalesce(sum(ceil(meeting_usage.session_seconds / 60.0)), 0)`.as('session_minutes'),
        sql<number>`coalesce(sum(meeting_usage.prompt_tokens), 0)`.as('prompt_tokens'),
        sql<number>`coalesce(sum(meeting_usage.completion_tokens), 0)`.as('completion_tokens'),
        sql<number>`coalesce(sum(meeting_usage.turns), 0)`.as('turns'),
        sql<number>`coalesce(sum(meeting_usage.custom_agent_turns), 0)`.as('custom_agent_turns'),
        sql<number>`coalesce(sum(meeting_usage.llm_turns), 0)`.as('llm_turns'),
        sql<number>`coalesce(sum(meeting_usage.offline_turns), 0)`.as('offline_turns'),
        sql<number>`coalesce(sum(meeting_usage.apology_turns), 0)`.as('apology_turns'),
      ])
      .where('meeting_usage.account_id', '=', accountId)
      .where('meetings.created_at', '>=', period.from)
      .where('meetings.created_at', '<', period.to)
      .groupBy('meeting_usage.provider')
      .orderBy('meeting_usage.provider');
    if (period.scenarioId) query = query.where('meetings.scenario_id', '=', period.scenarioId);
    return query.execute();
  },
};
