/**
 * Typed errors: one class per error `type` of the services' error body, plus APIConnectionError for
 * requests that got no answer. Every API error carries the HTTP status, the error's code, param,
 * message, doc_url, the request id and the raw body.
 */

export interface ErrorBody {
  status?: string;
  message?: string;
  error?: { type?: string; code?: string; message?: string; param?: string | null; doc_url?: string };
  request_id?: string;
  errors?: Array<{ param: string; code: string; message: string }>;
  [key: string]: unknown;
}

export class UnderstudyError extends Error {
  override name = 'UnderstudyError';
}

export interface APIErrorFields {
  status: number;
  body: unknown;
  headers: Headers;
}

export class APIError extends UnderstudyError {
  override name = 'APIError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The error's `type` (e.g. `invalid_request_error`). */
  readonly type: string | null;
  /** The error's `code` (e.g. `resource_not_found`). */
  readonly code: string | null;
  /** The parameter at fault, when the service names one. */
  readonly param: string | null;
  /** Where the error is explained. */
  readonly docUrl: string | null;
  /** `X-Request-Id` of the answer (or the body's `request_id`): quote it to support. */
  readonly requestId: string | null;
  /** Every failing field, when the service reports several at once. */
  readonly errors: Array<{ param: string; code: string; message: string }>;
  /** The parsed body (or its text when it is not JSON). */
  readonly body: unknown;
  readonly headers: Headers;

  constructor(fields: APIErrorFields) {
    const body = (typeof fields.body === 'object' && fields.body !== null ? fields.body : {}) as ErrorBody;
    const detail = body.error ?? {};
    const message =
      detail.message ?? body.message ?? (typeof fields.body === 'string' && fields.body ? fields.body : null);
    super(message ?? `HTTP ${fields.status}`);
    this.status = fields.status;
    this.type = detail.type ?? null;
    this.code = detail.code ?? (typeof body.code === 'string' ? body.code : null);
    this.param = detail.param ?? null;
    this.docUrl = detail.doc_url ?? null;
    this.requestId = fields.headers.get('x-request-id') ?? body.request_id ?? null;
    this.errors = body.errors ?? [];
    this.body = fields.body;
    this.headers = fields.headers;
  }
}

/** 400, 404, 405, 409, 413, 415, 416: the request cannot succeed as sent. */
export class InvalidRequestError extends APIError {
  override name = 'InvalidRequestError';
}
/** 401: no, or a wrong, API key. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: the key may not do this. */
export class PermissionError extends APIError {
  override name = 'PermissionError';
}
/** 409 `idempotency_key_in_use` (after the retries) or 422 `idempotency_key_reuse`. */
export class IdempotencyError extends APIError {
  override name = 'IdempotencyError';
}
/** 429, after the retries. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds the service asked to wait, when it said. */
  get retryAfter(): number | null {
    const value = Number(this.headers.get('retry-after'));
    return Number.isFinite(value) && this.headers.has('retry-after') ? value : null;
  }
}
/** 5xx, after the retries. */
export class APIServerError extends APIError {
  override name = 'APIServerError';
}

/** No answer: the connection failed, was cut, or the attempt timed out (after the retries). */
export class APIConnectionError extends UnderstudyError {
  override name = 'APIConnectionError';
  readonly status = null;
  readonly code = null;
  readonly param = null;
  readonly requestId = null;
  readonly docUrl = null;
  readonly body = null;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The attempt took longer than the timeout. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
}

const BY_TYPE: Record<string, new (fields: APIErrorFields) => APIError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  api_error: APIServerError,
};

/** The error class for an answer: by the body's `error.type`, else by the status. */
export function errorFor(fields: APIErrorFields): APIError {
  const type = (fields.body as ErrorBody | null)?.error?.type;
  const byType = type ? BY_TYPE[type] : undefined;
  if (byType) return new byType(fields);
  const { status } = fields;
  if (status === 401) return new AuthenticationError(fields);
  if (status === 403) return new PermissionError(fields);
  if (status === 429) return new RateLimitError(fields);
  if (status >= 500) return new APIServerError(fields);
  if (status >= 400) return new InvalidRequestError(fields);
  return new APIError(fields);
}
