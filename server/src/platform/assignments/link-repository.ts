import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** A public scenario's reusable practice link (migration 0069). */
export const practiceLinkRepository = {
  find(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .selectFrom('scenario_practice_links')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .executeTakeFirst();
  },
  /** Makes the scenario's link, or replaces its token (the old link stops working). */
  upsert(db: Kysely<DB>, values: Insertable<DB['scenario_practice_links']>) {
    return db
      .insertInto('scenario_practice_links')
      .values(values)
      .onConflict((conflict) =>
        conflict.column('scenario_id').doUpdateSet({
          token_hash: values.token_hash,
          token_sealed: values.token_sealed,
          created_by: values.created_by,
          created_at: values.created_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  delete(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .deleteFrom('scenario_practice_links')
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .returning('scenario_id')
      .executeTakeFirst();
  },
  /** What a link opens: its scenario (open only while public and not deleted) and persona. */
  byToken(db: Kysely<DB>, tokenHash: string) {
    return db
      .selectFrom('scenario_practice_links')
      .innerJoin('scenarios', 'scenarios.id', 'scenario_practice_links.scenario_id')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select([
        'scenario_practice_links.account_id',
        'scenario_practice_links.scenario_id',
        'scenario_practice_links.created_by',
        'scenarios.name as scenario_name',
        'scenarios.description as scenario_description',
        'personas.name as persona_name',
        'personas.job_title as persona_job_title',
      ])
      .where('scenario_practice_links.token_hash', '=', tokenHash)
      .where('scenarios.visibility', '=', 'public')
      .where('scenarios.deleted_at', 'is', null)
      .executeTakeFirst();
  },
  scenario(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .select(['id', 'visibility'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },
};
