import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type PersonaRow = Selectable<DB['personas']>;

export const personaRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['personas']>) {
    return db.insertInto('personas').values(values).returningAll().executeTakeFirstOrThrow();
  },
  list(db: Kysely<DB>, accountId: string, page: PageRequest | null) {
    return newestFirst(
      db.selectFrom('personas').selectAll().where('account_id', '=', accountId),
      page,
      'personas',
    ).execute();
  },
  find(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('personas')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  findMany(db: Kysely<DB>, accountId: string, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([] as PersonaRow[]);
    return db
      .selectFrom('personas')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  },
  update(db: Kysely<DB>, accountId: string, id: string, values: Updateable<DB['personas']>) {
    return db
      .updateTable('personas')
      .set(values)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  /** How many live (not deleted) scenarios play this persona. */
  async scenarioCount(db: Kysely<DB>, accountId: string, id: string): Promise<number> {
    const row = await db
      .selectFrom('scenarios')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('account_id', '=', accountId)
      .where('persona_id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },
  delete(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .deleteFrom('personas')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  },
};
