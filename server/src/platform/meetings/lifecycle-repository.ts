import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/**
 * The state machine's statements. They address a meeting by id alone: the lifecycle runs for
 * meetings an authorised caller (room token, account-scoped API, worker) has already resolved.
 */
export const lifecycleRepository = {
  /** The meeting row, locked until the transaction ends: state changes of one meeting queue up. */
  lockMeeting(db: Kysely<DB>, meetingId: string) {
    return db.selectFrom('meetings').selectAll().where('id', '=', meetingId).forUpdate().executeTakeFirst();
  },
  callDuration(db: Kysely<DB>, scenarioId: string) {
    return db
      .selectFrom('scenarios')
      .select('call_duration')
      .where('id', '=', scenarioId)
      .executeTakeFirstOrThrow();
  },
  /** created → active: the first join starts the clock. */
  markStarted(
    db: Kysely<DB>,
    meetingId: string,
    change: { now: Date; deadlineAt: Date; recordingExpected: boolean },
  ) {
    return db
      .updateTable('meetings')
      .set({
        status: 'active',
        started_at: change.now,
        deadline_at: change.deadlineAt,
        live_seen_at: change.now,
        recording_expected: change.recordingExpected,
        updated_at: change.now,
      })
      .where('id', '=', meetingId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** A re-join of an active meeting: it is held again. */
  markRejoined(db: Kysely<DB>, meetingId: string, change: { now: Date; recordingExpected: boolean }) {
    return db
      .updateTable('meetings')
      .set({ live_seen_at: change.now, recording_expected: change.recordingExpected, updated_at: change.now })
      .where('id', '=', meetingId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  markEnded(
    db: Kysely<DB>,
    meetingId: string,
    change: { now: Date; durationSeconds: number; reason: string },
  ) {
    return db
      .updateTable('meetings')
      .set({
        status: 'ended',
        ended_at: change.now,
        duration_seconds: change.durationSeconds,
        end_reason: change.reason,
        live_seen_at: null,
        updated_at: change.now,
      })
      .where('id', '=', meetingId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** The meeting's (single) participant, locked, or undefined before anyone was recorded. */
  lockParticipant(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meeting_participants')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
  },
  /** A participant with no row yet (none was created with the meeting) joins. */
  insertJoinedParticipant(db: Kysely<DB>, values: Insertable<DB['meeting_participants']>) {
    return db.insertInto('meeting_participants').values(values).returningAll().executeTakeFirstOrThrow();
  },
  updateParticipant(db: Kysely<DB>, participantId: string, values: Updateable<DB['meeting_participants']>) {
    return db
      .updateTable('meeting_participants')
      .set(values)
      .where('id', '=', participantId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Sets left_at of the participants still in; returns them. */
  markParticipantsLeft(db: Kysely<DB>, meetingId: string, now: Date) {
    return db
      .updateTable('meeting_participants')
      .set({ left_at: now, updated_at: now })
      .where('meeting_id', '=', meetingId)
      .where('joined_at', 'is not', null)
      .where('left_at', 'is', null)
      .returningAll()
      .execute();
  },
  recordSessionSeconds(db: Kysely<DB>, meetingId: string, seconds: number, now: Date) {
    return db
      .updateTable('meeting_usage')
      .set({ session_seconds: seconds, updated_at: now })
      .where('meeting_id', '=', meetingId)
      .execute();
  },
  findTranscript(db: Kysely<DB>, meetingId: string) {
    return db.selectFrom('transcripts').selectAll().where('meeting_id', '=', meetingId).executeTakeFirst();
  },
  findTranscriptOrThrow(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('transcripts')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .executeTakeFirstOrThrow();
  },
  /** A concurrent creator may win the race: its row stands and this insert does nothing. */
  insertTranscriptIfMissing(db: Kysely<DB>, values: Insertable<DB['transcripts']>) {
    return db
      .insertInto('transcripts')
      .values(values)
      .onConflict((conflict) => conflict.column('meeting_id').doNothing())
      .execute();
  },
  completeTranscript(
    db: Kysely<DB>,
    transcriptId: number,
    done: { content: string; sentenceCount: number; now: Date },
  ) {
    return db
      .updateTable('transcripts')
      .set({
        status: 'completed',
        content: done.content,
        sentence_count: done.sentenceCount,
        completed_at: done.now,
        updated_at: done.now,
      })
      .where('id', '=', transcriptId)
      .execute();
  },
  /** The name of the scenario's persona, if it has one. */
  personaName(db: Kysely<DB>, scenarioId: string) {
    return db
      .selectFrom('scenarios')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select('personas.name')
      .where('scenarios.id', '=', scenarioId)
      .executeTakeFirst();
  },
  /** Heartbeat: the meetings are still held by a process. */
  refreshLiveSeen(db: Kysely<DB>, meetingIds: string[], now: Date) {
    return db
      .updateTable('meetings')
      .set({ live_seen_at: now })
      .where('id', 'in', meetingIds)
      .where('status', '=', 'active')
      .execute();
  },
  /** Active meetings past their deadline or held by nobody since `staleBefore`, earliest deadline first. */
  dueToEnd(db: Kysely<DB>, options: { now: Date; staleBefore: Date; limit: number; accountId?: string }) {
    let query = db.selectFrom('meetings');
    if (options.accountId) query = query.where('account_id', '=', options.accountId);
    return query
      .select(['id', 'deadline_at'])
      .where('status', '=', 'active')
      .where((eb) =>
        eb.or([
          eb('deadline_at', '<=', options.now),
          eb('live_seen_at', '<', options.staleBefore),
          eb('live_seen_at', 'is', null),
        ]),
      )
      .orderBy('deadline_at')
      .limit(options.limit)
      .execute();
  },
  /** NOTIFY on `channel`; delivered to listeners when the caller's transaction commits. */
  notify(db: Kysely<DB>, channel: string, payload: string) {
    return sql`select pg_notify(${channel}, ${payload})`.execute(db);
  },
};
