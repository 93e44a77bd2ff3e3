// Test kit for the SDK tests: a loopback HTTP proxy in front of a real server that can answer a
// request itself (a 429) or forward it and then cut the connection before the answer reaches the
// client (a network failure after the server did the work).
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: forward it, answer 429 itself, or forward and drop the answer. */
export type ProxyStep =
  | { kind: 'forward' }
  | { kind: 'rate-limit'; retryAfter: string }
  | { kind: 'unavailable' }
  | { kind: 'drop-answer' }
  | { kind: 'hang' };

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** What the proxy did with it. */
  step: ProxyStep['kind'];
}

export class FlakyProxy {
  /** Every request that reached the proxy, in order. */
  readonly seen: SeenRequest[] = [];
  /** Steps for the next requests, in order; once empty, requests are forwarded. */
  plan: ProxyStep[] = [];
  #server: Server | null = null;

  private constructor(private readonly upstream: URL) {}

  static async start(upstreamBaseUrl: string): Promise<FlakyProxy> {
    const proxy = new FlakyProxy(new URL(upstreamBaseUrl));
    proxy.#server = createServer((req, res) => proxy.#handle(req, res));
    await new Promise<void>((resolve) => proxy.#server!.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const step = this.plan.shift() ?? { kind: 'forward' };
    this.seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, step: step.kind });
    if (step.kind === 'hang') {
      req.resume(); // and never answer: the client's timeout ends it
      return;
    }
    if (step.kind === 'rate-limit' || step.kind === 'unavailable') {
      req.resume();
      const [status, type, code] =
        step.kind === 'rate-limit'
          ? [429, 'rate_limit_error', 'rate_limited']
          : [503, 'api_error', 'service_unavailable'];
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': 'req_proxy',
        ...(step.kind === 'rate-limit' ? { 'retry-after': step.retryAfter } : {}),
      });
      res.end(
        JSON.stringify({
          status: 'error',
          message: 'Try again.',
          error: { type, code, message: 'Try again.', param: null, doc_url: '' },
          request_id: 'req_proxy',
        }),
      );
      return;
    }
    const upstream = request(
      {
        host: this.upstream.hostname,
        port: this.upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: this.upstream.host },
      },
      (answer) => {
        if (step.kind === 'drop-answer') {
          // The server has done the work; the client never hears of it.
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  }
}
