import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** Meeting reads; every query filters by account, so another workspace's id finds nothing. */
export const meetingRepository = {
  find(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('meetings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  /** A scenario meetings can still be created from (not soft-deleted). */
  liveScenario(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .select(['id', 'language', 'custom_agent_enabled', 'custom_agent_base_url', 'custom_agent_model'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },
  /** The scenario a meeting ran on, soft-deleted or not. */
  scenarioRow(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  sentences(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('transcript_sentences')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .orderBy('sequence_number')
      .execute();
  },
  participants(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meeting_participants')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .orderBy('created_at')
      .execute();
  },
};
