import type { FastifyRequest } from 'fastify';
import type { AnyFastify } from '../http/any-fastify.ts';
import type { RestCall } from './tool.ts';

export interface RestError {
  code: string;
  message: string;
  param: string | null;
  status: number;
}

export type RestOutcome = { ok: true; body: Record<string, unknown> } | { ok: false; error: RestError };

/**
 * Runs a tool's REST call in-process with the caller's own credentials and address: the route's
 * authentication, scopes, rate limits, idempotency and audit apply exactly as for a REST client.
 */
export async function runRestCall(
  app: AnyFastify,
  call: RestCall,
  caller: FastifyRequest,
): Promise<RestOutcome> {
  if (!isPlainPath(call.url)) {
    // A dot or empty segment would be normalised into another route than the one the tool names.
    return {
      ok: false,
      error: {
        code: 'parameter_invalid',
        message: 'An id in the request is not valid.',
        param: null,
        status: 400,
      },
    };
  }
  const headers: Record<string, string> = { authorization: caller.headers.authorization ?? '' };
  if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
  const response = await app.inject({
    method: call.method,
    url: call.url,
    headers,
    remoteAddress: caller.ip,
    ...(call.body === undefined ? {} : { payload: call.body as Record<string, unknown> }),
  });
  let body: unknown;
  try {
    body = response.body ? response.json() : {};
  } catch {
    body = { text: response.body };
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    // structuredContent is an object: a bare list travels as `{ data }`.
    return { ok: true, body: Array.isArray(body) ? { data: body } : (body as Record<string, unknown>) };
  }
  const error = (body as { error?: Partial<RestError> }).error ?? {};
  return {
    ok: false,
    error: {
      code: error.code ?? 'upstream_error',
      message: error.message ?? `HTTP ${response.statusCode}`,
      param: error.param ?? null,
      status: response.statusCode,
    },
  };
}

/** True when no segment of the URL's path is empty, `.` or `..` (percent-encoded dots included). */
function isPlainPath(url: string): boolean {
  const segments = url.split('?')[0]!.split('/').slice(1);
  return segments.every((segment) => {
    const dots = segment.replace(/%2e/gi, '.');
    return segment !== '' && dots !== '.' && dots !== '..';
  });
}
