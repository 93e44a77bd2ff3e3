import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Value } from 'typebox/value';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import {
  backoffDelay,
  type JobCatalog,
  type JobDefinition,
  type JobLogger,
  type JobReschedule,
} from './catalog.ts';
import { JOBS_NOTIFY_CHANNEL, type JobRow, jobRepository } from './repository.ts';

export interface JobRunnerOptions {
  database: Database;
  clock: Clock;
  catalog: JobCatalog;
  logger: JobLogger;
  /** Most jobs running at once in this process. */
  concurrency?: number;
  /** How often an idle runner looks for due jobs when no NOTIFY arrives. */
  pollIntervalMs?: number;
  /** Finished jobs are deleted after this long (their dedupe keys with them). */
  retentionMs?: number;
}

export type JobOutcome = 'succeeded' | 'retrying' | 'failed' | 'rescheduled' | 'lost';

/** Beyond the timeout, how long a claim stays leased: time to record the outcome. */
const LEASE_MARGIN_MS = 30_000;
const PURGE_EVERY_MS = 10 * 60_000;
const ERROR_TEXT_MAX = 2_000;

class JobTimeout extends Error {}

/**
 * Runs the jobs of its catalog. Any number of runners (in one process or many) can share a
 * database: due rows are claimed with `FOR UPDATE SKIP LOCKED` under a lease, and every write
 * after a run is fenced by the claim token, so a run whose lease was lost records nothing.
 * A crashed runner's jobs are claimed again when their lease passes.
 */
export class JobRunner {
  readonly #db: Kysely<DB>;
  readonly #database: Database;
  readonly #clock: Clock;
  readonly #catalog: JobCatalog;
  readonly #logger: JobLogger;
  readonly #concurrency: number;
  readonly #pollIntervalMs: number;
  readonly #retentionMs: number;
  readonly #leaseMs: number;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #stopping = new AbortController();
  #running = false;
  #loop: Promise<void> | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #wakeUp: (() => void) | null = null;
  #notified = false;
  #lastPurge = 0;

  constructor(options: JobRunnerOptions) {
    this.#database = options.database;
    this.#db = options.database.db;
    this.#clock = options.clock;
    this.#catalog = options.catalog;
    this.#logger = options.logger;
    this.#concurrency = options.concurrency ?? 8;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
    const longest = Math.max(0, ...options.catalog.names.map((name) => options.catalog.get(name)!.timeoutMs));
    this.#leaseMs = longest + LEASE_MARGIN_MS;
  }

