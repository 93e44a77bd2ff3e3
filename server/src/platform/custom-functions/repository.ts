import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import type { DB } from '../../core/db/schema.ts';

export type CustomFunctionRow = Selectable<DB['custom_functions']>;
export type ScenarioFunctionRow = CustomFunctionRow & { attached_at: Date };

const customFunctions = accountScoped('custom_functions');

export const customFunctionRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['custom_functions']>) {
    return db.insertInto('custom_functions').values(values).returningAll().executeTakeFirstOrThrow();
  },

  list: customFunctions.list,

  find: customFunctions.find,

  findByName(db: Kysely<DB>, accountId: string, name: string) {
    return db
      .selectFrom('custom_functions')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .executeTakeFirst();
  },

  update: customFunctions.update,

  delete: customFunctions.delete,

  /** Live scenarios the function is attached to, in attach order. */
  scenariosOf(db: Kysely<DB>, accountId: string, functionId: string) {
    return db
      .selectFrom('scenario_custom_functions as sf')
      .innerJoin('scenarios as s', 's.id', 'sf.scenario_id')
      .select(['s.id', 's.name', 'sf.attached_at'])
      .where('sf.account_id', '=', accountId)
      .where('sf.function_id', '=', functionId)
      .where('s.account_id', '=', accountId)
      .where('s.deleted_at', 'is', null)
      .orderBy('sf.attached_at')
      .orderBy('s.id')
      .execute();
  },

  /** Attaching twice is harmless: the first attach time is kept. */
  attach(db: Kysely<DB>, values: Insertable<DB['scenario_custom_functions']>) {
    return db
      .insertInto('scenario_custom_functions')
      .values(values)
      .onConflict((oc) => oc.columns(['scenario_id', 'function_id']).doNothing())
      .execute();
  },

  detach(db: Kysely<DB>, accountId: string, scenarioId: string, functionId: string) {
    return db
      .deleteFrom('scenario_custom_functions')
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .where('function_id', '=', functionId)
      .returning('function_id')
      .executeTakeFirst();
  },

  /** The scenario's functions in attach order (then id), the definitions as they are now. */
  forScenario(
    db: Kysely<DB>,
    accountId: string,
    scenarioId: string,
    options: { after?: { attachedAt: string; functionId: string } | null; limit?: number } = {},
  ): Promise<ScenarioFunctionRow[]> {
    let query = db
      .selectFrom('scenario_custom_functions as sf')
      .innerJoin('custom_functions as f', 'f.id', 'sf.function_id')
      .selectAll('f')
      .select('sf.attached_at')
      .where('sf.account_id', '=', accountId)
      .where('f.account_id', '=', accountId)
      .where('sf.scenario_id', '=', scenarioId);
    if (options.after) {
      const { attachedAt, functionId } = options.after;
      query = query.where(
        sql<boolean>`(sf.attached_at, sf.function_id) > (${attachedAt}::timestamptz, ${functionId}::uuid)`,
      );
    }
    query = query.orderBy('sf.attached_at').orderBy('sf.function_id');
    if (options.limit !== undefined) query = query.limit(options.limit);
    return query.execute();
  },
};
