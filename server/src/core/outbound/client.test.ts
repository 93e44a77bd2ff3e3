import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { OutboundClient } from './client.ts';
import { OutboundError } from './errors.ts';
import { type LookupFn, vetUrl } from './vet.ts';

// Every socket in this file goes to 127.0.0.0/8. Blocked targets are refused before connecting,
// and receivers count requests to prove it.

interface Receiver {
  port: number;
  url: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

async function receiver(
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok'),
  host = '127.0.0.1',
): Promise<Receiver> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const r: Receiver = {
    port,
    url: `http://${host}:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
  receivers.push(r);
  return r;
}

after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

function fakeDns(answers: (hostname: string, call: number) => string[]): LookupFn & { calls: number } {
  const lookup = Object.assign(
    async (hostname: string) => {
      lookup.calls += 1;
      return answers(hostname, lookup.calls);
    },
    { calls: 0 },
  );
  return lookup;
}

function isCode(code: OutboundError['code']) {
  return (err: unknown) => {
    assert.ok(err instanceof OutboundError, `expected OutboundError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  };
}

const LOOPBACK = { allowCidrs: ['127.0.0.0/8'], requireHttps: false };
const STRICT_DEV = { allowCidrs: [], requireHttps: false };

describe('OutboundClient: SSRF refusals (nothing reaches the receiver)', () => {
  it('refuses loopback by IP literal, by a name resolving to it, and localhost', async (t) => {
    const target = await receiver();
    const dns = fakeDns(() => ['127.0.0.1']);
    const client = new OutboundClient(STRICT_DEV, { lookup: dns });
    t.after(() => client.close());

    await assert.rejects(
      client.request({ url: `${target.url}/x`, timeoutMs: 1000 }),
      isCode('blocked_address'),
    );
    await assert.rejects(
      client.request({ url: `http://hooks.example.test:${target.port}/`, timeoutMs: 1000 }),
      isCode('blocked_address'),
    );
    await assert.rejects(
      client.request({ url: `http://[::1]:${target.port}/`, timeoutMs: 1000 }),
      isCode('blocked_address'),
    );
    const system = new OutboundClient(STRICT_DEV);
    t.after(() => system.close());
    await assert.rejects(
      system.request({ url: `http://localhost:${target.port}/`, timeoutMs: 1000 }),
      isCode('blocked_address'),
    );
    assert.equal(dns.calls, 1, 'IP literals skip DNS');
    assert.equal(target.requests.length, 0);
  });

  it('returns a redirect as-is instead of following it to a blocked address', async (t) => {
    const internal = await receiver();
    const redirector = await receiver((_req, res) => {
      res.writeHead(302, { location: `${internal.url}/` }).end();
    }, '127.0.0.2');
    const client = new OutboundClient({ allowCidrs: ['127.0.0.2/32'], requireHttps: false });
    t.after(() => client.close());

    const res = await client.request({
      url: `${redirector.url}/hook`,
      method: 'POST',
      body: '{}',
      timeoutMs: 1000,
    });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `${internal.url}/`);
    assert.equal(redirector.requests.length, 1);
    assert.equal(internal.requests.length, 0);
  });

  it('refuses plain http when https is required, without connecting', async (t) => {
    const target = await receiver();
    const dns = fakeDns(() => ['127.0.0.1']);
    const client = new OutboundClient({ allowCidrs: ['127.0.0.0/8'], requireHttps: true }, { lookup: dns });
    t.after(() => client.close());
    await assert.rejects(
      client.request({ url: `${target.url}/`, timeoutMs: 1000 }),
      isCode('https_required'),
    );
    await assert.rejects(client.stream({ url: `${target.url}/`, timeoutMs: 1000 }), isCode('https_required'));
    assert.equal(dns.calls, 0);
    assert.equal(target.requests.length, 0);
  });
});

describe('OutboundClient: pinning against DNS rebinding', () => {
  it('resolves once per connection and connects only to the address it checked', async (t) => {
    const target = await receiver();
    // First answer is the allowed receiver; every later answer is the metadata address.
    const dns = fakeDns((_host, call) => (call === 1 ? ['127.0.0.1'] : ['169.254.169.254']));
    const client = new OutboundClient(LOOPBACK, { lookup: dns });
    t.after(() => client.close());
    const url = `http://rebind.example.test:${target.port}/hook`;

    const first = await client.request({ url, timeoutMs: 1000 });
    // undici hands a socket back to the pool one event-loop turn after the response completes.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await client.request({ url, timeoutMs: 1000 });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(dns.calls, 1, 'the keep-alive connection stays on the vetted address');
    assert.equal(target.requests[0].headers.host, `rebind.example.test:${target.port}`);
    assert.equal(target.requests[0].socket.localAddress, '127.0.0.1');

    // A new connection resolves afresh and is refused on the new answer, before connecting.
    const fresh = new OutboundClient(LOOPBACK, { lookup: dns });
    t.after(() => fresh.close());
    await assert.rejects(fresh.request({ url, timeoutMs: 1000 }), isCode('blocked_address'));
    assert.equal(dns.calls, 2);
    assert.equal(target.requests.length, 2);
  });

  it('does not trust an earlier vetUrl: the connection-time answer decides', async (t) => {
    const target = await receiver();
    const dns = fakeDns((_host, call) => (call === 1 ? ['127.0.0.1'] : ['127.0.0.1', '10.0.0.1']));
    const url = `http://rebind.example.test:${target.port}/`;
    assert.deepEqual((await vetUrl(url, LOOPBACK, dns)).addresses, ['127.0.0.1']);
    const client = new OutboundClient(LOOPBACK, { lookup: dns });
    t.after(() => client.close());
    await assert.rejects(client.request({ url, timeoutMs: 1000 }), isCode('blocked_address'));
    assert.equal(dns.calls, 2);
    assert.equal(target.requests.length, 0);
  });

  it('dials the resolved address, not whatever the name would resolve to elsewhere', async (t) => {
    const one = await receiver();
    const two = await receiver(undefined, '127.0.0.2');
    const client = new OutboundClient(LOOPBACK, { lookup: fakeDns(() => ['127.0.0.2']) });
    t.after(() => client.close());
    // Same port number is not guaranteed, so point the name at receiver two's port.
    const res = await client.request({ url: `http://pinned.example.test:${two.port}/`, timeoutMs: 1000 });
    assert.equal(res.status, 200);
    assert.equal(two.requests.length, 1);
    assert.equal(one.requests.length, 0);
  });
});

