import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Value } from 'typebox/value';
import { claimRetryMs } from '../claim-retry.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { LeaseHeartbeat } from '../lease-heartbeat.ts';
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
  /**
   * The safety net: the longest an idle runner sleeps without looking. It is woken by NOTIFY
   * when a job is enqueued and by the next run_at or lease end it read when it last looked.
   */
  pollIntervalMs?: number;
  /**
   * How long a claim holds a job without news from its runner. A heartbeat renews it every
   * `heartbeatMs` while the job runs, so a dead runner's job is taken again within this long.
   */
  leaseMs?: number;
  /** Default: a third of the lease, so two missed beats still keep the claim. */
  heartbeatMs?: number;
  /** Finished jobs are deleted after this long (their dedupe keys with them). */
  retentionMs?: number;
}

export type JobOutcome = 'succeeded' | 'retrying' | 'failed' | 'rescheduled' | 'lost';

export const DEFAULT_LEASE_MS = 15_000;
export const DEFAULT_IDLE_POLL_MS = 30_000;
/** Without LISTEN (a pooler that drops it) the runner falls back to looking this often. */
const POLL_WITHOUT_NOTIFY_MS = 1_000;
/** Floor of an idle sleep, so a row that is due but locked by someone else is not spun on. */
const MIN_IDLE_MS = 100;
const PURGE_EVERY_MS = 10 * 60_000;
const ERROR_TEXT_MAX = 2_000;

class JobTimeout extends Error {}
/** The run's lease passed and another runner may hold the job: its work is abandoned. */
export class JobLeaseLost extends Error {}

