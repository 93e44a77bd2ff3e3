import type { Kysely } from 'kysely';
import type { DB } from '../core/db/schema.ts';
import { notFound } from '../core/http/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs: anything else names nothing, and is answered 404 without asking the database. */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * A live (not soft-deleted) scenario of the account, for the guardrail, custom-function and memory
 * routes that refer to one. Another workspace's scenario is as absent as a missing one.
 */
export async function requireScenario(
  db: Kysely<DB>,
  accountId: string,
  scenarioId: string,
  param = 'scenarioId',
): Promise<{ id: string; name: string }> {
  const row = isUuid(scenarioId)
    ? await db
        .selectFrom('scenarios')
        .select(['id', 'name'])
        .where('account_id', '=', accountId)
        .where('id', '=', scenarioId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound('scenario', param);
  return row;
}
