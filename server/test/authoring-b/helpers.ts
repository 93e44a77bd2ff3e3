import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { PlatformDeps } from '../../src/app/platform-deps.ts';
import { bearer, type TestPlatform, type Workspace } from '../harness.ts';

/** Scenarios and meetings are inserted directly: these tests do not depend on their routes. */
export async function insertScenario(
  deps: PlatformDeps,
  accountId: string,
  name = 'Test scenario',
): Promise<string> {
  const id = randomUUID();
  const now = deps.clock.now();
  await deps.db
    .insertInto('scenarios')
    .values({
      id,
      account_id: accountId,
      membership_id: null,
      name,
      type: 'interview',
      persona_id: null,
      description: null,
      welcome_message: 'Hello!',
      default_kind: null,
      custom_agent_base_url: null,
      custom_agent_api_key: null,
      legacy_webhook_url: null,
      legacy_webhook_secret: null,
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
  return id;
}

export async function insertMeeting(
  deps: PlatformDeps,
  accountId: string,
  scenarioId: string,
  values: Record<string, unknown> = {},
): Promise<string> {
  const id = randomUUID();
  const now = deps.clock.now();
  await deps.db
    .insertInto('meetings')
    .values({
      id,
      account_id: accountId,
      membership_id: null,
      scenario_id: scenarioId,
      person_name: 'Pat Participant',
      meeting_type: 'regular',
      note_context: null,
      user_memory_tag: null,
      status: 'ended',
      analysis_status: 'not_started',
      summary: null,
      room_token_hash: null,
      started_at: now,
      ended_at: now,
      duration_seconds: 60,
      end_reason: null,
      created_at: now,
      updated_at: now,
      ...values,
    } as never)
    .execute();
  return id;
}

/** Every row of the given tables, as one string: what a database dump would reveal. */
export async function dumpTables(deps: PlatformDeps, tables: string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(deps.db);
    parts.push(JSON.stringify(rows));
  }
  return parts.join('\n');
}

/** A workspace with a full-access API key, and a bound request helper. */
export async function client(t: TestPlatform) {
  const ws: Workspace = await t.signup();
  const key = await t.createApiKey(ws);
  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url: `/v1${url}`,
      headers: { ...bearer(key.secret), ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return { ws, key, call };
}

type Client = Awaited<ReturnType<typeof client>>;
let functionCount = 0;

/** A unique, valid custom function name. */
export const functionName = () => `tool_${++functionCount}_${Date.now()}`;

export const ORDER_LOOKUP_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', description: 'Order number' } },
  required: ['order_id'],
};

/** Creates a custom function through the API (201 asserted) and returns its `data`. */
export async function createFunction(c: Client, body: Record<string, unknown> = {}) {
  const response = await c.call('POST', '/custom-functions', {
    name: functionName(),
    description: 'Looks up an order.',
    parameters_schema: ORDER_LOOKUP_SCHEMA,
    webhook_url: 'https://tools.example.com/lookup',
    ...body,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().data;
}
