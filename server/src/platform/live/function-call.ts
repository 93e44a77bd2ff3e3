// Calling a custom function (spec "Outbound call to a custom function"): a signed JSON POST to
// the customer's webhook_url through the SSRF-safe client, bounded by the function's timeout_ms.
// Whatever happens, the model gets a result: the JSON the receiver returned, or an error object.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { hmacSha256Hex } from '../../core/crypto/hashing.ts';
import { OutboundError, type OutboundRequest, type OutboundResponse } from '../../core/outbound/index.ts';
import type { CallableCustomFunction } from '../custom-functions/queries.ts';

export const FUNCTION_SIGNATURE_HEADER = 'X-Service-Signature';
const MAX_RESULT_BYTES = 64 * 1024;

export interface FunctionCallOutcome {
  ok: boolean;
  /** The tool message content for the model (always JSON text). */
  content: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** What the receiver answered, as received (at most MAX_RESULT_BYTES); null when it never answered. */
  response: { body: Buffer; truncated: boolean } | null;
}

export interface FunctionCallContext {
  /** Null for an author's test call (POST /v1/custom-functions/{id}/test), which has no meeting. */
  meetingId: string | null;
  scenarioId: string | null;
  toolCallId: string;
  /** An author's test call: the body says `"test": true` so receivers can tell it apart. */
  test?: boolean;
}

export interface FunctionCaller {
  request(req: OutboundRequest): Promise<OutboundResponse>;
}

/** `sha256=<hex HMAC-SHA256 of the raw body>` keyed with the function's webhook_secret. */
export function signFunctionBody(body: string, secret: string): string {
  return `sha256=${hmacSha256Hex(secret, body)}`;
}

const failure = (
  type: string,
  message: string,
  status: number | null,
  started: number,
  response: OutboundResponse | null = null,
): FunctionCallOutcome => ({
  ok: false,
  content: JSON.stringify({ error: { type, message, ...(status !== null ? { status } : {}) } }),
  status,
  error: `${type}: ${message}`,
  durationMs: performance.now() - started,
  response: response && { body: response.body, truncated: response.truncated },
});

export async function callCustomFunction(
  client: FunctionCaller,
  clock: Clock,
  fn: CallableCustomFunction,
  argumentsJson: string,
  context: FunctionCallContext,
  signal?: AbortSignal,
): Promise<FunctionCallOutcome> {
  const started = performance.now();
  let args: unknown;
  try {
    args = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
  } catch {
    return failure(
      'invalid_arguments',
      'The arguments are not valid JSON; the function was not called.',
      null,
      started,
    );
  }
  const body = JSON.stringify({
    id: `fcall_${randomUUID()}`,
    type: 'function.call',
    created_at: clock.now().toISOString(),
    function: { id: fn.id, name: fn.name },
    meeting_id: context.meetingId,
    scenario_id: context.scenarioId,
    tool_call_id: context.toolCallId,
    ...(context.test ? { test: true } : {}),
    data: { arguments: args },
  });
  let response: OutboundResponse;
  try {
    response = await client.request({
      url: fn.webhook_url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'Understudy-Functions/1',
        [FUNCTION_SIGNATURE_HEADER]: signFunctionBody(body, fn.webhook_secret),
      },
      body,
      timeoutMs: fn.timeout_ms,
      maxResponseBytes: MAX_RESULT_BYTES,
      signal,
    });
  } catch (error) {
    if (error instanceof OutboundError) {
      const type = error.code === 'timeout' ? 'timeout' : 'network_error';
      return failure(type, error.message, null, started);
    }
    return failure('network_error', error instanceof Error ? error.message : String(error), null, started);
  }
  if (response.status < 200 || response.status >= 300) {
    return failure(
      'http_error',
      `The function answered HTTP ${response.status}.`,
      response.status,
      started,
      response,
    );
  }
  if (response.truncated) {
    return failure(
      'invalid_response',
      `The response is larger than ${MAX_RESULT_BYTES} bytes.`,
      response.status,
      started,
      response,
    );
  }
  const text = response.body.toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    return failure(
      'invalid_response',
      'The function did not return JSON.',
      response.status,
      started,
      response,
    );
  }
  return {
    ok: true,
    content: text,
    status: response.status,
    error: null,
    durationMs: performance.now() - started,
    response: { body: response.body, truncated: false },
  };
}
