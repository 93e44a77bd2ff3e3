// An author's signed test call of a custom function (POST /v1/custom-functions/{id}/test): the
// same request a meeting's persona makes (live/function-call.ts: body, signature, SSRF-safe client,
// timeout, size limit), with no meeting — `meeting_id` and `scenario_id` are null and the body
// says `"test": true` — and the receiver's answer shown as it came, errors included.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import { callCustomFunction, type FunctionCaller } from '../live/function-call.ts';
import { customFunctionRepository as repo } from './repository.ts';

/** The most of the receiver's answer the result shows (characters). */
export const TEST_RESPONSE_MAX_CHARS = 8192;

export interface TestCallDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  /** The SSRF-safe outbound client, the one the live engine calls functions with. */
  caller: FunctionCaller;
}

export async function testCustomFunction(deps: TestCallDeps, principal: Principal, id: string, args: object) {
  const row = isUuid(id) ? await repo.find(deps.db, principal.accountId, id) : undefined;
  if (!row) throw notFound('custom function');
  const outcome = await callCustomFunction(
    deps.caller,
    deps.clock,
    {
      id: row.id,
      name: row.name,
      description: row.description,
      parameters_schema: row.parameters_schema,
      execution_mode: row.execution_mode,
      webhook_url: row.webhook_url,
      webhook_secret: deps.secretBox.open(row.webhook_secret_sealed),
      timeout_ms: row.timeout_ms,
    },
    JSON.stringify(args),
    { meetingId: null, scenarioId: null, toolCallId: `test_${randomUUID()}`, test: true },
  );
  const text = outcome.response?.body.toString('utf8') ?? null;
  return {
    ok: outcome.ok,
    status: outcome.status,
    duration_ms: Math.round(outcome.durationMs),
    response_body: text === null ? null : text.slice(0, TEST_RESPONSE_MAX_CHARS),
    response_truncated:
      text !== null && (text.length > TEST_RESPONSE_MAX_CHARS || (outcome.response?.truncated ?? false)),
    error: outcome.error === null ? null : withoutResolvedAddress(outcome.error),
  };
}

/**
 * The test call answers its caller directly, so a refused name must not tell them which internal
 * address it resolved to (`db.internal (10.1.2.3) is in a blocked range` maps the network). The
 * operator's log keeps the full message.
 */
export function withoutResolvedAddress(error: string): string {
  return error.replace(/ \([0-9A-Fa-f:.]+\)( is in a blocked range)/, '$1');
}
