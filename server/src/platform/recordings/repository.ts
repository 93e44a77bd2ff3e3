import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/**
 * Recording rows. The room's writes address the meeting the room token opened; the owner's read
 * filters by account.
 */
export const recordingRepository = {
  /** The meeting's recording, locked while an upload replaces a key or publishes it. */
  lockForMeeting(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('recordings')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .forUpdate()
      .executeTakeFirst();
  },
  /** The recording, locked, when it can be published: its meeting ended and its media is in. */
  lockPublishable(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('recordings')
      .innerJoin('meetings', 'meetings.id', 'recordings.meeting_id')
      .select(['recordings.id', 'recordings.account_id', 'recordings.scenario_id', 'recordings.status'])
      .where('recordings.meeting_id', '=', meetingId)
      .where('meetings.status', '=', 'ended')
      .where('recordings.media_key', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
  },
  insert(db: Kysely<DB>, values: Insertable<DB['recordings']>) {
    return db.insertInto('recordings').values(values).execute();
  },
  update(db: Kysely<DB>, id: string, values: Updateable<DB['recordings']>) {
    return db.updateTable('recordings').set(values).where('id', '=', id).execute();
  },
  markReady(db: Kysely<DB>, id: string, now: Date) {
    return db
      .updateTable('recordings')
      .set({ status: 'ready', ready_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  },
  /** What decides whether the room may upload: the meeting's state, the scenario's settings, the consent. */
  uploadConditions(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .leftJoin('meeting_participants', 'meeting_participants.meeting_id', 'meetings.id')
      .select([
        'meetings.status',
        'meetings.ended_at',
        'scenarios.recording_enabled',
        'scenarios.recording_consent_required',
        'meeting_participants.recording_consent',
      ])
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
  },
  findReady(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('recordings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('meeting_id', '=', meetingId)
      .where('status', '=', 'ready')
      .executeTakeFirst();
  },
  findMeeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', meetingId)
      .executeTakeFirst();
  },
};