  /**
   * Claims the jobs due now (up to `limit`) and runs them to their outcome. For tests and tools:
   * with a fake clock, advance it and call runOnce() to play retries and delays.
   */
  async runOnce(limit = 50): Promise<Array<{ id: string; name: string; outcome: JobOutcome }>> {
    const claimed = await this.#claim(limit);
    return Promise.all(
      claimed.map(async (row) => ({ id: row.id, name: row.name, outcome: await this.#runSafely(row) })),
    );
  }

  /**
   * Claims this pending job now (even if not yet due) and runs it to its outcome, like a claim
   * of the loop would (same lease, fencing, retry and stop()); undefined when it was not pending,
   * i.e. another runner has it.
   */
  async runNow(id: string): Promise<JobOutcome | undefined> {
    const now = this.#clock.now();
    const row = await jobRepository.claimById(this.#db, {
      id,
      names: this.#catalog.names,
      now,
      leaseUntil: new Date(now.getTime() + this.#leaseMs),
      token: randomUUID(),
    });
    if (!row) return undefined;
    const run = this.#runSafely(row);
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
    return run;
  }

  /** Runs runOnce() until nothing is due (bounded), e.g. to drain a chain of jobs in a test. */
  async drain(maxRounds = 20): Promise<Array<{ id: string; name: string; outcome: JobOutcome }>> {
    const all: Array<{ id: string; name: string; outcome: JobOutcome }> = [];
    for (let round = 0; round < maxRounds; round += 1) {
      const ran = await this.runOnce();
      if (ran.length === 0) break;
      all.push(...ran);
    }
    return all;
  }

  async start(): Promise<void> {
    if (this.#loop || this.#catalog.size === 0) return;
    this.#running = true;
    try {
      this.#unlisten = await this.#database.listen(JOBS_NOTIFY_CHANNEL, () => {
        this.#notified = true;
        this.#wake();
      });
    } catch (error) {
      this.#logger.warn({ err: error }, 'job runner could not LISTEN; polling only');
    }
    this.#loop = this.#run();
  }

  /** Stops claiming, aborts running handlers' signals after they had their chance, waits for them. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake();
    await this.#loop;
    this.#loop = null;
    const settle = Promise.allSettled([...this.#inFlight]);
    const grace = setTimeout(() => this.#stopping.abort(new Error('worker stopping')), 10_000);
    await settle;
    clearTimeout(grace);
    await this.#unlisten?.().catch(() => {});
    this.#unlisten = null;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.#concurrency - this.#inFlight.size;
      if (free <= 0) {
        await this.#sleep(this.#pollIntervalMs);
        continue;
      }
      this.#notified = false;
      let claimed: JobRow[] = [];
      try {
        await this.#maybePurge();
        claimed = await this.#claim(free);
      } catch (error) {
        this.#logger.error({ err: error }, 'job runner failed to claim; retrying after the poll interval');
      }
      for (const row of claimed) {
        const run = this.#runSafely(row);
        this.#inFlight.add(run);
        void run.finally(() => {
          this.#inFlight.delete(run);
          this.#wake();
        });
      }
      if (claimed.length < free && !this.#notified && this.#running) await this.#sleep(this.#pollIntervalMs);
    }
  }

  async #claim(limit: number): Promise<JobRow[]> {
    const names = this.#catalog.names;
    if (names.length === 0 || limit <= 0) return [];
    const now = this.#clock.now();
    const leaseUntil = new Date(now.getTime() + this.#leaseMs);
    const rows = await jobRepository.claimDue(this.#db, {
      names,
      now,
      leaseUntil,
      limit,
      token: randomUUID(),
    });
    return rows.sort((a, b) => new Date(a.run_at).getTime() - new Date(b.run_at).getTime());
  }

  async #runSafely(row: JobRow): Promise<JobOutcome> {
    try {
      return await this.#execute(row);
    } catch (error) {
      // Recording the outcome failed (database away): the lease expires and the job runs again.
      this.#logger.error({ err: error, job_id: row.id, job: row.name }, 'job outcome could not be recorded');
      return 'lost';
    }
  }

  async #execute(row: JobRow): Promise<JobOutcome> {
    const definition = this.#catalog.get(row.name)!;
    const maxAttempts = definition.retry.maxAttempts;
    if (row.attempts > maxAttempts) {
      // Only reachable through expired leases: the process died during each of its runs.
      return this.#settleFailure(row, definition, new Error('lease expired on every attempt'), true);
    }
    if (!Value.Check(definition.payload, row.payload)) {
      const problems = [...Value.Errors(definition.payload, row.payload)]
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'} ${e.message}`);
      return this.#settleFailure(row, definition, new Error(`invalid payload: ${problems.join('; ')}`), true);
    }
    const controller = new AbortController();
    const onStop = () => controller.abort(this.#stopping.signal.reason);
    this.#stopping.signal.addEventListener('abort', onStop, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new JobTimeout(`timed out after ${definition.timeoutMs} ms`);
        // Reject first: a handler that returns as soon as it is aborted must not count as done.
        reject(error);
        controller.abort(error);
      }, definition.timeoutMs);
      timer.unref?.();
    });
    let result: void | JobReschedule;
    try {
      result = await Promise.race([
        definition.handler(row.payload, {
          jobId: row.id,
          attempt: row.attempts,
          signal: controller.signal,
          logger: this.#logger,
        }),
        timeout,
      ]);
    } catch (error) {
      return this.#settleFailure(row, definition, error, false);
    } finally {
      clearTimeout(timer);
      this.#stopping.signal.removeEventListener('abort', onStop);
    }
    const now = this.#clock.now();
    if (result && 'rescheduleAt' in result) {
      await jobRepository.recordOutcome(this.#db, row, {
        state: 'pending',
        attempts: row.attempts - 1,
        run_at: result.rescheduleAt,
        last_error: result.reason ?? null,
        updated_at: now,
      });
      return 'rescheduled';
    }
    const kept = await jobRepository.recordOutcome(this.#db, row, {
      state: 'succeeded',
      last_error: null,
      updated_at: now,
      finished_at: now,
    });
    return kept ? 'succeeded' : 'lost';
  }

  async #settleFailure(
    row: JobRow,
    definition: JobDefinition<any>,
    error: unknown,
    permanent: boolean,
  ): Promise<JobOutcome> {
    const now = this.#clock.now();
    const message = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_TEXT_MAX);
    const last = permanent || row.attempts >= definition.retry.maxAttempts;
    const details = { err: error, job_id: row.id, job: row.name, attempt: row.attempts };
    if (last) {
      this.#logger.error(details, 'job failed for good');
      await jobRepository.recordOutcome(this.#db, row, {
        state: 'failed',
        last_error: message,
        updated_at: now,
        finished_at: now,
      });
      return 'failed';
    }
    this.#logger.warn(details, 'job failed; it will be retried');
    await jobRepository.recordOutcome(this.#db, row, {
      state: 'pending',
      run_at: new Date(now.getTime() + backoffDelay(definition.retry, row.attempts)),
      last_error: message,
      updated_at: now,
    });
    return 'retrying';
  }

  async #maybePurge(): Promise<void> {
    const now = this.#clock.now().getTime();
    if (now - this.#lastPurge < PURGE_EVERY_MS) return;
    this.#lastPurge = now;
    await jobRepository.purgeFinished(this.#db, new Date(now - this.#retentionMs));
  }

  #wake(): void {
    const wake = this.#wakeUp;
    this.#wakeUp = null;
    wake?.();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#wake(), ms);
      this.#wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
