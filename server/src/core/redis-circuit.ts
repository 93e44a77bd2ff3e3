import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisCircuitOptions {
  /** A command slower than this fails and opens the circuit (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** How often a PING checks the connection, open or closed (REDIS_PROBE_INTERVAL_MS). */
  probeIntervalMs: number;
  logger: Logger;
}

/** Probe timeouts in a row after which a connection that ioredis still calls ready is replaced. */
const STALLED_PROBES_BEFORE_RECONNECT = 3;

/**
 * The shared Redis connection behind a circuit breaker. Everything Redis does here has a fallback
 * (rate limits count in this process's memory, live fan-out is best effort), so an outage must cost
 * no request any waiting: commands fail at once while disconnected (no offline queue) or after a
 * short timeout, the first failure opens the circuit, and while it is open callers go straight to
 * their fallback. A background PING closes it again once Redis answers. Transitions are logged
 * once each (warn, then info) and `up` feeds the `dependency_up{dependency="redis"}` gauge.
 */
export class RedisCircuit {
  readonly client: Redis;
  private open = true;
  /** The outage was logged (once per outage; recovery is logged only after it). */
  private reportedDown = false;
  private closed = false;
  private stalledProbes = 0;
  private probing = false;
  private readonly timer: NodeJS.Timeout;
  private readonly logger: Logger;

  constructor(url: string, options: RedisCircuitOptions) {
    this.logger = options.logger;
    this.client = new Redis(url, {
      commandTimeout: options.commandTimeoutMs,
      // Disconnected, a command fails at once instead of queueing until the reconnect gives up.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: Math.max(1_000, options.commandTimeoutMs * 4),
      // Reconnect for ever, never slower than the probe: recovery is found within about a probe.
      retryStrategy: (attempt) => Math.min(attempt * 100, options.probeIntervalMs),
    });
    // ioredis logs nothing itself; the circuit's transitions are the log lines that matter.
    this.client.on('error', () => {});
    this.client.on('close', () => {
      if (!this.closed) this.trip(new Error('connection closed'));
    });
    this.client.on('ready', () => void this.probe());
    this.timer = setInterval(() => void this.probe(), options.probeIntervalMs);
    this.timer.unref();
  }

  /** False while Redis is considered unreachable (callers use their fallback). */
  get up(): boolean {
    return !this.open;
  }

  /**
   * `work` against Redis while the circuit is closed, else `fallback` at once. A failure of
   * `work` opens the circuit and answers from `fallback`. `isAnswer` tells results that come as
   * rejections (a rate limiter's "no budget left") from failures.
   */
  async run<T>(
    work: (client: Redis) => Promise<T>,
    fallback: () => Promise<T>,
    isAnswer: (rejection: unknown) => boolean = () => false,
  ): Promise<T> {
    if (this.open) return fallback();
    try {
      return await work(this.client);
    } catch (error) {
      if (isAnswer(error)) throw error;
      this.trip(error);
      return fallback();
    }
  }

  /** Opens the circuit (a command failed or the connection dropped). */
  trip(error: unknown): void {
    this.open = true;
    if (this.reportedDown) return;
    this.reportedDown = true;
    this.logger.warn(
      { err: error, dependency: 'redis' },
      'redis unreachable: circuit open, serving from in-memory fallbacks',
    );
  }

  /** One PING; closes the circuit when it answers, opens it when it does not. */
  async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.client.ping();
      this.stalledProbes = 0;
      if (this.open) {
        this.open = false;
        if (this.reportedDown)
          this.logger.info({ dependency: 'redis' }, 'redis reachable again: circuit closed');
        this.reportedDown = false;
      }
    } catch (error) {
      if (this.closed) return;
      this.trip(error);
      // A connection that stopped answering without closing (a network partition) is replaced,
      // so recovery does not wait for TCP to give up on it.
      if (this.client.status === 'ready' && /timed out/i.test((error as Error).message)) {
        this.stalledProbes += 1;
        if (this.stalledProbes >= STALLED_PROBES_BEFORE_RECONNECT) {
          this.stalledProbes = 0;
          this.client.disconnect(true);
        }
      }
    } finally {
      this.probing = false;
    }
  }

  /** Waits up to `ms` for the first answer, so a healthy Redis starts with the circuit closed. */
  async ready(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.open && Date.now() < deadline) {
      // While still connecting a PING would fail at once (no offline queue) and log an outage.
      if (this.client.status === 'ready') await this.probe();
      if (this.open) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (this.open) this.trip(new Error(`no answer within ${ms} ms of starting`));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.client.disconnect();
  }
}
