import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/**
 * Meetings for the API and the room. Reads by the API filter by account, so another workspace's
 * id finds nothing; rows of one meeting are reached through its id once the meeting was found.
 */
export const meetingRepository = {
  /** A new meeting's rows (in the caller's transaction). */
  insert(db: Kysely<DB>, values: Insertable<DB['meetings']>) {
    return db.insertInto('meetings').values(values).execute();
  },
  insertParticipant(db: Kysely<DB>, values: Insertable<DB['meeting_participants']>) {
    return db.insertInto('meeting_participants').values(values).execute();
  },
  /** The e-mail address of a member of the account (the participant of a regular meeting). */
  /** The member's name and address: a regular meeting's participant is the member. */
  member(db: Kysely<DB>, accountId: string, membershipId: string) {
    return db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email', 'users.name'])
      .where('memberships.id', '=', membershipId)
      .where('memberships.account_id', '=', accountId)
      .executeTakeFirst();
  },
  insertTranscript(db: Kysely<DB>, values: Insertable<DB['transcripts']>) {
    return db.insertInto('transcripts').values(values).execute();
  },
  insertUsage(db: Kysely<DB>, values: Insertable<DB['meeting_usage']>) {
    return db.insertInto('meeting_usage').values(values).execute();
  },
  /** What the room token is checked against: the meeting (any account), its token hash and its scenario's visibility. */
  findForRoom(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .select([
        'meetings.id',
        'meetings.account_id',
        'meetings.scenario_id',
        'meetings.room_token_hash',
        'scenarios.visibility',
      ])
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
  },
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
  transcriptSentences(db: Kysely<DB>, transcriptId: number) {
    return db
      .selectFrom('transcript_sentences')
      .selectAll()
      .where('transcript_id', '=', transcriptId)
      .orderBy('sequence_number')
      .execute();
  },
  /** Who said what, in order: what a transcript's text is made of. */
  transcriptLines(db: Kysely<DB>, transcriptId: number) {
    return db
      .selectFrom('transcript_sentences')
      .select(['speaker', 'message'])
      .where('transcript_id', '=', transcriptId)
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

  /** When the post-call feedback was last given, or undefined (the meeting's own account only). */
  async feedbackGivenAt(db: Kysely<DB>, accountId: string, meetingId: string) {
    const row = await db
      .selectFrom('meeting_feedback')
      .select('updated_at')
      .where('account_id', '=', accountId)
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
    return row?.updated_at;
  },
};
