// The meeting state machine (spec "Meeting status"): created → active on the first join; active
// → ended by the participant leaving, the duration limit, PUT /end or the agent. Every change and
// its events commit together; what follows the end runs as durable jobs (meeting.finalize).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../core/db/database.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { JOB_NAMES } from '../job-names.ts';
import { publishRecording } from '../recordings/publish.ts';
import { lifecycleRepository as repo } from './lifecycle-repository.ts';
import { type MeetingRow, type ParticipantRow, renderParticipant } from './render.ts';
import { meetingRepository } from './repository.ts';
import type { EndReason } from './schemas.ts';

/** Cross-instance control signals: the instance holding a meeting's socket acts on them. */
export const MEETING_CONTROL_CHANNEL = 'meeting_control';

export type ControlSignal =
  | { action: 'ended'; meeting_id: string; reason: EndReason }
  | { action: 'takeover'; meeting_id: string; instance: string };

/** After this long without a refresh of live_seen_at, no process holds the meeting's socket. */
export const LIVE_STALE_MS = 90_000;

export interface JoinDetails {
  name?: string;
  recordingConsent: boolean;
  recordingExpected: boolean;
  clientInfo: Record<string, unknown> | null;
}

export type Activation =
  | { status: 'ended'; meeting: MeetingRow }
  | { status: 'active'; meeting: MeetingRow; participant: ParticipantRow; firstJoin: boolean };

export interface EndResult {
  /** False when the meeting had already ended (nothing changed). */
  ended: boolean;
  meeting: MeetingRow;
}

export interface LifecycleDeps {
  database: Database;
  clock: Clock;
  events: EventEmitter;
  jobs: JobQueue;
  logger: Logger;
}

/** Run in the finalising transaction, after `meeting.ended` is emitted (assigned practice, …). */
export type EndedHook = (tx: Kysely<DB>, meeting: MeetingRow) => Promise<void>;

export class MeetingLifecycle {
  readonly #db: Kysely<DB>;
  readonly #endedHooks: EndedHook[] = [];
  constructor(private readonly deps: LifecycleDeps) {
    this.#db = deps.database.db;
  }

  /** Another module's work on a meeting's end, in the same transaction (the job retries it whole). */
  afterEnded(hook: EndedHook): void {
    this.#endedHooks.push(hook);
  }

