import type { Insertable, Kysely, Selectable } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type ScenarioRow = Selectable<DB['scenarios']>;

const scenarios = accountScoped('scenarios', { softDelete: true });

/**
 * Every read here but `findEvenDeleted` skips soft-deleted scenarios: to the API a deleted
 * scenario does not exist.
 */
export const scenarioRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['scenarios']>) {
    return db.insertInto('scenarios').values(values).returningAll().executeTakeFirstOrThrow();
  },
  list: scenarios.list,
  find: scenarios.find,
  /**
   * The scenario even when soft-deleted: a meeting created before the delete still runs with the
   * scenario's custom agent.
   */
  findEvenDeleted(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  update: scenarios.update,
  async softDelete(db: Kysely<DB>, accountId: string, id: string, now: Date) {
    const row = await scenarios.markDeleted(db, accountId, id, now);
    if (row) {
      // Goals keep scoring the deleted scenario's past meetings (the links stay), but no longer
      // name it as their direct scenario.
      await db
        .updateTable('goals')
        .set({ scenario_id: null, updated_at: now })
        .where('account_id', '=', accountId)
        .where('scenario_id', '=', id)
        .execute();
    }
    return row;
  },
  meetings(db: Kysely<DB>, accountId: string, scenarioId: string, page: PageRequest | null) {
    return newestFirst(
      db
        .selectFrom('meetings')
        .select([
          'id',
          'scenario_id',
          'person_name',
          'status',
          'analysis_status',
          'created_at',
          'ended_at',
          'duration_seconds',
        ])
        .where('account_id', '=', accountId)
        .where('scenario_id', '=', scenarioId),
      page,
      'meetings',
    ).execute();
  },
};
