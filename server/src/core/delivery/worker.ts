import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { claimRetryMs } from '../claim-retry.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { LeaseHeartbeat } from '../lease-heartbeat.ts';
import { type DeliveryHttpClient, nextStateAfter, sendAttempt } from './attempt.ts';
import type { ChannelProfile, DeliveryTarget } from './profile.ts';
import {
  type ClaimedDelivery,
  type Completion,
  claimDueDeliveries,
  completeAttempts,
  DELIVERY_NOTIFY_CHANNEL,
  NOTIFY_COALESCE_MS,
  nextDueAt,
  releaseClaim,
  renewDeliveryLeases,
  settleWithoutAttempt,
} from './repository.ts';
import { WriteBatcher } from './write-batcher.ts';

/**
 * After a NOTIFY the worker looks again every NOTIFY_COALESCE_MS for this long: producers notify
 * at most once per window, so work committed just after a NOTIFY comes without one of its own.
 */
const ALERT_AFTER_NOTIFY_MS = 250;
const PARALLEL_CLAIMS = 2;
/** Floor of an idle sleep, so a due row that another transaction holds locked is not spun on. */
const MIN_IDLE_MS = 100;
export const DEFAULT_IDLE_POLL_MS = 30_000;
/** How long a claim lasts without the worker's heartbeat (DELIVERY_LEASE_MS). */
export const DEFAULT_DELIVERY_LEASE_MS = 15_000;

export interface WorkerLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  database: Database;
  clock: Clock;
  client: DeliveryHttpClient;
  profiles: readonly ChannelProfile[];
  /** Most deliveries claimed by one query. */
  batchSize?: number;
  /** Most attempts in flight at once in this process. */
  concurrency?: number;
  /**
   * The safety net: the longest an idle worker sleeps without looking. It is woken by NOTIFY on
   * new work, and at the next due retry it read from the database or scheduled itself.
   */
  pollIntervalMs?: number;
  /**
   * How long a claim holds a delivery without news from its worker. A heartbeat renews the claims
   * the worker holds (queued or being attempted) every `heartbeatMs`, so a dead worker's
   * deliveries are claimed again within this long, whatever the attempt timeout.
   */
  leaseMs?: number;
  /** Default: a third of the lease, so two missed beats still keep the claims. */
  heartbeatMs?: number;
  logger?: WorkerLogger;
}

/** A claimed delivery, queued or being attempted. */
interface Claim {
  delivery: ClaimedDelivery;
  /** Endpoint lookups shared by the deliveries of one claimed batch. */
  targets: Map<string, Promise<DeliveryTarget | null>>;
  /**
   * Aborted when the heartbeat finds the claim gone (this worker stalled past its lease and
   * another took the delivery): a queued delivery is dropped, an attempt is cut short and not
   * recorded.
   */
  lost: AbortController;
}

