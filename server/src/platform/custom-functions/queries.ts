import type { Kysely } from 'kysely';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { customFunctionRepository as repo } from './repository.ts';

/** A custom function as the scenario read shows it: public fields, never the secret. */
export interface ScenarioCustomFunctionSummary {
  id: string;
  name: string;
  description: string;
  parameters_schema: Record<string, unknown>;
  execution_mode: 'webhook';
  webhook_url: string;
  timeout_ms: number;
  attached_at: string;
}

/** What the live engine needs to offer the tool and to call it: the definition and its opened secret. */
export interface CallableCustomFunction {
  id: string;
  name: string;
  description: string;
  parameters_schema: Record<string, unknown>;
  execution_mode: 'webhook';
  webhook_url: string;
  /** Signs each call: `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. */
  webhook_secret: string;
  timeout_ms: number;
}

/** A scenario's custom functions in attach order, for the scenario read. */
export async function customFunctionsForScenario(
  db: Kysely<DB>,
  accountId: string,
  scenarioId: string,
): Promise<ScenarioCustomFunctionSummary[]> {
  const rows = await repo.forScenario(db, accountId, scenarioId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    parameters_schema: row.parameters_schema,
    execution_mode: row.execution_mode,
    webhook_url: row.webhook_url,
    timeout_ms: row.timeout_ms,
    attached_at: row.attached_at.toISOString(),
  }));
}

/**
 * The scenario's functions as they are at this moment (definitions are referenced, not copied, so
 * an update or a rotated secret applies to the next call), with each signing secret opened.
 */
export async function loadCustomFunctionsForCall(
  db: Kysely<DB>,
  secretBox: SecretBox,
  accountId: string,
  scenarioId: string,
): Promise<CallableCustomFunction[]> {
  const rows = await repo.forScenario(db, accountId, scenarioId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    parameters_schema: row.parameters_schema,
    execution_mode: row.execution_mode,
    webhook_url: row.webhook_url,
    webhook_secret: secretBox.open(row.webhook_secret_sealed),
    timeout_ms: row.timeout_ms,
  }));
}
