/**
 * Typed errors, named alike in the Node and Python SDKs: one class per error `type` of the
 * services' error body (NotFoundError for a 404 among the invalid requests), plus
 * APIConnectionError for requests that got no answer. All derive from UnderstudyError, which
 * carries the HTTP status, the error's code, param, message, doc_url, the request id and the raw
 * body (null when there was no answer).
 */

export interface ErrorBody {
  status?: string;
  message?: string;
  error?: { type?: string; code?: string; message?: string; param?: string | null; doc_url?: string };
  request_id?: string;
  errors?: Array<{ param: string; code: string; message: string }>;
  [key: string]: unknown;
}

/** An HTTP answer that is an error. */
export interface APIErrorFields {
  status: number;
  body: unknown;
  headers: Headers;
}

export class UnderstudyError extends Error {
  override name = 'UnderstudyError';
  /** HTTP status of the answer (null when there was none). */
  readonly status: number | null;
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
  readonly headers: Headers | null;

  constructor(message: string, options: { cause?: unknown; response?: APIErrorFields } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const response = options.response;
    const body = (
      typeof response?.body === 'object' && response.body !== null ? response.body : {}
    ) as ErrorBody;
    const detail = body.error ?? {};
    this.status = response?.status ?? null;
    this.type = detail.type ?? null;
    this.code = detail.code ?? (typeof body.code === 'string' ? body.code : null);
    this.param = detail.param ?? null;
    this.docUrl = detail.doc_url ?? null;
    this.requestId = response?.headers.get('x-request-id') ?? body.request_id ?? null;
    this.errors = body.errors ?? [];
    this.body = response?.body ?? null;
    this.headers = response?.headers ?? null;
  }
}

/** 3xx, 400, 404, 405, 409, 413, 415, 416: the request cannot succeed as sent. */
export class InvalidRequestError extends UnderstudyError {
  override name = 'InvalidRequestError';
}
/** 404: no such resource or route. */
export class NotFoundError extends InvalidRequestError {
  override name = 'NotFoundError';
}
/** 401: no, or a wrong, API key. */
export class AuthenticationError extends UnderstudyError {
  override name = 'AuthenticationError';
}
/** 403: the key may not do this. */
export class PermissionDeniedError extends UnderstudyError {
  override name = 'PermissionDeniedError';
}
/** 409 `idempotency_key_in_use` (after the retries) or 422 `idempotency_key_reuse`. */
export class IdempotencyError extends UnderstudyError {
  override name = 'IdempotencyError';
}
/** 429, after the retries. */
export class RateLimitError extends UnderstudyError {
  override name = 'RateLimitError';
  /** Seconds the service asked to wait, when it said. */
  get retryAfter(): number | null {
    const raw = this.headers?.get('retry-after');
    const value = Number(raw);
    return raw && Number.isFinite(value) ? value : null;
  }
}
/** `api_error`: the service failed (5xx, after the retries). */
export class APIError extends UnderstudyError {
  override name = 'APIError';
}

/** No answer: the connection failed, was cut, or the attempt timed out (after the retries). */
export class APIConnectionError extends UnderstudyError {
  override name = 'APIConnectionError';
}

/** The attempt took longer than the timeout. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
}

type AnswerErrorClass = new (message: string, options: { response: APIErrorFields }) => UnderstudyError;

const BY_TYPE: Record<string, AnswerErrorClass> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionDeniedError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  api_error: APIError,
};

function classByStatus(status: number): AnswerErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return APIError;
  return InvalidRequestError;
}

/** The error for an answer: by the body's `error.type`, else by the status; a 404 is a NotFoundError. */
export function errorFor(response: APIErrorFields): UnderstudyError {
  const body = (
    typeof response.body === 'object' && response.body !== null ? response.body : {}
  ) as ErrorBody;
  const type = body.error?.type;
  let ErrorClass = (type ? BY_TYPE[type] : undefined) ?? classByStatus(response.status);
  if (response.status === 404 && ErrorClass === InvalidRequestError) ErrorClass = NotFoundError;
  const message =
    body.error?.message ??
    body.message ??
    (typeof response.body === 'string' && response.body ? response.body : `HTTP ${response.status}`);
  return new ErrorClass(message, { response });
}