const consoleLogger: WorkerLogger = {
  info: () => {},
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/**
 * Claims due deliveries and attempts them through the outbound client. Any number of workers
 * (in one process or many) can run against the same database: claims use SKIP LOCKED and a
 * short lease that a heartbeat renews while the worker holds them, and every write after an
 * attempt is fenced by the claim token. A worker that dies (kill -9, lost machine) stops renewing:
 * its deliveries are claimed again within one lease, and only the attempts it had in flight (sent,
 * result not recorded) are sent twice.
 */
export class DeliveryWorker {
  readonly #database: Database;
  readonly #clock: Clock;
  readonly #client: DeliveryHttpClient;
  readonly #profiles: Map<string, ChannelProfile>;
  #claimCount = 0;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #pollIntervalMs: number;
  /** Renews the claims this worker holds, all in one statement. */
  readonly #heartbeat: LeaseHeartbeat;
  readonly #logger: WorkerLogger;
  readonly #inFlight = new Set<Promise<void>>();
  /** Attempts whose results are still being written. */
  readonly #unrecorded = new Set<Promise<void>>();
  /** Claimed, waiting for a free slot. */
  readonly #queued: Claim[] = [];
  #running = false;
  #loop: Promise<void> | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  /** false once a claim came back short (nothing due); set again by NOTIFY or the timer. */
  #lookForWork = true;
  #nextLookAt = 0;
  /** Counts NOTIFYs, so a claim can tell whether one arrived while it ran. */
  #notifies = 0;
  #alertUntil = 0;
  readonly #claims = new Set<Promise<void>>();
  #claimingRows = 0;
  #failedClaims = 0;
  #signal: (() => void) | null = null;
  #listening = false;
  readonly #completions: WriteBatcher<Completion, boolean>;

  constructor(options: DeliveryWorkerOptions) {
    this.#database = options.database;
    this.#clock = options.clock;
    this.#client = options.client;
    this.#profiles = new Map(options.profiles.map((profile) => [profile.name, profile]));
    this.#batchSize = options.batchSize ?? 50;
    this.#concurrency = options.concurrency ?? 32;
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_IDLE_POLL_MS;
    this.#logger = options.logger ?? consoleLogger;
    this.#heartbeat = new LeaseHeartbeat({
      clock: this.#clock,
      leaseMs: options.leaseMs ?? DEFAULT_DELIVERY_LEASE_MS,
      intervalMs: options.heartbeatMs,
      renew: (claims, leaseUntil) => renewDeliveryLeases(this.#database.db, { claims, leaseUntil }),
      onRenewError: (error) => this.#logger.warn({ err: error }, 'could not renew delivery leases'),
    });
    if (this.#profiles.size !== options.profiles.length)
      throw new Error('two delivery profiles share a name');
    this.#completions = new WriteBatcher(
      async (completions) => {
        const recorded = await completeAttempts(this.#database.db, completions);
        return (completion) => recorded.has(completion.delivery.id);
      },
      { maxBatch: 200, parallel: 2 },
    );
  }

  /** What the worker holds right now, for metrics and tests. */
  get load(): { inFlight: number; queued: number; unrecorded: number; held: number } {
    return {
      inFlight: this.#inFlight.size,
      queued: this.#queued.length,
      unrecorded: this.#unrecorded.size,
      held: this.#heartbeat.size,
    };
  }

  /** How long a claim lasts without a heartbeat (what a dead worker's deliveries wait, at most). */
  get leaseMs(): number {
    return this.#heartbeat.leaseMs;
  }

  /** Claims one batch, attempts it (up to `concurrency` at once) and returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.#claim(this.#batchSize);
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) await this.#deliverSafely(claimed[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, claimed.length) }, lane));
    await Promise.allSettled([...this.#unrecorded]);
    return claimed.length;
  }

  /** Runs until stop(): woken by NOTIFY on new work, and by the poll interval for due retries. */
  async start(): Promise<void> {
    if (this.#loop) return;
    this.#running = true;
    // The first look is at once: it also takes the expired claims of a worker that died.
    this.#lookForWork = true;
    try {
      this.#unlisten = await this.#database.listen(DELIVERY_NOTIFY_CHANNEL, () => {
        this.#notifies += 1;
        this.#lookForWork = true;
        this.#alertUntil = performance.now() + ALERT_AFTER_NOTIFY_MS;
        this.#wake();
      });
      this.#listening = true;
    } catch (error) {
      this.#logger.warn({ err: error }, 'delivery worker could not LISTEN; falling back to polling only');
    }
    this.#loop = this.#run();
    this.#logger.info({ host: hostname(), profiles: [...this.#profiles.keys()] }, 'delivery worker started');
  }

  /**
   * Stops claiming, lets attempts in flight finish and record their outcome, hands back claims
   * not yet started (so another worker can take them at once), then returns.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake();
    await this.#loop;
    this.#loop = null;
    await Promise.allSettled([...this.#claims]);
    const unstarted = this.#queued.splice(0);
    await Promise.allSettled([...this.#inFlight, ...unstarted.map((claim) => this.#handBack(claim))]);
    await Promise.allSettled([...this.#unrecorded]);
    this.#heartbeat.stop();
    await this.#unlisten?.().catch(() => {});
    this.#unlisten = null;
    this.#listening = false;
  }

  /**
   * Claims stay about one batch ahead of the attempts, so the next batch is already claimed
   * when slots free up: claiming and sending overlap instead of taking turns. Under a backlog two
   * claims run at once (SKIP LOCKED keeps them apart), so a claim's round trip is not the ceiling.
   */
  async #run(): Promise<void> {
    const lowWater = Math.ceil(this.#batchSize / 2);
    while (this.#running) {
      if (!this.#lookForWork) {
        // Idle until NOTIFY or the next look (a deadline, so a stream of other wake-ups, e.g.
        // finishing attempts, cannot keep postponing the poll for due retries).
        const untilNextLook = this.#nextLookAt - performance.now();
        if (untilNextLook <= 0) this.#lookForWork = true;
        else await this.#waitForSignal(untilNextLook);
        continue;
      }
      // Results waiting to be written are normal (a write takes a few ms); beyond two batches'
      // worth they mean the database is falling behind, and claiming slows down to match.
      const backlogOfResults = Math.max(0, this.#unrecorded.size - 2 * this.#batchSize);
      const room =
        this.#concurrency +
        this.#batchSize -
        this.#inFlight.size -
        this.#queued.length -
        this.#claimingRows -
        backlogOfResults;
      if (room < lowWater || this.#claims.size >= PARALLEL_CLAIMS) {
        await this.#waitForSignal(this.#pollIntervalMs);
        continue;
      }
      this.#startClaim(Math.min(this.#batchSize, room));
    }
  }

  #startClaim(want: number): void {
    const notifiesBefore = this.#notifies;
    this.#claimingRows += want;
    const claim = this.#claim(want)
      .then(
        (claimed) => {
          this.#failedClaims = 0;
          this.#queued.push(...claimed);
          this.#pump();
          // A short claim means nothing else is due, unless a NOTIFY came in meanwhile.
          if (claimed.length === want) this.#lookForWork = true;
          else if (this.#notifies === notifiesBefore) this.#idleUntilNextLook();
        },
        (error) => {
          this.#failedClaims += 1;
          const retryMs = claimRetryMs(this.#failedClaims);
          this.#logger.error({ err: error, retryMs }, 'delivery worker failed to claim; retrying');
          this.#idleUntilNextLook(retryMs);
        },
      )
      .finally(() => {
        this.#claimingRows -= want;
        this.#claims.delete(claim);
        this.#wake();
      });
    this.#claims.add(claim);
  }

  /**
   * Right after a NOTIFY, look again soon (see ALERT_AFTER_NOTIFY_MS); otherwise when the next
   * delivery can be claimed (a due retry, or the end of a claim's lease: a dead worker's deliveries
   * come free then; read from the database now) or at the safety-net poll, whichever comes first.
   */
  #idleUntilNextLook(delayMs?: number): void {
    const now = performance.now();
    this.#lookForWork = false;
    if (delayMs === undefined && now < this.#alertUntil) {
      this.#nextLookAt = now + NOTIFY_COALESCE_MS;
      return;
    }
    // Without LISTEN nothing announces new work: keep looking every second as before.
    const ceiling = this.#listening ? this.#pollIntervalMs : Math.min(this.#pollIntervalMs, 1_000);
    this.#nextLookAt = now + (delayMs ?? ceiling);
    if (delayMs !== undefined) return;
    const channels = [...this.#profiles.keys()];
    nextDueAt(this.#database.db, { channels, now: this.#clock.now() }).then(
      (at) => {
        if (at) this.#lookAgainBy(at);
      },
      (error) => this.#logger.warn({ err: error }, 'delivery worker could not read the next due time'),
    );
  }

  /** Brings the next look forward to `at` (clock time), e.g. a retry this worker just scheduled. */
  #lookAgainBy(at: Date): void {
    if (this.#lookForWork) return;
    const delay = Math.max(MIN_IDLE_MS, at.getTime() - this.#clock.now().getTime());
    const lookAt = performance.now() + delay;
    if (lookAt >= this.#nextLookAt) return;
    this.#nextLookAt = lookAt;
    this.#wake();
  }

  /** Starts queued attempts while slots are free. */
  #pump(): void {
    while (this.#running && this.#inFlight.size < this.#concurrency && this.#queued.length > 0) {
      this.#track(this.#deliverSafely(this.#queued.shift()!));
    }
  }

  /** Claims up to `limit` due deliveries; the heartbeat keeps them until they are settled. */
  async #claim(limit: number): Promise<Claim[]> {
    // Channels are claimed in turn; each claim starts with the next one, so none waits behind
    // another's backlog.
    const channels = [...this.#profiles.keys()];
    const first = this.#claimCount++ % channels.length;
    const leaseUntil = this.#heartbeat.leaseFromNow();
    const claimed = await claimDueDeliveries(this.#database.db, {
      channels: [...channels.slice(first), ...channels.slice(0, first)],
      now: this.#clock.now(),
      leaseUntil,
      limit,
    });
    const targets = new Map<string, Promise<DeliveryTarget | null>>();
    return claimed.map((delivery) => {
      const claim: Claim = { delivery, targets, lost: new AbortController() };
      this.#heartbeat.hold({ id: delivery.id, token: delivery.claim_token }, leaseUntil, () =>
        this.#lose(claim),
      );
      return claim;
    });
  }

  /**
   * The heartbeat found the claim gone (its lease passed and another worker took the delivery, or
   * it was cancelled meanwhile): drop it if it is still queued, cut its attempt short if not.
   */
  #lose(claim: Claim): void {
    const queued = this.#queued.indexOf(claim);
    if (queued >= 0) this.#queued.splice(queued, 1);
    claim.lost.abort();
    this.#logger.warn(
      { delivery_id: claim.delivery.id, queued: queued >= 0 },
      'delivery claim lost; dropping it',
    );
  }

  /** Gives a claim back untouched, so any worker can take it at once. */
  async #handBack(claim: Claim): Promise<void> {
    this.#heartbeat.release(claim.delivery.id);
    await releaseClaim(this.#database.db, claim.delivery);
  }

  #track(work: Promise<void>): void {
    this.#inFlight.add(work);
    void work.finally(() => {
      this.#inFlight.delete(work);
      this.#pump();
      this.#wake();
    });
  }

  #wake(): void {
    const signal = this.#signal;
    this.#signal = null;
    signal?.();
  }

  /** Resolves on the next wake-up; true when it was the timer that fired. */
  #waitForSignal(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#signal = null;
        resolve(true);
      }, timeoutMs);
      this.#signal = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  }

  async #deliverSafely(claim: Claim): Promise<void> {
    const { delivery } = claim;
    if (claim.lost.signal.aborted) return;
    // A claim whose lease may pass before the next beat (the worker stalled, or the database is
    // away) is not started: another worker may be about to take it, and both would send it.
    const remaining = this.#heartbeat.remainingMs(delivery.id);
    if (remaining === null || remaining < this.#heartbeat.intervalMs) {
      this.#logger.warn({ delivery_id: delivery.id }, 'delivery claim about to expire; handing it back');
      await this.#handBack(claim).catch(() => {});
      return;
    }
    try {
      await this.#deliver(claim);
    } catch (error) {
      // Not renewed any more: once the lease passes the delivery is attempted again.
      this.#heartbeat.release(delivery.id);
      this.#logger.error({ err: error, delivery_id: delivery.id }, 'delivery attempt could not be processed');
    }
  }

  async #deliver(claim: Claim): Promise<void> {
    const { delivery } = claim;
    const profile = this.#profiles.get(delivery.channel);
    if (!profile) throw new Error(`no delivery profile for channel ${delivery.channel}`);
    const db = this.#database.db;
    const target = await this.#resolveOnce(profile, delivery, claim.targets);
    if (!target?.enabled) {
      await settleWithoutAttempt(db, {
        delivery,
        status: target ? 'paused' : 'cancelled',
        reason: target ? null : 'receiver_removed',
        now: this.#clock.now(),
      });
      this.#heartbeat.release(delivery.id);
      return;
    }
    if (claim.lost.signal.aborted) return;
    const attemptNumber = delivery.attempt_count + 1;
    const headers = profile.buildHeaders({
      delivery,
      target,
      body: delivery.payload,
      attemptNumber,
      now: this.#clock.now(),
    });
    const outcome = await sendAttempt(this.#client, {
      url: target.url,
      headers,
      body: delivery.payload,
      timeoutMs: profile.attemptTimeoutMs,
      signal: claim.lost.signal,
    });
    // Another worker holds the delivery now: whatever this attempt got, it is not recorded.
    if (claim.lost.signal.aborted) return;
    const now = this.#clock.now();
    const next = nextStateAfter(profile, delivery, attemptNumber, outcome.result, now);
    // The slot frees as soon as the answer is in; the result is written with others in a batch.
    const recording = this.#completions
      .submit({
        delivery,
        status: next.status,
        nextAttemptAt: next.nextAttemptAt,
        now,
        attempt: {
          attemptNumber,
          manual: delivery.manual_attempt,
          url: target.url,
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: outcome.error,
          responseExcerpt: outcome.responseExcerpt,
          outcome: next.outcome,
        },
      })
      .then(
        (recorded) => {
          // Committed: a look from now on sees the retry, and this one wakes the worker for it.
          if (recorded && next.status === 'pending' && next.nextAttemptAt)
            this.#lookAgainBy(next.nextAttemptAt);
          if (!recorded)
            this.#logger.warn(
              { delivery_id: delivery.id },
              'delivery claim was lost before the attempt was recorded',
            );
        },
        (error) => {
          // Unrecorded, the delivery stays leased and is attempted again once the lease passes.
          this.#logger.error({ err: error, delivery_id: delivery.id }, 'could not record a delivery attempt');
        },
      )
      .finally(() => {
        this.#heartbeat.release(delivery.id);
        this.#unrecorded.delete(recording);
        this.#wake();
      });
    this.#unrecorded.add(recording);
  }

  /** Endpoints are looked up once per claimed batch, not once per delivery. */
  #resolveOnce(
    profile: ChannelProfile,
    delivery: ClaimedDelivery,
    targets: Map<string, Promise<DeliveryTarget | null>>,
  ): Promise<DeliveryTarget | null> {
    const resolve = () => profile.resolveTarget({ db: this.#database.db, delivery, now: this.#clock.now() });
    if (!delivery.endpoint_id) return resolve();
    const key = `${delivery.channel}:${delivery.endpoint_id}`;
    let target = targets.get(key);
    if (!target) {
      target = resolve();
      targets.set(key, target);
    }
    return target;
  }
}
