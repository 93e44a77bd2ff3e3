// Test kit for the SDK tests: a loopback HTTP proxy in front of a real server that can answer a
// request itself (a 429) or forward it and then cut the connection before the answer reaches the
// client (a network failure after the server did the work).
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: forward it, answer 429 itself, or forward and drop the answer. */
export type ProxyStep =
  | { kind: 'forward' }
  | { kind: 'rate-limit'; retryAfter: string }
  | { kind: 'drop-answer' };

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
    if (step.kind === 'rate-limit') {
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': step.retryAfter });
      res.end(
        JSON.stringify({
          status: 'error',
          message: 'Too many requests.',
          error: {
            type: 'rate_limit_error',
            code: 'rate_limited',
            message: 'Too many requests.',
            param: null,
          },
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
