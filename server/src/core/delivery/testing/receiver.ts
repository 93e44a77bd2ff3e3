import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  receivedAt: number;
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Never answer; the connection stays open until the client gives up or the receiver closes. */
  hang?: boolean;
  /** Answer once this settles (a gate the test opens). */
  after?: Promise<unknown>;
  headers?: Record<string, string>;
}

/** A real HTTP receiver on 127.0.0.1 whose answer a test can change while it runs. */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  #answer: ReceiverAnswer | ((request: ReceivedRequest) => ReceiverAnswer) = { status: 200, body: 'ok' };
  #server: Server | null = null;
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  /** `host` may be any loopback address (Linux answers all of 127.0.0.0/8). */
  static async start(host = '127.0.0.1'): Promise<TestReceiver> {
    const receiver = new TestReceiver();
    await receiver.#listen(host);
    return receiver;
  }

  get url(): string {
    const { address, port } = this.#server!.address() as AddressInfo;
    return `http://${address}:${port}/hooks`;
  }

  answer(answer: ReceiverAnswer | ((request: ReceivedRequest) => ReceiverAnswer)): void {
    this.#answer = answer;
  }

  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #listen(host: string): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
        };
        this.requests.push(request);
        this.#waiters = this.#waiters.filter((waiter) => {
          if (this.requests.length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
        const answer = typeof this.#answer === 'function' ? this.#answer(request) : this.#answer;
        if (answer.hang) return;
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? '');
        };
        if (answer.after) void answer.after.then(send, send);
        else if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
        else send();
      });
    });
    // Idle connections stay open until the client drops them (or close()). With Node's default 5 s
    // the receiver could close a pooled socket just as the client reuses it: undici's keep-alive
    // timer (3 s from the `Keep-Alive: timeout=5` hint) advances by ticks, not by elapsed time, so
    // on a busy event loop it fires late, and the attempt then fails with ECONNRESET and waits for
    // a retry that a test's fake clock never makes due.
    this.#server.keepAliveTimeout = 0;
    return new Promise((resolve) => this.#server!.listen(0, host, () => resolve()));
  }
}
