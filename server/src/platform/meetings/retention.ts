// The workspace's retention (`meeting_retention_days`): ended meetings older than that are deleted
// exactly as DELETE /v1/meetings/{id} deletes them (meeting.deleted with reason `retention`). A
// periodic tick in every process queues one sweep job per time slot (a dedupe key), so however
// many instances run, one sweep runs per slot, durable and retried by the jobs engine.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import { defineJob, type Enqueued, type JobQueue } from '../../core/jobs/index.ts';
import { type BackgroundWorker, periodic } from '../../core/workers.ts';
import { JOB_NAMES } from '../job-names.ts';
import type { MeetingDeletion } from './deletion.ts';
import { deletionRepository } from './deletion-repository.ts';

/** How often a sweep is queued. */
export const RETENTION_SWEEP_INTERVAL_MS = 10 * 60_000;
/** Meetings one run deletes; a full batch queues the next run at once. */
export const RETENTION_BATCH = 200;

export interface MeetingRetentionDeps {
  db: Kysely<DB>;
  clock: Clock;
  jobs: JobQueue;
  deletion: MeetingDeletion;
  logger: Logger;
}

export class MeetingRetention {
  constructor(private readonly deps: MeetingRetentionDeps) {}

  /** Deletes up to `limit` expired meetings, oldest first; the ids deleted. */
  async sweep(options: { limit?: number; accountId?: string } = {}): Promise<string[]> {
    const { db, clock, deletion, logger } = this.deps;
    const limit = options.limit ?? RETENTION_BATCH;
    const due = await deletionRepository.expired(db, {
      now: clock.now(),
      limit,
      accountId: options.accountId,
    });
    const deleted: string[] = [];
    for (const meeting of due) {
      try {
        if (await deletion.delete(meeting.account_id, meeting.id, 'retention')) deleted.push(meeting.id);
      } catch (error) {
        // Rejoined since it was picked (active again): kept, and looked at again next time.
        if (error instanceof AppError && error.code === 'meeting_active') continue;
        throw error;
      }
    }
    if (deleted.length > 0) logger.info({ deleted: deleted.length }, 'retention deleted meetings');
    return deleted;
  }

  /** Queues this slot's sweep unless one is queued already. */
  enqueueSweep(): Promise<Enqueued> {
    const { db, clock, jobs } = this.deps;
    const slot = Math.floor(clock.now().getTime() / RETENTION_SWEEP_INTERVAL_MS);
    return jobs.enqueue(
      db,
      JOB_NAMES.meetingRetentionSweep,
      {},
      {
        dedupeKey: `${JOB_NAMES.meetingRetentionSweep}:${slot}`,
      },
    );
  }

  job() {
    return defineJob({
      name: JOB_NAMES.meetingRetentionSweep,
      payload: Type.Object({}),
      retry: { maxAttempts: 5, backoffMs: 30_000, maxBackoffMs: 10 * 60_000 },
      timeoutMs: 5 * 60_000,
      handler: async () => {
        const deleted = await this.sweep();
        // A full batch: more may be due, so the same job runs again now (without counting an attempt).
        if (deleted.length >= RETENTION_BATCH)
          return { rescheduleAt: this.deps.clock.now(), reason: 'more due' };
      },
    });
  }

  worker(): BackgroundWorker {
    return periodic(
      'meeting-retention',
      RETENTION_SWEEP_INTERVAL_MS,
      () => this.enqueueSweep(),
      (error) => this.deps.logger.warn({ err: error, worker: 'meeting-retention' }, 'worker task failed'),
    );
  }
}
