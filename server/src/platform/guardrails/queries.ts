import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { guardrailRepository as repo } from './repository.ts';

export interface ScenarioGuardrailSummary {
  id: string;
  guardrail_name: string;
  /** The definition's account-level switch. */
  active: boolean;
  /** The switch of this scenario's attachment. */
  attachment_active: boolean;
  position: number;
}

/**
 * A scenario's guardrails in block order, for the scenario read: names and switches only, never
 * the prompt. Both switches must be on for a guardrail to take effect.
 */
export async function guardrailsForScenario(
  db: Kysely<DB>,
  accountId: string,
  scenarioId: string,
): Promise<ScenarioGuardrailSummary[]> {
  const rows = await repo.forScenario(db, accountId, scenarioId);
  return rows.map((row) => ({
    id: row.id,
    guardrail_name: row.guardrail_name,
    active: row.active,
    attachment_active: row.attachment_active,
    position: row.position,
  }));
}
