import type { Clock } from './clock.ts';

/** One claim as its table knows it: the row and the token the claim wrote. */
export interface HeldClaim {
  id: string;
  token: string;
}

export interface LeaseHeartbeatOptions {
  clock: Clock;
  /** How long a claim lasts without news from its holder. */
  leaseMs: number;
  /** Default: a third of the lease, so two missed beats still keep the claim. */
  intervalMs?: number;
  /**
   * Extends these claims to `leaseUntil` in one statement, fenced by each claim's token; returns
   * the ids still held. A missing id lost its claim.
   */
  renew(claims: readonly HeldClaim[], leaseUntil: Date): Promise<ReadonlySet<string>>;
  /** The renewal failed (the database away): the claims run out unless a later beat gets through. */
  onRenewError(error: unknown): void;
}

interface Entry {
  token: string;
  /** The lease end as last written (clock milliseconds). */
  until: number;
  onLost: () => void;
}

/**
 * Keeps short claim leases alive while their holder works on them, for the job runner and the
 * delivery worker: a claim lasts `leaseMs`, and while it is held a heartbeat renews every held
 * claim at once every `intervalMs`. A holder that dies stops renewing, so its claims can be taken
 * again within one lease, whatever the work's own timeout. A claim the renewal finds gone (its
 * holder stalled past the lease and another took the row) is dropped and its `onLost` called; what
 * the holder still writes of it is fenced by the claim token in the table.
 */
export class LeaseHeartbeat {
  readonly leaseMs: number;
  readonly intervalMs: number;
  readonly #clock: Clock;
  readonly #renew: LeaseHeartbeatOptions['renew'];
  readonly #onRenewError: LeaseHeartbeatOptions['onRenewError'];
  readonly #held = new Map<string, Entry>();
  #timer: NodeJS.Timeout | null = null;
  #renewing = false;

  constructor(options: LeaseHeartbeatOptions) {
    this.leaseMs = options.leaseMs;
    this.intervalMs = options.intervalMs ?? Math.max(1, Math.floor(options.leaseMs / 3));
    if (this.intervalMs >= this.leaseMs) throw new Error('the heartbeat must beat more often than the lease');
    this.#clock = options.clock;
    this.#renew = options.renew;
    this.#onRenewError = options.onRenewError;
  }

  /** A lease end for a claim made now. */
  leaseFromNow(): Date {
    return new Date(this.#clock.now().getTime() + this.leaseMs);
  }

  get size(): number {
    return this.#held.size;
  }

  /** Keeps this claim (leased until `until`) alive until release(); `onLost` if a renewal finds it gone. */
  hold(claim: HeldClaim, until: Date, onLost: () => void = () => {}): void {
    this.#held.set(claim.id, { token: claim.token, until: until.getTime(), onLost });
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.beat(), this.intervalMs);
    this.#timer.unref();
  }

  /** Stops renewing the claim (finished, handed back, or left to expire). */
  release(id: string): void {
    this.#held.delete(id);
    if (this.#held.size === 0) this.stop();
  }

  /** How long the claim is known to last from now (ms; negative once passed), or null if not held. */
  remainingMs(id: string): number | null {
    const entry = this.#held.get(id);
    return entry ? entry.until - this.#clock.now().getTime() : null;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One beat: renews every held claim in one call (also run by the timer). */
  async beat(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const claims = [...this.#held].map(([id, entry]) => ({ id, token: entry.token }));
    try {
      const leaseUntil = this.leaseFromNow();
      const kept = await this.#renew(claims, leaseUntil);
      for (const { id, token } of claims) {
        const entry = this.#held.get(id);
        // Released meanwhile, or claimed again under a new token: not this beat's business.
        if (!entry || entry.token !== token) continue;
        if (kept.has(id)) {
          entry.until = leaseUntil.getTime();
          continue;
        }
        this.release(id);
        entry.onLost();
      }
    } catch (error) {
      this.#onRenewError(error);
    } finally {
      this.#renewing = false;
    }
  }
}