  /** The participant enters: the meeting becomes active (first time: started_at, deadline) and joined_at is set once. */
  async activate(meetingId: string, join: JoinDetails): Promise<Activation> {
    return this.#db.transaction().execute(async (tx) => {
      const meeting = await lockMeeting(tx, meetingId);
      if (meeting.status === 'ended') return { status: 'ended' as const, meeting };
      const now = this.deps.clock.now();
      let updated: MeetingRow;
      if (meeting.status === 'created') {
        const scenario = await repo.callDuration(tx, meeting.scenario_id);
        updated = await repo.markStarted(tx, meetingId, {
          now,
          deadlineAt: new Date(now.getTime() + scenario.call_duration * 60_000),
          recordingExpected: join.recordingExpected,
        });
      } else {
        updated = await repo.markRejoined(tx, meetingId, {
          now,
          recordingExpected: meeting.recording_expected || join.recordingExpected,
        });
      }
      const existing = await repo.lockParticipant(tx, meetingId);
      const firstJoin = !existing?.joined_at;
      const clientInfo = join.clientInfo ? JSON.stringify(join.clientInfo) : null;
      const name = join.name?.trim() || null;
      let participant: ParticipantRow;
      if (!existing) {
        participant = await repo.insertJoinedParticipant(tx, {
          id: crypto.randomUUID(),
          meeting_id: meetingId,
          account_id: meeting.account_id,
          name: meeting.person_name ?? name,
          email: null,
          is_self: meeting.meeting_type === 'regular',
          joined_at: now,
          recording_consent: join.recordingConsent,
          client_info: clientInfo,
          created_at: now,
          updated_at: now,
        });
      } else {
        participant = await repo.updateParticipant(tx, existing.id, {
          joined_at: existing.joined_at ?? now,
          name: existing.name ?? name,
          // Consent given once stays given for the meeting; a re-join cannot withdraw an upload already allowed.
          recording_consent: Boolean(existing.recording_consent) || join.recordingConsent,
          client_info: clientInfo,
          updated_at: now,
        });
      }
      if (firstJoin) {
        await this.deps.events.emit(tx, {
          accountId: meeting.account_id,
          event: 'participant.joined',
          data: {
            meeting_id: meeting.id,
            scenario_id: meeting.scenario_id,
            participant: renderParticipant(participant),
          },
        });
      }
      return { status: 'active' as const, meeting: updated, participant, firstJoin };
    });
  }

  /**
   * Ends the meeting (any state but ended), sets left_at of a participant still in, and queues
   * the finalisation; then signals every instance so the one holding the socket closes it.
   */
  async end(meetingId: string, reason: EndReason): Promise<EndResult> {
    const result = await this.#db.transaction().execute(async (tx) => {
      const meeting = await lockMeeting(tx, meetingId);
      if (meeting.status === 'ended') return { ended: false, meeting };
      const now = this.deps.clock.now();
      const duration = meeting.started_at
        ? Math.max(0, Math.round((now.getTime() - new Date(meeting.started_at).getTime()) / 1000))
        : 0;
      const ended = await repo.markEnded(tx, meetingId, { now, durationSeconds: duration, reason });
      const leaving = await repo.markParticipantsLeft(tx, meetingId, now);
      for (const participant of leaving) {
        await this.deps.events.emit(tx, {
          accountId: meeting.account_id,
          event: 'participant.left',
          data: {
            meeting_id: meeting.id,
            scenario_id: meeting.scenario_id,
            participant: renderParticipant(participant),
          },
        });
      }
      await repo.recordSessionSeconds(tx, meetingId, duration, now);
      await this.deps.jobs.enqueue(
        tx,
        JOB_NAMES.meetingFinalize,
        { meeting_id: meetingId },
        { dedupeKey: `${JOB_NAMES.meetingFinalize}:${meetingId}` },
      );
      await notifyControl(tx, { action: 'ended', meeting_id: meetingId, reason });
      return { ended: true, meeting: ended };
    });
    if (result.ended) this.deps.logger.info({ meeting_id: meetingId, reason }, 'meeting ended');
    return result;
  }

  /**
   * The work that follows the end, in order and in one transaction (the job retries it whole):
   * the recording when its upload is in, the transcript marked complete with its full text,
   * `meeting.ended` then `transcript.ready`, and the analysis queued. With `completeWithin` (the
   * job's completion) in the same transaction, a crash after the commit never runs it again.
   */
  async finalize(meetingId: string, completeWithin?: (tx: Kysely<DB>) => Promise<void>): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await this.#finalizeIn(tx, meetingId);
      await completeWithin?.(tx);
    });
  }

  async #finalizeIn(tx: Kysely<DB>, meetingId: string): Promise<void> {
    const meeting = await repo.lockMeeting(tx, meetingId);
    // Deleted since it ended (DELETE /meetings/{id}): nothing is left to finalise.
    if (!meeting) return;
    if (meeting.status !== 'ended') throw new Error(`meeting ${meetingId} has not ended`);
    await publishRecording(tx, this.deps, meetingId);
    const transcript = await ensureTranscript(tx, meeting, this.deps.clock.now());
    if (transcript.status === 'completed') return;
    const sentences = await meetingRepository.transcriptLines(tx, transcript.id);
    const names = await speakerNames(tx, meeting);
    const content = sentences.map((s) => `${names[s.speaker]}: ${s.message}`).join('\n');
    const now = this.deps.clock.now();
    await repo.completeTranscript(tx, transcript.id, { content, sentenceCount: sentences.length, now });
    const ref = { meeting_id: meeting.id, scenario_id: meeting.scenario_id };
    await this.deps.events.emit(tx, {
      accountId: meeting.account_id,
      event: 'meeting.ended',
      data: {
        ...ref,
        ended_at: new Date(meeting.ended_at!).toISOString(),
        duration_seconds: meeting.duration_seconds ?? 0,
      },
    });
    for (const hook of this.#endedHooks) await hook(tx, meeting);
    await this.deps.events.emit(tx, {
      accountId: meeting.account_id,
      event: 'transcript.ready',
      data: { ...ref, transcript_id: Number(transcript.id), sentence_count: sentences.length },
    });
    await this.deps.jobs.enqueue(
      tx,
      JOB_NAMES.analysisRun,
      { meeting_id: meeting.id, account_id: meeting.account_id },
      { dedupeKey: `${JOB_NAMES.analysisRun}:${meeting.id}` },
    );
  }

  /** Refreshes live_seen_at of the meetings whose sockets this process holds. */
  async touch(meetingIds: string[]): Promise<void> {
    if (meetingIds.length === 0) return;
    await repo.refreshLiveSeen(this.#db, meetingIds, this.deps.clock.now());
  }

  /**
   * Ends active meetings nobody ends otherwise: the duration limit passed (the socket's own timer
   * lives in one process; this catches the rest) or no process has refreshed live_seen_at lately.
   */
  async sweep(
    options: { limit?: number; accountId?: string } = {},
  ): Promise<Array<{ meetingId: string; reason: EndReason }>> {
    const now = this.deps.clock.now();
    // Scoping to one workspace is for tests and tools; the worker sweeps everything.
    const due = await repo.dueToEnd(this.#db, {
      now,
      staleBefore: new Date(now.getTime() - LIVE_STALE_MS),
      limit: options.limit ?? 100,
      accountId: options.accountId,
    });
    const ended: Array<{ meetingId: string; reason: EndReason }> = [];
    for (const row of due) {
      const reason: EndReason =
        row.deadline_at && new Date(row.deadline_at).getTime() <= now.getTime()
          ? 'duration_limit'
          : 'participant_left';
      try {
        const result = await this.end(row.id, reason);
        if (result.ended) ended.push({ meetingId: row.id, reason });
      } catch (error) {
        this.deps.logger.warn({ err: error, meeting_id: row.id }, 'sweeper could not end a meeting');
      }
    }
    return ended;
  }
}

