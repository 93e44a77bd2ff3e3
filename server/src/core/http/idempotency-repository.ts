import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';

export type IdempotencyRecord = Selectable<DB['idempotency_keys']>;

/** A key as one credential (the scope) used it. */
interface ScopedKey {
  scope: string;
  key: string;
}

export const idempotencyKeyRepository = {
  /** Claims the key as `running`; false when a record holds it already (ON CONFLICT DO NOTHING). */
  async claim(
    db: Kysely<DB>,
    held: ScopedKey,
    claim: { requestHash: string; now: Date; expiresAt: Date },
  ): Promise<boolean> {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        scope: held.scope,
        key: held.key,
        request_hash: claim.requestHash,
        state: 'running',
        locked_at: claim.now,
        expires_at: claim.expiresAt,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  find(db: Kysely<DB>, held: ScopedKey): Promise<IdempotencyRecord | undefined> {
    return db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', held.scope)
      .where('key', '=', held.key)
      .executeTakeFirst();
  },

  /** Forgets the key if it has expired by `now`. */
  async deleteIfExpired(db: Kysely<DB>, held: ScopedKey, now: Date): Promise<void> {
    await db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', held.scope)
      .where('key', '=', held.key)
      .where('expires_at', '<=', now)
      .execute();
  },

  /**
   * Takes over a `running` record whose request died, fenced by the lock time read before:
   * of two requests taking it over at once, only one succeeds.
   */
  async takeOver(db: Kysely<DB>, held: ScopedKey, lockedAt: Date, now: Date): Promise<boolean> {
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ locked_at: now })
      .where('scope', '=', held.scope)
      .where('key', '=', held.key)
      .where('state', '=', 'running')
      .where('locked_at', '=', lockedAt)
      .returning('key')
      .executeTakeFirst();
    return taken !== undefined;
  },

  /** Stores the response to replay; the body is sealed by the caller. */
  async markDone(
    db: Kysely<DB>,
    held: ScopedKey,
    response: { status: number; sealedBody: string; headers: Record<string, string> },
  ): Promise<void> {
    await db
      .updateTable('idempotency_keys')
      .where('scope', '=', held.scope)
      .where('key', '=', held.key)
      .set({
        state: 'done',
        response_status: response.status,
        response_body: response.sealedBody,
        response_headers: JSON.stringify(response.headers),
      })
      .execute();
  },

  async release(db: Kysely<DB>, held: ScopedKey): Promise<void> {
    await db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', held.scope)
      .where('key', '=', held.key)
      .execute();
  },
};

/** Removes expired records; called periodically by the worker. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<DB>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