/**
 * Runs the jobs of its catalog. Any number of runners (in one process or many) can share a
 * database: due rows are claimed with `FOR UPDATE SKIP LOCKED` under a lease, and every write
 * after a run is fenced by the claim token, so a run whose lease was lost records nothing.
 * Leases are short and renewed by a heartbeat while the job runs, so a crashed runner's jobs are
 * claimed again within seconds, whatever the job's own timeout.
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
  /** Renews the claims of runs in progress in this runner, all in one statement. */
  readonly #heartbeat: LeaseHeartbeat;
  #listening = false;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #stopping = new AbortController();
  #running = false;
  #loop: Promise<void> | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #wakeUp: (() => void) | null = null;
  #notified = false;
  #lastPurge = 0;
  #failedClaims = 0;

  constructor(options: JobRunnerOptions) {
    this.#database = options.database;
    this.#db = options.database.db;
    this.#clock = options.clock;
    this.#catalog = options.catalog;
    this.#logger = options.logger;
    this.#concurrency = options.concurrency ?? 8;
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_IDLE_POLL_MS;
    this.#retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
    this.#heartbeat = new LeaseHeartbeat({
      clock: this.#clock,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      intervalMs: options.heartbeatMs,
      renew: (claims, leaseUntil) => jobRepository.renewLeases(this.#db, { claims, leaseUntil }),
      // The database is away: the claims run out unless a later beat gets through.
      onRenewError: (error) => this.#logger.warn({ err: error }, 'could not renew job leases'),
    });
  }

  /** How long a claim lasts without a heartbeat (what a crashed runner's job waits, at most). */
  get leaseMs(): number {
    return this.#heartbeat.leaseMs;
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
    const row = await jobRepository.claimById(this.#db, {
      id,
      names: this.#catalog.names,
      now: this.#clock.now(),
      leaseUntil: this.#heartbeat.leaseFromNow(),
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
      this.#listening = true;
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
    this.#heartbeat.stop();
    await this.#unlisten?.().catch(() => {});
    this.#unlisten = null;
    this.#listening = false;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.#concurrency - this.#inFlight.size;
      if (free <= 0) {
        // A finishing run wakes the loop.
        await this.#sleep(this.#pollIntervalMs);
        continue;
      }
      this.#notified = false;
      let claimed: JobRow[] = [];
      let nextDue: Date | null | undefined;
      try {
        await this.#maybePurge();
        claimed = await this.#claim(free);
        if (claimed.length < free && !this.#notified)
          nextDue = await jobRepository.nextDueAt(this.#db, this.#catalog.names);
        this.#failedClaims = 0;
      } catch (error) {
        this.#failedClaims += 1;
        const retryMs = claimRetryMs(this.#failedClaims);
        this.#logger.error({ err: error, retryMs }, 'job runner failed to claim; retrying');
        if (this.#running) await this.#sleep(retryMs);
        continue;
      }
      for (const row of claimed) {
        const run = this.#runSafely(row);
        this.#inFlight.add(run);
        void run.finally(() => {
          this.#inFlight.delete(run);
          this.#wake();
        });
      }
      if (claimed.length < free && !this.#notified && this.#running)
        await this.#sleep(this.#idleDelay(nextDue));
    }
  }

  /** Until the next job becomes due (or its lease ends), capped by the safety-net poll. */
  #idleDelay(nextDue: Date | null | undefined): number {
    const ceiling = this.#listening
      ? this.#pollIntervalMs
      : Math.min(this.#pollIntervalMs, POLL_WITHOUT_NOTIFY_MS);
    if (!nextDue) return ceiling;
    const untilDue = nextDue.getTime() - this.#clock.now().getTime();
    return Math.min(ceiling, Math.max(MIN_IDLE_MS, untilDue));
  }

  async #claim(limit: number): Promise<JobRow[]> {
    const names = this.#catalog.names;
    if (names.length === 0 || limit <= 0) return [];
    const rows = await jobRepository.claimDue(this.#db, {
      names,
      now: this.#clock.now(),
      leaseUntil: this.#heartbeat.leaseFromNow(),
      limit,
      token: randomUUID(),
    });
    return rows.sort((a, b) => new Date(a.run_at).getTime() - new Date(b.run_at).getTime());
  }

  async #runSafely(row: JobRow): Promise<JobOutcome> {
    const controller = new AbortController();
    this.#hold(row, controller);
    try {
      return await this.#execute(row, controller);
    } catch (error) {
      // Recording the outcome failed (database away): the lease expires and the job runs again.
      this.#logger.error({ err: error, job_id: row.id, job: row.name }, 'job outcome could not be recorded');
      return 'lost';
    } finally {
      this.#heartbeat.release(row.id);
    }
  }

  async #execute(row: JobRow, controller: AbortController): Promise<JobOutcome> {
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
    let completedWithin = false;
    const completeWithin = async (tx: Kysely<DB>) => {
      const now = this.#clock.now();
      const held = await jobRepository.recordOutcome(tx, row, {
        state: 'succeeded',
        last_error: null,
        updated_at: now,
        finished_at: now,
      });
      if (!held) throw new JobLeaseLost(`job ${row.id} (${row.name}) is no longer held by this run`);
      completedWithin = true;
      // Finished once the caller commits: no more heartbeats for it (a renewal would find no claim).
      this.#heartbeat.release(row.id);
    };
    try {
      result = await Promise.race([
        definition.handler(row.payload, {
          jobId: row.id,
          attempt: row.attempts,
          signal: controller.signal,
          logger: this.#logger,
          completeWithin,
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
    // Completed inside the handler's transaction: nothing was left to write.
    return kept || completedWithin ? 'succeeded' : 'lost';
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
      const kept = await jobRepository.recordOutcome(this.#db, row, {
        state: 'failed',
        last_error: message,
        updated_at: now,
        finished_at: now,
      });
      return kept ? 'failed' : 'lost';
    }
    this.#logger.warn(details, 'job failed; it will be retried');
    const kept = await jobRepository.recordOutcome(this.#db, row, {
      state: 'pending',
      run_at: new Date(now.getTime() + backoffDelay(definition.retry, row.attempts)),
      last_error: message,
      updated_at: now,
    });
    // Fenced: a run that lost its claim (or completed in its own transaction) writes nothing.
    return kept ? 'retrying' : 'lost';
  }

  async #maybePurge(): Promise<void> {
    const now = this.#clock.now().getTime();
    if (now - this.#lastPurge < PURGE_EVERY_MS) return;
    this.#lastPurge = now;
    await jobRepository.purgeFinished(this.#db, new Date(now - this.#retentionMs));
  }

  /**
   * Keeps the run's claim alive while it runs. A run whose claim the heartbeat finds gone (it
   * stalled past its lease and another runner took the job) is aborted; whatever it still writes
   * is fenced by its claim token and dropped.
   */
  #hold(row: JobRow, controller: AbortController): void {
    this.#heartbeat.hold({ id: row.id, token: row.claim_token! }, new Date(row.locked_until!), () => {
      if (controller.signal.aborted) return;
      this.#logger.warn({ job_id: row.id }, 'job lease lost; abandoning the run');
      controller.abort(new JobLeaseLost(`job ${row.id} lease lost`));
    });
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
