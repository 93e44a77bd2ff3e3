import { randomUUID } from 'node:crypto';
import { APIConnectionError, APITimeoutError, errorFor } from './errors.js';
import type { OperationSpec } from './operation.js';
import { retryDelayMs, sleep } from './retry.js';
import type { RequestOptions } from './types.js';
import { VERSION } from './version.js';

export interface ClientOptions {
  /** `svc_…` API key (or a user token). Optional only for the few public operations. */
  apiKey?: string;
  /** Where the service runs, e.g. `https://understudy.example.com` (no `/v1` or `/v0`: the SDK adds it). */
  baseUrl: string;
  /** Milliseconds each attempt may take. Default 60,000. */
  timeout?: number;
  /** Retries after the first attempt (network errors, 409 `idempotency_key_in_use`, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** A fetch implementation (default `globalThis.fetch`), e.g. to add a proxy or record calls. */
  fetch?: typeof fetch;
  /** Headers sent on every call. */
  headers?: Record<string, string>;
}

export interface ServiceTraits {
  /**
   * Whether the service honours `Idempotency-Key` (on POST, PUT, PATCH and DELETE): then a write is
   * retried like a read, because a retry with the same key cannot run it twice. Otherwise writes
   * are retried only after a 429, which says the request did not run.
   */
  honoursIdempotencyKeys: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;

type Params = Record<string, unknown>;

/** A thrown value that ends the call at once, without retrying. */
class Final {
  constructor(readonly error: unknown) {}
}

/** One service's HTTP: URL building, authentication, retries with one idempotency key, typed errors. */
export class HttpClient {
  readonly #baseUrl: string;
  readonly #options: ClientOptions;
  readonly #traits: ServiceTraits;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions, traits: ServiceTraits) {
    if (!options?.baseUrl)
      throw new TypeError('baseUrl is required (the address of your Understudy service)');
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#options = options;
    this.#traits = traits;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (!fetchImpl) throw new TypeError('no fetch available: pass options.fetch (Node 18+ has one)');
    this.#fetch = fetchImpl;
  }

  /** Calls the operation and answers with its parsed JSON (undefined for an empty answer). */
  async request(
    spec: OperationSpec,
    pathArgs: readonly unknown[],
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<unknown> {
    const { url, init } = this.#build(spec, pathArgs, params, options);
    // A stream is read once: held in memory, the body can be sent again by a retry.
    if (init.body instanceof ReadableStream)
      init.body = new Uint8Array(await new Response(init.body).arrayBuffer());
    const maxRetries = options.maxRetries ?? this.#options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeout = options.timeout ?? this.#options.timeout ?? DEFAULT_TIMEOUT_MS;
    const retriableWrite = spec.method === 'GET' || this.#traits.honoursIdempotencyKeys;
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= maxRetries;
      try {
        return await this.#attempt(url, init, timeout, options.signal, spec.method, retriableWrite, last);
      } catch (thrown) {
        if (thrown instanceof Final) throw thrown.error;
        const failure = thrown as { retryAfter: string | null; error: unknown };
        if (last) throw failure.error;
        await sleep(retryDelayMs(attempt, failure.retryAfter), options.signal);
      }
    }
  }

  /** One attempt. Throws Final for an answer to keep, or { error, retryAfter } for one worth retrying. */
  async #attempt(
    url: string,
    init: RequestInit,
    timeout: number,
    signal: AbortSignal | undefined,
    method: string,
    retriableWrite: boolean,
    last: boolean,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let response: Response;
      let text: string | null = null;
      let bytes: Uint8Array | null = null;
      try {
        // No redirects: following one would turn a POST into a GET and carry the key elsewhere;
        // a 3xx from an API is a mistake to report (an InvalidRequestError), as in the Python SDK.
        response = await this.#fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
        if (isText(response.headers.get('content-type'))) text = await response.text();
        else bytes = new Uint8Array(await response.arrayBuffer());
      } catch (cause) {
        if (signal?.aborted) throw new Final(signal.reason ?? cause);
        const error = timedOut
          ? new APITimeoutError(`${method} ${url} timed out after ${timeout} ms`, { cause })
          : new APIConnectionError(`${method} ${url} failed: ${(cause as Error)?.message ?? cause}`, {
              cause,
            });
        if (!retriableWrite && method !== 'GET') throw new Final(error);
        throw { error, retryAfter: null };
      }
      const body = parseBody(response, text, bytes);
      if (response.ok) return body;
      const error = errorFor({ status: response.status, body, headers: response.headers });
      const retriable =
        response.status === 429 ||
        (retriableWrite &&
          (response.status >= 500 || (response.status === 409 && error.code === 'idempotency_key_in_use')));
      if (!retriable || last) throw new Final(error);
      throw { error, retryAfter: response.headers.get('retry-after') };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #build(spec: OperationSpec, pathArgs: readonly unknown[], params: Params, options: RequestOptions) {
    let path = spec.path;
    spec.pathParams.forEach((name, index) => {
      const value = pathArgs[index];
      if (value === undefined || value === null || value === '') {
        throw new TypeError(`${spec.operationId}: the path parameter ${name} is required`);
      }
      path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    });
    const query = new URLSearchParams();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': `understudy-node/${VERSION}`,
      ...this.#options.headers,
    };
    if (this.#options.apiKey) headers.Authorization = `Bearer ${this.#options.apiKey}`;
    const rest: Params = {};
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value === undefined) continue;
      const header = spec.headers.find((name) => name.toLowerCase() === key.toLowerCase());
      if (header) headers[header] = String(value);
      else if (spec.query.includes(key) || spec.body === null) appendQuery(query, key, value);
      else rest[key] = value;
    }
    let body: BodyInit | undefined;
    if (spec.body === 'json') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(rest);
    } else if (spec.body === 'multipart') {
      body = toFormData(rest);
    } else if (spec.body === 'raw') {
      if (typeof rest.contentType === 'string') headers['Content-Type'] = rest.contentType;
      body = rest.body as BodyInit;
    }
    // One key per call, the same on every attempt: the service runs the write once.
    if (spec.method === 'POST' || (spec.method !== 'GET' && this.#traits.honoursIdempotencyKeys)) {
      headers['Idempotency-Key'] = options.idempotencyKey ?? `node-${randomUUID()}`;
    }
    Object.assign(headers, options.headers);
    const search = query.toString();
    return {
      url: `${this.#baseUrl}${path}${search ? `?${search}` : ''}`,
      init: { method: spec.method, headers, body } as RequestInit,
    };
  }
}

function appendQuery(query: URLSearchParams, key: string, value: unknown): void {
  if (Array.isArray(value)) for (const item of value) query.append(key, String(item));
  else if (value instanceof Date) query.append(key, value.toISOString());
  else query.append(key, String(value));
}

function toFormData(fields: Params): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(key, value, (value as File).name ?? key);
    else if (Array.isArray(value)) for (const item of value) form.append(key, String(item));
    else if (typeof value === 'object' && value !== null) form.append(key, JSON.stringify(value));
    else form.append(key, String(value));
  }
  return form;
}

const isText = (contentType: string | null) =>
  !contentType || /json|^text\/|^message\//i.test(contentType) || contentType.includes('+json');

/** JSON parsed; other text as a string; anything else as bytes; an empty answer as undefined. */
function parseBody(response: Response, text: string | null, bytes: Uint8Array | null): unknown {
  if (bytes) return bytes;
  if (!text) return undefined;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
