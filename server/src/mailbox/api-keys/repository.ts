import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { type Executor, json } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type ApiKeyRow = Selectable<MailboxTables['mailbox_api_keys']>;
/** A key as created: never revoked yet. */
export type NewApiKey = Omit<ApiKeyRow, 'revoked_at'>;

export const apiKeysRepository = {
  async insert(db: Executor, row: NewApiKey): Promise<void> {
    await db
      .insertInto('mailbox_api_keys')
      .values({ ...row, inbox_ids: json(row.inbox_ids), scopes: json(row.scopes) })
      .execute();
  },

  /** The keys not revoked, newest first. */
  async listActive(db: Executor, page: PageRequest): Promise<ApiKeyRow[]> {
    const query = db.selectFrom('mailbox_api_keys').selectAll().where('revoked_at', 'is', null);
    return newestFirst(query, page, 'mailbox_api_keys').execute();
  },

  /** Revokes a key unless it is revoked already; false when there was no such key to revoke. */
  async revoke(db: Executor, id: string, now: Date): Promise<boolean> {
    const result = await db
      .updateTable('mailbox_api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** The unrevoked key whose secret hashes to `lookupHash`: how a bearer token finds its key. */
  async findActiveByHash(db: Executor, lookupHash: string) {
    return db
      .selectFrom('mailbox_api_keys')
      .select(['id', 'namespace_id', 'inbox_ids', 'pod_id', 'scopes', 'last_used_at'])
      .where('lookup_hash', '=', lookupHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** Stamps the key's last use, unless a request since `stale` already did. */
  async markUsed(db: Executor, id: string, now: Date, stale: Date): Promise<void> {
    await db
      .updateTable('mailbox_api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', stale)]))
      .execute();
  },
};
