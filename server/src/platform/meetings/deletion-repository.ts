import { type Kysely, sql } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** The statements of deleting meetings (by the API and by the workspace's retention). */
export const deletionRepository = {
  /** The meeting, locked until the transaction ends, so a join or an end cannot run alongside. */
  lockMeeting(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('meetings')
      .select(['id', 'account_id', 'scenario_id', 'status'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },
  /** The storage objects of the meeting's recording (media and thumbnail). */
  async storageKeys(db: Kysely<DB>, meetingId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('recordings')
      .select(['media_key', 'thumbnail_key'])
      .where('meeting_id', '=', meetingId)
      .execute();
    return rows.flatMap((row) => [row.media_key, row.thumbnail_key]).filter((key): key is string => !!key);
  },
  /**
   * Deletes the meeting; its participants, transcript and sentences, recording row, analysis and
   * goal results, feedback and usage go with it (`on delete cascade`), and memories it wrote keep
   * their facts without the link (`on delete set null`). Events and deliveries are not tied to it.
   */
  async delete(db: Kysely<DB>, accountId: string, id: string): Promise<boolean> {
    const deleted = await db
      .deleteFrom('meetings')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return deleted !== undefined;
  },
  /**
   * Meetings past their workspace's retention (`meeting_retention_days`), oldest first: ended
   * ones by `ended_at`, and ones created but never joined (`created`) by `created_at`, so an
   * abandoned meeting does not stay forever. Running meetings are never due.
   * Scoping to one workspace is for tests and tools; the sweep covers every workspace.
   */
  expired(db: Kysely<DB>, options: { now: Date; limit: number; accountId?: string }) {
    const cutoff = sql<Date>`${options.now}::timestamptz - make_interval(days => accounts.meeting_retention_days)`;
    const dueAt = sql<Date>`coalesce(meetings.ended_at, meetings.created_at)`;
    let query = db
      .selectFrom('meetings')
      .innerJoin('accounts', 'accounts.id', 'meetings.account_id')
      .select(['meetings.id', 'meetings.account_id'])
      .where('accounts.meeting_retention_days', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('meetings.status', '=', 'ended'), eb('meetings.ended_at', '<', cutoff)]),
          eb.and([eb('meetings.status', '=', 'created'), eb('meetings.created_at', '<', cutoff)]),
        ]),
      );
    if (options.accountId) query = query.where('meetings.account_id', '=', options.accountId);
    return query.orderBy(dueAt).orderBy('meetings.id').limit(options.limit).execute();
  },
};