describe('OutboundClient: requests within the allow list', () => {
  it('sends method, headers and body and returns the response', async (t) => {
    const target = await receiver((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.headers['x-sig'] ?? '' });
        res.end(JSON.stringify({ method: req.method, path: req.url, body: text }));
      });
    });
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const res = await client.request({
      url: `${target.url}/hooks?a=1#frag`,
      headers: { 'content-type': 'application/json', 'x-sig': 'v1,abc' },
      body: '{"hello":"world"}',
      timeoutMs: 1000,
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers['x-echo'], 'v1,abc');
    assert.equal(res.truncated, false);
    assert.ok(res.durationMs >= 0);
    assert.deepEqual(JSON.parse(res.body.toString()), {
      method: 'POST',
      path: '/hooks?a=1',
      body: '{"hello":"world"}',
    });
  });

  it('times out against a server that never answers', async (t) => {
    const silent = await receiver(() => {});
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const started = Date.now();
    await assert.rejects(client.request({ url: `${silent.url}/`, timeoutMs: 200 }), isCode('timeout'));
    assert.ok(Date.now() - started < 1000);
  });

  it('times out a body that trickles in past the total timeout', async (t) => {
    const slow = await receiver((_req, res) => {
      res.writeHead(200);
      const tick = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(tick));
    });
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    await assert.rejects(client.request({ url: `${slow.url}/`, timeoutMs: 200 }), isCode('timeout'));
  });

  it('keeps only the first maxResponseBytes of a large body', async (t) => {
    const big = await receiver((_req, res) => res.end(Buffer.alloc(200 * 1024, 'a')));
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const small = await client.request({ url: `${big.url}/`, timeoutMs: 1000, maxResponseBytes: 1000 });
    assert.equal(small.truncated, true);
    assert.equal(small.body.length, 1000);
    const byDefault = await client.request({ url: `${big.url}/`, timeoutMs: 1000 });
    assert.equal(byDefault.truncated, true);
    assert.equal(byDefault.body.length, 64 * 1024);
  });

  it('reports a refused connection as connect_failed', async (t) => {
    const gone = await receiver();
    await gone.close();
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    await assert.rejects(client.request({ url: `${gone.url}/`, timeoutMs: 1000 }), isCode('connect_failed'));
  });

  it("rethrows the caller's own abort reason", async (t) => {
    const silent = await receiver(() => {});
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(
      client.request({ url: `${silent.url}/`, timeoutMs: 5000, signal: controller.signal }),
      (err) => err === reason,
    );
  });
});

describe('OutboundClient.stream', () => {
  function sse(events: string[], gapMs = 10) {
    return (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        if (i === events.length) return res.end();
        res.write(`data: ${events[i++]}\n\n`);
        setTimeout(next, gapMs);
      };
      next();
    };
  }

  it('yields an SSE response chunk by chunk', async (t) => {
    const target = await receiver(sse(['one', 'two', 'three']));
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const res = await client.stream({
      url: `${target.url}/events`,
      method: 'POST',
      body: '{}',
      timeoutMs: 1000,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream');
    const chunks: string[] = [];
    for await (const chunk of res.body) chunks.push(chunk.toString());
    assert.ok(chunks.length >= 2, 'delivered incrementally');
    assert.equal(chunks.join(''), 'data: one\n\ndata: two\n\ndata: three\n\n');
  });

  it('fails with response_too_large past the bound', async (t) => {
    const target = await receiver(
      sse(
        Array.from({ length: 50 }, () => 'x'.repeat(100)),
        1,
      ),
    );
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    const res = await client.stream({ url: `${target.url}/`, timeoutMs: 1000, maxResponseBytes: 1024 });
    let received = 0;
    await assert.rejects(async () => {
      for await (const chunk of res.body) received += chunk.length;
    }, isCode('response_too_large'));
    assert.ok(received <= 1024);
  });

  it('times out waiting for headers, and stops quietly on abort()', async (t) => {
    const silent = await receiver(() => {});
    const endless = await receiver(sse(Array.from({ length: 1000 }, String), 5));
    const client = new OutboundClient(LOOPBACK);
    t.after(() => client.close());
    await assert.rejects(client.stream({ url: `${silent.url}/`, timeoutMs: 200 }), isCode('timeout'));

    const res = await client.stream({ url: `${endless.url}/`, timeoutMs: 1000 });
    let count = 0;
    for await (const _chunk of res.body) {
      if (++count === 3) res.abort();
    }
    assert.ok(count >= 3);
  });
});
