// What a scenario read nests from the guardrail and custom-function modules.
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { customFunctionsForScenario } from '../custom-functions/queries.ts';
import { guardrailsForScenario } from '../guardrails/queries.ts';

export async function scenarioAttachments(db: Kysely<DB>, accountId: string, scenarioId: string) {
  const [guardrails, customFunctions] = await Promise.all([
    guardrailsForScenario(db, accountId, scenarioId),
    customFunctionsForScenario(db, accountId, scenarioId),
  ]);
  return { guardrails, custom_functions: customFunctions };
}
