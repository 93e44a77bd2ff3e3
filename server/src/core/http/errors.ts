/**
 * The one error model of both services: a closed set of codes, each with its HTTP status and
 * error type, rendered by one handler (see error-handler.ts) in the spec's shape.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_not_allowed: { status: 400, type: 'invalid_request_error' },
  invalid_pagination: { status: 400, type: 'invalid_request_error' },
  invalid_idempotency_key: { status: 400, type: 'invalid_request_error' },
  /** The mailbox's send lists refuse a recipient (docs/mailbox.md, "Allow and block lists"). */
  recipient_not_allowed: { status: 400, type: 'invalid_request_error' },
  unauthorized: { status: 401, type: 'authentication_error' },
  invalid_api_key: { status: 401, type: 'authentication_error' },
  invalid_token: { status: 401, type: 'authentication_error' },
  invalid_credentials: { status: 401, type: 'authentication_error' },
  permission_denied: { status: 403, type: 'permission_error' },
  user_token_required: { status: 403, type: 'permission_error' },
  insufficient_scope: { status: 403, type: 'permission_error' },
  /** The member's role does not allow the operation (docs/teams.md). */
  insufficient_role: { status: 403, type: 'permission_error' },
  signup_disabled: { status: 403, type: 'permission_error' },
  /** A cookie-authenticated write without the session's X-CSRF-Token, or from another site. */
  csrf_token_invalid: { status: 403, type: 'permission_error' },
  resource_not_found: { status: 404, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  /** The mailbox service's 404: its spec names the code `not found`. */
  not_found: { status: 404, type: 'invalid_request_error' },
  /** The room's results page: the scenario does not share results with participants. */
  results_not_shared: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  resource_conflict: { status: 409, type: 'invalid_request_error' },
  duplicate: { status: 409, type: 'invalid_request_error' },
  /** A running meeting cannot be deleted: end it first (docs/meetings.md, "Deleting a meeting"). */
  meeting_active: { status: 409, type: 'invalid_request_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error' },
  /** The request's headers or body did not arrive in time (docs/reliability.md, "Bounds and timeouts"). */
  request_timeout: { status: 408, type: 'invalid_request_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  range_not_satisfiable: { status: 416, type: 'invalid_request_error' },
  idempotency_key_reuse: { status: 422, type: 'idempotency_error' },
  headers_too_large: { status: 431, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
  upstream_error: { status: 502, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A failing field, for payloads that report every failing field at once (e.g. guardrails). */
export interface FieldError {
  param: string;
  code: string;
  message: string;
}

export interface AppErrorOptions {
  param?: string;
  cause?: unknown;
  headers?: Record<string, string>;
  errors?: FieldError[];
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export const notFound = (resource: string, param = 'id') =>
  new AppError('resource_not_found', `No such ${resource}.`, { param });

export const invalidParam = (param: string, message: string) =>
  new AppError('parameter_invalid', message, { param });

/** Required text that must say something: trimmed, and refused with `param` when only spaces. */
export function requireText(value: string, param: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalidParam(param, `${param} must not be blank.`);
  return trimmed;
}