async function lockMeeting(tx: Kysely<DB>, meetingId: string): Promise<MeetingRow> {
  const meeting = await repo.lockMeeting(tx, meetingId);
  // Deleted meanwhile (DELETE /meetings/{id} or the retention): a 404 for the caller, not a 500.
  if (!meeting) throw new AppError('resource_not_found', 'No such meeting: it was deleted.', { param: 'id' });
  return meeting;
}

export async function notifyControl(db: Kysely<DB>, signal: ControlSignal): Promise<void> {
  await repo.notify(db, MEETING_CONTROL_CHANNEL, JSON.stringify(signal));
}

/** The meeting's transcript row (one per meeting), created when missing. */
export async function ensureTranscript(db: Kysely<DB>, meeting: MeetingRow, now: Date) {
  const existing = await repo.findTranscript(db, meeting.id);
  if (existing) return existing;
  await repo.insertTranscriptIfMissing(db, {
    meeting_id: meeting.id,
    account_id: meeting.account_id,
    scenario_id: meeting.scenario_id,
    created_at: now,
    updated_at: now,
  });
  return repo.findTranscriptOrThrow(db, meeting.id);
}

async function speakerNames(db: Kysely<DB>, meeting: MeetingRow): Promise<Record<'user' | 'agent', string>> {
  const persona = await repo.personaName(db, meeting.scenario_id);
  return { user: meeting.person_name?.trim() || 'Participant', agent: persona?.name?.trim() || 'Agent' };
}
