import type { Insertable, Kysely, Selectable } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type GoalRow = Selectable<DB['goals']>;

const goals = accountScoped('goals');

export const goalRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['goals']>) {
    return db.insertInto('goals').values(values).returningAll().executeTakeFirstOrThrow();
  },
  /** With `scenarioId`, only the goals linked to that scenario. */
  list(db: Kysely<DB>, accountId: string, page: PageRequest | null, scenarioId?: string) {
    if (!scenarioId) return goals.list(db, accountId, page);
    return goals.list(db, accountId, page, (query) =>
      query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('scenario_goals')
            .select('scenario_goals.goal_id')
            .whereRef('scenario_goals.goal_id', '=', 'goals.id')
            .where('scenario_goals.scenario_id', '=', scenarioId),
        ),
      ),
    );
  },
  find: goals.find,
  findMany: goals.findMany,
  update: goals.update,
  delete: goals.delete,
};

/** The scenario ↔ goal links (scenario_goals). */
export const goalLinks = {
  /** Live scenario ids of the goals, in link order. */
  async scenariosOf(db: Kysely<DB>, goalIds: string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>(goalIds.map((id) => [id, []]));
    if (goalIds.length === 0) return result;
    const rows = await db
      .selectFrom('scenario_goals')
      .innerJoin('scenarios', 'scenarios.id', 'scenario_goals.scenario_id')
      .select(['scenario_goals.goal_id', 'scenario_goals.scenario_id'])
      .where('scenario_goals.goal_id', 'in', goalIds)
      .where('scenarios.deleted_at', 'is', null)
      .orderBy('scenario_goals.created_at')
      .orderBy('scenario_goals.scenario_id')
      .execute();
    for (const row of rows) result.get(row.goal_id)?.push(row.scenario_id);
    return result;
  },
  /** Goals of a scenario in position order. */
  goalsOf(db: Kysely<DB>, accountId: string, scenarioIds: string[]) {
    if (scenarioIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('scenario_goals')
      .innerJoin('goals', 'goals.id', 'scenario_goals.goal_id')
      .selectAll('goals')
      .select(['scenario_goals.scenario_id as link_scenario_id'])
      .where('scenario_goals.account_id', '=', accountId)
      .where('scenario_goals.scenario_id', 'in', scenarioIds)
      .orderBy('scenario_goals.position')
      .orderBy('scenario_goals.created_at')
      .execute();
  },
  /** Adds links that do not exist yet, after the scenario's current last position. */
  async link(db: Kysely<DB>, accountId: string, scenarioId: string, goalIds: string[], now: Date) {
    if (goalIds.length === 0) return;
    const last = await db
      .selectFrom('scenario_goals')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('scenario_id', '=', scenarioId)
      .executeTakeFirst();
    let position = Number(last?.max ?? -1);
    await db
      .insertInto('scenario_goals')
      .values(
        goalIds.map((goalId) => ({
          scenario_id: scenarioId,
          goal_id: goalId,
          account_id: accountId,
          position: ++position,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['scenario_id', 'goal_id']).doNothing())
      .execute();
  },
  unlink(db: Kysely<DB>, scenarioId: string, goalId: string) {
    return db
      .deleteFrom('scenario_goals')
      .where('scenario_id', '=', scenarioId)
      .where('goal_id', '=', goalId)
      .execute();
  },
  unlinkGoal(db: Kysely<DB>, goalId: string) {
    return db.deleteFrom('scenario_goals').where('goal_id', '=', goalId).execute();
  },
  /** Makes `goalIds` (in this order) exactly the scenario's goals. */
  async replace(db: Kysely<DB>, accountId: string, scenarioId: string, goalIds: string[], now: Date) {
    await db.deleteFrom('scenario_goals').where('scenario_id', '=', scenarioId).execute();
    // A goal whose direct link points here but is no longer in the list loses the direct link too.
    let clear = db
      .updateTable('goals')
      .set({ scenario_id: null, updated_at: now })
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId);
    if (goalIds.length > 0) clear = clear.where('id', 'not in', goalIds);
    await clear.execute();
    await goalLinks.link(db, accountId, scenarioId, goalIds, now);
  },
};

/** Which of `ids` are live scenarios of the workspace. */
export async function liveScenarioIds(
  db: Kysely<DB>,
  accountId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('scenarios')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.id));
}
