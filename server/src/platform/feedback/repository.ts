import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export type FeedbackRow = Selectable<DB['meeting_feedback']>;
type NewFeedback = Insertable<DB['meeting_feedback']>;

/** SQL of post-call feedback, one row per meeting. Every read filters by account. */
export const feedbackRepository = {
  /**
   * Creates the meeting's feedback, or replaces it with `answer` (keeping its first created_at).
   * `inserted` tells a first answer from a replacement.
   */
  upsert(db: Kysely<DB>, created: NewFeedback, answer: Updateable<DB['meeting_feedback']>) {
    return (
      db
        .insertInto('meeting_feedback')
        .values(created)
        .onConflict((oc) => oc.column('meeting_id').doUpdateSet(answer))
        .returningAll()
        // xmax is 0 only for a row this statement inserted.
        .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
        .executeTakeFirstOrThrow()
    );
  },

  find(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meeting_feedback')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
  },

  /** The meeting the feedback is about, if it is one of the account's. */
  findMeeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select(['id', 'status'])
      .where('account_id', '=', accountId)
      .where('id', '=', meetingId)
      .executeTakeFirst();
  },
};
