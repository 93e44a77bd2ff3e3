import type { Insertable, Kysely, Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type ApiSecretRow = Selectable<DB['api_secrets']>;

export const apiSecretRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['api_secrets']>) {
    return db.insertInto('api_secrets').values(values).returningAll().executeTakeFirstOrThrow();
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
      .returning(['id', 'lookup_hash'])
      .executeTakeFirst();
  },
};
