import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { DEFAULT_RETRY } from './catalog.ts';
import { jobRepository } from './repository.ts';

export interface EnqueueOptions {
  /** Not before this instant (default: now). */
  runAt?: Date;
  /** Not before now + delayMs; ignored when runAt is given. */
  delayMs?: number;
  /** At most one job with this key is ever queued (until finished rows are purged). */
  dedupeKey?: string;
}

export interface Enqueued {
  id: string;
  /** False when a job with the same dedupe key already exists (nothing was added). */
  enqueued: boolean;
}

/**
 * Adds jobs. Always pass the transaction of the state change the job follows from, so the job
 * exists if and only if that change committed. Names without a handler in any running process
 * are kept and wait: they are claimed once a release that declares them runs.
 */
export class JobQueue {
  constructor(private readonly clock: Clock) {}

  async enqueue(
    db: Kysely<DB>,
    name: string,
    payload: unknown,
    options: EnqueueOptions = {},
  ): Promise<Enqueued> {
    const now = this.clock.now();
    const runAt = options.runAt ?? new Date(now.getTime() + (options.delayMs ?? 0));
    const id = randomUUID();
    const inserted = await jobRepository.insertUnlessDuplicate(db, {
      id,
      name,
      payload: JSON.stringify(payload ?? null),
      state: 'pending',
      attempts: 0,
      max_attempts: DEFAULT_RETRY.maxAttempts,
      run_at: runAt,
      dedupe_key: options.dedupeKey ?? null,
      created_at: now,
      updated_at: now,
    });
    if (!inserted) return { id: await jobRepository.idByDedupeKey(db, options.dedupeKey!), enqueued: false };
    await jobRepository.notifyDue(db, name);
    return { id, enqueued: true };
  }
}
