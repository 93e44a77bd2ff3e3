import bcrypt from 'bcryptjs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { sha256Hex } from '../../core/crypto/hashing.ts';
import type { DB } from '../../core/db/schema.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { Role } from '../../core/http/roles.ts';
import { apiSecretRepository } from './repository.ts';

export const API_KEY_PATTERN = /^svc_[0-9a-f]{64}$/;
/** The longest a revoked key can keep working on an instance that missed the notification. */
export const KEY_CACHE_TTL_MS = 30_000;

/** A key's principal subject: never the secret, stable for the key's life. */
const keySubject = (lookupHash: string) => `key:${lookupHash.slice(0, 16)}`;

interface CachedKey {
  principal: Principal;
  /** The bcrypt hash this secret was checked against: while the row keeps it, no bcrypt is needed. */
  secretHash: string;
  /** When the row was last read: an entry serves callers for whom it is young enough. */
  checkedAt: number;
}

type KeyRow = {
  id: number;
  account_id: string;
  membership_id: string;
  secret_hash: string;
  scopes: string[] | null;
  is_active: boolean;
  role: string;
};

/**
 * Verifies `svc_` keys. bcrypt runs once per key and stored hash, not per request: verified keys
 * are cached under the SHA-256 of the key (never the key itself). When an entry's lifetime ends the
 * row is read again (is it still active, still the same hash?) without running bcrypt again, and
 * concurrent requests with one key share one verification, so a burst of requests never queues
 * bcrypt runs on the event loop. Revocation evicts at once on the revoking instance and, through
 * PostgreSQL NOTIFY, on the others; the TTL bounds it otherwise. `last_used_at` is collected in
 * memory and written in batches.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CachedKey>();
  private readonly inflight = new Map<string, Promise<Principal | null>>();
  private readonly pendingUsage = new Map<number, Date>();
  /** Bumped by every eviction: a verification that started before one must not refill the cache. */
  private evictions = 0;
  /** Told the subject of every revoked key (e.g. to close the mailbox's sockets opened with it). */
  private readonly revokedListeners = new Set<(subject: string) => void>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /**
   * `maxAgeMs`: how long a verification may be reused without reading the row again; the mailbox
   * service, sharing this cache, allows the 60 s its spec allows.
   */
  async verify(secret: string, maxAgeMs = KEY_CACHE_TTL_MS): Promise<Principal | null> {
    if (!API_KEY_PATTERN.test(secret)) return null;
    const lookupHash = sha256Hex(secret);
    const now = this.clock.now();
    const cached = this.cache.get(lookupHash);
    if (cached && cached.checkedAt + maxAgeMs > now.getTime()) {
      this.pendingUsage.set(cached.principal.apiKeyId!, now);
      return cached.principal;
    }
    let pending = this.inflight.get(lookupHash);
    if (!pending) {
      const started = this.load(secret, lookupHash, cached).finally(() => {
        // An eviction may have dropped this one and a newer verification taken its place.
        if (this.inflight.get(lookupHash) === started) this.inflight.delete(lookupHash);
      });
      pending = started;
      this.inflight.set(lookupHash, pending);
    }
    const principal = await pending;
    if (principal) this.pendingUsage.set(principal.apiKeyId!, this.clock.now());
    return principal;
  }

  private async load(secret: string, lookupHash: string, stale: CachedKey | undefined) {
    this.cache.delete(lookupHash);
    const evictionsBefore = this.evictions;
    const row: KeyRow | undefined = await apiSecretRepository.findForVerification(this.db, lookupHash);
    if (!row?.is_active) return null;
    const alreadyChecked = stale?.secretHash === row.secret_hash;
    if (!alreadyChecked && !(await bcrypt.compare(secret, row.secret_hash))) return null;
    const principal: Principal = {
      kind: 'api_key',
      accountId: row.account_id,
      membershipId: row.membership_id,
      role: row.role as Role,
      userId: null,
      apiKeyId: row.id,
      scopes: row.scopes && row.scopes.length > 0 ? row.scopes : null,
      subject: keySubject(lookupHash),
    };
    if (this.evictions === evictionsBefore) {
      this.cache.set(lookupHash, {
        principal,
        secretHash: row.secret_hash,
        checkedAt: this.clock.now().getTime(),
      });
    }
    return principal;
  }

  /** Called when a key is deactivated or deleted, here (at once) and on every instance (NOTIFY). */
  evict(lookupHash: string): void {
    this.evictions += 1;
    this.cache.delete(lookupHash);
    // A verification that read the row before the change must not serve requests after it.
    this.inflight.delete(lookupHash);
    for (const listener of this.revokedListeners) listener(keySubject(lookupHash));
  }

  /** `listener` gets the principal subject of every key revoked from now on. */
  onRevoked(listener: (subject: string) => void): void {
    this.revokedListeners.add(listener);
  }

  /** Last use not yet written, so reads on this instance are current without a write per request. */
  pendingLastUsed(keyId: number): Date | undefined {
    return this.pendingUsage.get(keyId);
  }

  async flushUsage(): Promise<void> {
    const batch = [...this.pendingUsage.entries()];
    this.pendingUsage.clear();
    for (const [id, usedAt] of batch) {
      await apiSecretRepository.recordUse(this.db, id, usedAt);
    }
  }
}
