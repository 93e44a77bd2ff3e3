import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type ApiSecretRow = Selectable<DB['api_secrets']>;

/** Peers learn of a revocation through this NOTIFY channel; the payload is the key's SHA-256. */
export const API_SECRET_CHANGED_CHANNEL = 'api_secret_changed';

export const apiSecretRepository = {
  /**
   * The id is a random 53-bit integer drawn by the column's default (migration 0064); on the rare
   * collision with an existing id the insert draws again instead of failing.
   */
  async insert(db: Kysely<DB>, values: Insertable<DB['api_secrets']>) {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const row = await db
        .insertInto('api_secrets')
        .values(values)
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row) return row;
    }
    throw new Error('no free random API key id after 4 draws');
  },
  list(db: Kysely<DB>, accountId: string, page: PageRequest | null) {
    return newestFirst(
      db.selectFrom('api_secrets').selectAll().where('account_id', '=', accountId),
      page,
      'api_secrets',
    ).execute();
  },
  find(db: Kysely<DB>, accountId: string, id: number) {
    return db
      .selectFrom('api_secrets')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  setActive(db: Kysely<DB>, accountId: string, id: number, isActive: boolean, now: Date) {
    return db
      .updateTable('api_secrets')
      .set({ is_active: isActive, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  delete(db: Kysely<DB>, accountId: string, id: number) {
    return db
      .deleteFrom('api_secrets')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning(['id', 'lookup_hash', 'name'])
      .executeTakeFirst();
  },
  /** What verifying a key needs, by the SHA-256 of the key (any workspace: the key names it). */
  findForVerification(db: Kysely<DB>, lookupHash: string) {
    return db
      .selectFrom('api_secrets')
      .innerJoin('memberships', 'memberships.id', 'api_secrets.membership_id')
      .select([
        'api_secrets.id',
        'api_secrets.account_id',
        'api_secrets.membership_id',
        'api_secrets.secret_hash',
        'api_secrets.scopes',
        'api_secrets.is_active',
        'memberships.role',
      ])
      .where('api_secrets.lookup_hash', '=', lookupHash)
      .executeTakeFirst();
  },
  /** Records a use, unless a later one is recorded already. */
  async recordUse(db: Kysely<DB>, id: number, usedAt: Date): Promise<void> {
    await db
      .updateTable('api_secrets')
      .set({ last_used_at: usedAt })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', usedAt)]))
      .execute();
  },
  /** Tells every instance's verifier that the key changed; inside a transaction, on commit. */
  async announceChange(db: Kysely<DB>, lookupHash: string): Promise<void> {
    await sql`select pg_notify(${API_SECRET_CHANGED_CHANNEL}, ${lookupHash})`.execute(db);
  },
};
