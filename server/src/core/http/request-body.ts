import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AnyFastify } from './any-fastify.ts';
import { announcesBody } from './bounds.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads a body no route schema describes (e.g. the MCP transport's JSON-RPC). */
    takesBody?: boolean;
  }
}

/**
 * What counts as "no body" (docs/api-conventions.md, "Request bodies"). Clients send an absent
 * body in many ways: no bytes at all, zero bytes under whatever Content-Type the library defaults to
 * (axios sends a form type, many wrappers JSON), `{}` or `null`. All of them mean the same, so:
 *
 * - a request with zero bytes of body has no body, whatever its Content-Type;
 * - an operation that takes no body accepts `{}` and `null` as no body, and refuses a body that
 *   carries something, naming its first field as an unknown parameter is named everywhere else;
 * - an operation whose body requires no field accepts no body (or `null`) as `{}`.
 */
export function installRequestBodyRules(app: AnyFastify): void {
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    // Fastify picks a parser by Content-Type before looking at the length: without the header it
    // reads nothing, where an empty form would be a 415 and an empty JSON body a parse error.
    if (request.headers['content-type'] !== undefined && !announcesBody(request.headers)) {
      delete request.raw.headers['content-type'];
    }
    done();
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => BODY_METHODS.has(method))) return;
    const schema = route.schema as RouteSchema;
    if (schema?.streamedBody || schema?.consumes || route.config?.takesBody) return;
    if (!schema?.body) {
      // Nothing of such a body is used: a small limit keeps a large one from being buffered.
      route.bodyLimit = Math.min(route.bodyLimit ?? BODYLESS_LIMIT, BODYLESS_LIMIT);
      prependPreValidation(route, expectNoBody);
    } else if (bodyIsOptional(schema.body)) {
      prependPreValidation(route, absentBodyAsEmptyObject);
    }
  });
}

/** `{}` and `null` padded with whitespace fit with room to spare. */
const BODYLESS_LIMIT = 16 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteSchema = { body?: unknown; streamedBody?: unknown; consumes?: unknown } | undefined;

/**
 * Whether a body schema lets the body be left out: an object none of whose fields is required.
 * The OpenAPI document marks exactly these request bodies as not required (openapi-components.ts).
 */
export function bodyIsOptional(body: unknown): boolean {
  const schema = body as { type?: unknown; required?: unknown[] } | null;
  return schema?.type === 'object' && !(schema.required?.length ?? 0);
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;

/** Runs before the route's own preValidation hooks, so they see the body as the route takes it. */
function prependPreValidation(route: RouteOptions, hook: Hook): void {
  const existing = route.preValidation;
  route.preValidation = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook];
}

const expectNoBody: Hook = (request, _reply, done) => {
  const body = request.body;
  if (body === undefined || body === null || isEmptyObject(body)) {
    request.body = undefined;
    return done();
  }
  done(unexpectedBody(body));
};

const absentBodyAsEmptyObject: Hook = (request, _reply, done) => {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
};

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0;
}

function unexpectedBody(body: unknown): AppError {
  const first = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body as object)[0] : undefined;
  if (first !== undefined) {
    return new AppError(
      'parameter_invalid',
      `Received unknown parameter: ${first}. This operation takes no request body (send none, or {}).`,
      { param: first },
    );
  }
  return new AppError('invalid_request', 'This operation takes no request body (send none, or {}).', {
    param: 'body',
  });
}
