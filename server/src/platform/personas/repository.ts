import type { Insertable, Kysely, Selectable } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import type { DB } from '../../core/db/schema.ts';

export type PersonaRow = Selectable<DB['personas']>;

const personas = accountScoped('personas');

export const personaRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['personas']>) {
    return db.insertInto('personas').values(values).returningAll().executeTakeFirstOrThrow();
  },
  list: personas.list,
  find: personas.find,
  findMany: personas.findMany,
  update: personas.update,
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
  delete: personas.delete,
};
