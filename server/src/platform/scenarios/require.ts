import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import { scenarioRepository } from './repository.ts';

/**
 * A live (not soft-deleted) scenario of the account, for the guardrail, custom-function, memory
 * and analysis routes that refer to one. Another workspace's scenario is as absent as a missing one.
 */
export async function requireScenario(
  db: Kysely<DB>,
  accountId: string,
  scenarioId: string,
  param = 'scenarioId',
): Promise<{ id: string; name: string }> {
  const row = isUuid(scenarioId) ? await scenarioRepository.find(db, accountId, scenarioId) : undefined;
  if (!row) throw notFound('scenario', param);
  return row;
}
