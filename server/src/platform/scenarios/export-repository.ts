import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/**
 * What a scenario export and import need beyond the guardrails and custom-functions repositories
 * (which the import uses for the rest): the attachments as an export lists them, and the guardrail
 * lookup and attach of an import, which differ from the guardrail routes' (the prompt is compared,
 * an existing attachment is left as it is).
 */
export const scenarioExportRepository = {
  /** The scenario's guardrails with their attachment settings, in block order then by name. */
  attachedGuardrails(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .selectFrom('scenario_guardrails')
      .innerJoin('guardrails', 'guardrails.id', 'scenario_guardrails.guardrail_id')
      .select([
        'guardrails.guardrail_name',
        'guardrails.prompt_sealed',
        'guardrails.active',
        'scenario_guardrails.active as attachment_active',
        'scenario_guardrails.position',
      ])
      .where('scenario_guardrails.account_id', '=', accountId)
      .where('scenario_guardrails.scenario_id', '=', scenarioId)
      .orderBy('scenario_guardrails.position')
      .orderBy('guardrails.guardrail_name')
      .execute();
  },

  /** The scenario's custom functions, by name; no signing secret. */
  attachedFunctions(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .selectFrom('scenario_custom_functions')
      .innerJoin('custom_functions', 'custom_functions.id', 'scenario_custom_functions.function_id')
      .select([
        'custom_functions.name',
        'custom_functions.description',
        'custom_functions.parameters_schema',
        'custom_functions.execution_mode',
        'custom_functions.webhook_url',
        'custom_functions.timeout_ms',
      ])
      .where('scenario_custom_functions.account_id', '=', accountId)
      .where('scenario_custom_functions.scenario_id', '=', scenarioId)
      .orderBy('custom_functions.name')
      .execute();
  },

  /** An existing guardrail of that name, with its prompt to compare against the imported one. */
  guardrailNamed(db: Kysely<DB>, accountId: string, name: string) {
    return db
      .selectFrom('guardrails')
      .select(['id', 'prompt_sealed'])
      .where('account_id', '=', accountId)
      .where('guardrail_name', '=', name)
      .executeTakeFirst();
  },

  /** Attaches a guardrail unless it already is: an import never changes an existing attachment. */
  attachGuardrailOnce(db: Kysely<DB>, values: Insertable<DB['scenario_guardrails']>) {
    return db
      .insertInto('scenario_guardrails')
      .values(values)
      .onConflict((oc) => oc.columns(['scenario_id', 'guardrail_id']).doNothing())
      .execute();
  },
};
