import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import type { OutboundPolicy } from './address-policy.ts';
import { readBounded, toOutboundError, watchAbort } from './body.ts';
import { createPinnedConnector } from './connector.ts';
import { OutboundError } from './errors.ts';
import { type LookupFn, parseTargetUrl, systemLookup } from './vet.ts';

export interface OutboundRequest {
  url: string;
  /** Defaults to POST when a body is given, GET otherwise. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** request(): whole exchange including the body. stream(): until response headers arrive. */
  timeoutMs: number;
  /** DNS lookup and TCP/TLS handshake, each. Default 5 s. */
  connectTimeoutMs?: number;
  /** request(): default 64 KiB, the rest is discarded. stream(): default 4 MiB, then an error. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export type OutboundHeaders = Record<string, string | string[] | undefined>;

export interface OutboundResponse {
  status: number;
  headers: OutboundHeaders;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
}

export interface OutboundStreamResponse {
  status: number;
  headers: OutboundHeaders;
  /** Ends by throwing OutboundError('response_too_large') once the bound is passed. */
  body: AsyncIterable<Buffer>;
  /** Stops the stream; the body iterator then simply ends. */
  abort(): void;
}

export interface OutboundClientOptions {
  /** Injectable DNS, for tests. Defaults to the system resolver. */
  lookup?: LookupFn;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const DEFAULT_MAX_STREAM_BYTES = 4 * 1024 * 1024;
// An SSE stream may pause between events; this only catches a peer that has gone silent.
const STREAM_IDLE_TIMEOUT_MS = 300_000;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number`);
  return value;
}

/**
 * The one way to call a customer-controlled URL (DESIGN principle 7). Connections are pinned to
 * vetted addresses by the connector, redirects are returned rather than followed (undici only
 * follows them through an interceptor we do not install), and every exchange is time- and
 * size-bounded. Connections are kept alive and reused across requests.
 */
export class OutboundClient {
  readonly #policy: OutboundPolicy;
  readonly #lookup: LookupFn;
  // The connect timeout is fixed per connector, so there is one keep-alive Agent per distinct
  // value; callers use constants, so in practice this is a single Agent.
  readonly #agents = new Map<number, Agent>();

  constructor(policy: OutboundPolicy, options: OutboundClientOptions = {}) {
    this.#policy = { allowCidrs: [...policy.allowCidrs], requireHttps: policy.requireHttps };
    this.#lookup = options.lookup ?? systemLookup;
  }

  async request(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const timeoutMs = positive('timeoutMs', req.timeoutMs);
    const limit = positive('maxResponseBytes', req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    const target = this.#target(req);
    const watch = watchAbort(req.signal, timeoutMs, 'request');
    try {
      const res = await this.#dispatch(target, req, watch.signal, timeoutMs, timeoutMs);
      const { body, truncated } = await readBounded(res.body, limit);
      return {
        status: res.statusCode,
        headers: res.headers,
        body,
        truncated,
        durationMs: performance.now() - started,
      };
    } catch (err) {
      throw toOutboundError(err, watch.signal);
    } finally {
      watch.dispose();
    }
  }

  async stream(req: OutboundRequest): Promise<OutboundStreamResponse> {
    const timeoutMs = positive('timeoutMs', req.timeoutMs);
    const limit = positive('maxResponseBytes', req.maxResponseBytes ?? DEFAULT_MAX_STREAM_BYTES);
    const target = this.#target(req);
    const watch = watchAbort(req.signal, timeoutMs, 'response headers');
    let res: Dispatcher.ResponseData;
    try {
      res = await this.#dispatch(target, req, watch.signal, timeoutMs, STREAM_IDLE_TIMEOUT_MS);
    } catch (err) {
      watch.dispose();
      throw toOutboundError(err, watch.signal);
    }
    // Headers are in: the timeoutMs budget is spent, but a caller abort still applies.
    watch.clearTimer();
    let stopped = false;
    const body = res.body;
    async function* iterate(): AsyncGenerator<Buffer> {
      let seen = 0;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          seen += chunk.length;
          if (seen > limit) {
            throw new OutboundError('response_too_large', `streamed response exceeded ${limit} bytes`);
          }
          yield chunk;
        }
      } catch (err) {
        if (stopped) return;
        throw toOutboundError(err, watch.signal);
      } finally {
        body.destroy();
        watch.dispose();
      }
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      body: iterate(),
      abort() {
        stopped = true;
        body.destroy();
        watch.dispose();
      },
    };
  }

  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((agent) => agent.close()));
  }

  /** Everything that can be refused without touching the network, checked before any timer starts. */
  #target(req: OutboundRequest): { url: URL; agent: Agent } {
    const url = parseTargetUrl(req.url, this.#policy);
    const connectTimeoutMs = positive('connectTimeoutMs', req.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    return { url, agent: this.#agent(connectTimeoutMs) };
  }

  #dispatch(
    { url, agent }: { url: URL; agent: Agent },
    req: OutboundRequest,
    signal: AbortSignal,
    headersTimeout: number,
    bodyTimeout: number,
  ): Promise<Dispatcher.ResponseData> {
    return agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (req.method ?? (req.body === undefined ? 'GET' : 'POST')) as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal,
      headersTimeout,
      bodyTimeout,
    });
  }

  #agent(connectTimeoutMs: number): Agent {
    let agent = this.#agents.get(connectTimeoutMs);
    if (!agent) {
      agent = new Agent({ connect: createPinnedConnector(this.#policy, this.#lookup, connectTimeoutMs) });
      this.#agents.set(connectTimeoutMs, agent);
    }
    return agent;
  }
}
