import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPVersion } from 'find-my-way';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import type { AnyFastify } from './any-fastify.ts';
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from './errors.ts';
import { PAGE_PARAMS } from './pagination.ts';

export interface ErrorBody {
  status: 'error';
  message: string;
  error: { type: string; code: ErrorCode; message: string; param: string | null; doc_url: string };
  request_id: string;
  errors?: FieldError[];
}

/** Renders any error in the spec's shape; never leaks internals of unexpected failures. */
export function renderError(error: AppError, requestId: string, docsBaseUrl: string): ErrorBody {
  const body: ErrorBody = {
    status: 'error',
    message: error.message,
    error: {
      type: ERROR_CODES[error.code].type,
      code: error.code,
      message: error.message,
      param: error.param ?? null,
      doc_url: `${docsBaseUrl}/docs/errors#${error.code}`,
    },
    request_id: requestId,
  };
  if (error.errors) body.errors = error.errors;
  return body;
}

export function sendError(reply: FastifyReply, error: AppError, docsBaseUrl: string): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).send(renderError(error, reply.request.id, docsBaseUrl));
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/goals/0/name` → `goals[0].name`: the offending parameter as an integrator writes it. */
function paramFromPath(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

export function validationToFieldErrors(validation: AjvError[], context?: string): FieldError[] {
  // A union (literals, or a type or null) fails once per branch: its `const` and `type` errors on the
  // same value are one rule, said whole ("must be one of …", "must be a string or null").
  const branches = new Map<string, { values: unknown[]; types: string[] }>();
  for (const issue of validation) {
    const union = branches.get(issue.instancePath) ?? { values: [], types: [] };
    if (issue.keyword === 'const') union.values.push(issue.params.allowedValue);
    if (issue.keyword === 'type') union.types.push(String(issue.params.type));
    branches.set(issue.instancePath, union);
  }
  return validation.map((issue) => {
    let param = paramFromPath(issue.instancePath);
    if (issue.keyword === 'required') param = [param, issue.params.missingProperty].filter(Boolean).join('.');
    if (issue.keyword === 'additionalProperties') {
      param = [param, issue.params.additionalProperty].filter(Boolean).join('.');
      return { param, code: 'parameter_unknown', message: `Received unknown parameter: ${param}.` };
    }
    if (!param && context === 'body') param = 'body';
    const code = issue.keyword === 'required' ? 'parameter_missing' : 'parameter_invalid';
    const message =
      issue.keyword === 'required'
        ? `Missing required parameter: ${param}.`
        : `Invalid ${param}: ${plainRule(issue, branches.get(issue.instancePath))}.`;
    return { param, code, message };
  });
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};
const typeName = (type: string) => TYPE_NAMES[type] ?? `a ${type}`;

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  uri: 'an absolute URL',
  'date-time': 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
  uuid: 'an id (UUID)',
};

/** The rule a value broke, in the words a person reads on a form (not the validator's own). */
function plainRule(issue: AjvError, union?: { values: unknown[]; types: string[] }): string {
  const { limit, type, format, allowedValues, allowedValue } = issue.params as Record<string, unknown>;
  const count = (noun: string) => `${limit} ${noun}${limit === 1 ? '' : 's'}`;
  switch (issue.keyword) {
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${count('character')} long`;
    case 'maxLength':
      return `must be at most ${count('character')} long`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'minItems':
      return `must have at least ${count('item')}`;
    case 'maxItems':
      return `must have at most ${count('item')}`;
    case 'type':
      return `must be ${(union && union.types.length > 1 ? union.types : [String(type)]).map(typeName).join(' or ')}`;
    case 'format':
      return `must be ${FORMATS[String(format)] ?? `in the ${format} format`}`;
    case 'enum':
      return `must be one of ${(allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return union && union.values.length > 1
        ? `must be one of ${union.values.map((value) => JSON.stringify(value)).join(', ')}`
        : `must be ${JSON.stringify(allowedValue)}`;
    case 'pattern':
      return 'does not have the expected form';
    default:
      return issue.message ?? 'invalid value';
  }
}

/** Maps framework, validation and database errors to AppError; anything else is an internal error. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const err = error as FastifyError & { validation?: AjvError[]; validationContext?: string; code?: string };
  if (err.validation) {
    const errors = validationToFieldErrors(err.validation, err.validationContext);
    const first = errors[0]!;
    if (err.validationContext === 'querystring' && PAGE_PARAMS.includes(first.param)) {
      const message =
        first.param === 'limit'
          ? 'Invalid limit: limit must be an integer from 1 to 100.'
          : `Invalid ${first.param}: send one cursor, exactly as next_cursor gave it.`;
      return new AppError('invalid_pagination', message, { param: first.param, cause: error });
    }
    const code: ErrorCode = first.code === 'parameter_missing' ? 'parameter_missing' : 'parameter_invalid';
    return new AppError(code, first.message, { param: first.param, errors, cause: error });
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError(
      'service_unavailable',
      'The database is unreachable or did not answer in time. Retry after the time in Retry-After.',
      { headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) }, cause: error },
    );
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Content-Type must be application/json.', {
        param: 'Content-Type',
        cause: error,
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is too large.', {
        param: 'body',
        cause: error,
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', 'The request body is not valid JSON.', {
        param: 'body',
        cause: error,
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Content-Length does not match the body.', {
        param: 'Content-Length',
        cause: error,
      });
    // The router refuses these before any route runs (see frameworkErrors in http-app.ts).
    case 'FST_ERR_BAD_URL':
      return new AppError('invalid_request', 'The URL path is not validly percent-encoded.', {
        param: 'path',
        cause: error,
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('invalid_request', 'A path segment of the URL is too long.', {
        param: 'path',
        cause: error,
      });
    // Text PostgreSQL cannot store (NUL characters); the body is checked for them up front (see
    // refuseUnsafeInput in input-checks.ts), so this is the net for text arriving by any other way.
    case '22021':
    case '22P05':
      return new AppError('parameter_invalid', 'Text holds characters that cannot be stored, such as NUL.', {
        cause: error,
      });
    case '23505':
      return new AppError('duplicate', 'A resource with these values already exists.', { cause: error });
    case '23503':
      return new AppError('parameter_invalid', 'A referenced resource does not exist.', { cause: error });
    case '22P02':
      // Malformed identifiers reach the database only from path parameters: such an id names nothing.
      return new AppError('resource_not_found', 'No such resource.', { param: 'id', cause: error });
  }
  if (err instanceof SyntaxError && (err as { statusCode?: number }).statusCode === 400) {
    return new AppError('invalid_json', 'The request body is not valid JSON.', {
      param: 'body',
      cause: error,
    });
  }
  if (typeof err.statusCode === 'number' && err.statusCode === 413) {
    return new AppError('payload_too_large', 'The request body is too large.', {
      param: 'body',
      cause: error,
    });
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError('invalid_request', err.message, { cause: error });
  }
  return new AppError(
    'internal_error',
    'An unexpected error occurred. Quote the request_id if you contact support.',
    {
      cause: error,
    },
  );
}

const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Keeps a well-formed incoming X-Request-Id (so traces join up), else mints one. */
export function requestIdFrom(request: { headers: Record<string, unknown> }, mint: () => string): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : mint();
}

/**
 * Error rendering, X-Request-Id on every response, and 404/405 for unknown routes.
 * Registered on the root instance so it covers every route and every failure.
 */
export function installErrorHandling(
  app: AnyFastify,
  docsBaseUrl: string,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const knownRoutes = FindMyWay<HTTPVersion.V1>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || route.url.includes('*')) continue;
      try {
        knownRoutes.on(method as 'GET', route.url, () => {});
      } catch {
        // The same path registered twice (e.g. by two encapsulated scopes) needs no second entry.
      }
    }
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, param: appError.param }, 'request refused');
    return sendError(reply, appError, docsBaseUrl);
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) =>
      knownRoutes.find(method as 'GET', path),
    );
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        reply,
        new AppError('method_not_allowed', `${request.method} is not allowed on ${path}.`),
        docsBaseUrl,
      );
    }
    return sendError(
      reply,
      new AppError('route_not_found', `Unrecognized request URL (${request.method}: ${path}).`),
      docsBaseUrl,
    );
  };
  app.setNotFoundHandler(notFound);
  // Scopes that authenticate install it again, so unknown paths there answer 401 before 404.
  return notFound;
}
