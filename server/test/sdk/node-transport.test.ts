// The Node SDK's transport edges against a fake fetch, a scripted loopback server and a fake
// WebSocket: pagination that must end (a repeated cursor) or dig (a memory tag's nested list),
// redirects that are not followed, a streamed body that survives a retry, and a room iterator
// without an overflowing timer.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { platformOperations } from '../../../sdk/node/src/generated/platform-v1-operations.ts';
import { HttpClient } from '../../../sdk/node/src/http-client.ts';
import {
  InvalidRequestError,
  RoomClient,
  type RoomFrame,
  Understudy,
  UnderstudyError,
  type WebSocketLike,
} from '../../../sdk/node/src/index.ts';
import type { OperationSpec } from '../../../sdk/node/src/operation.ts';

/** A fetch that answers each call with the next of `answers` (the last repeats) and records the calls. */
function scriptedFetch(answers: Array<() => Response>) {
  const calls: Array<{ url: string; init: RequestInit; body: Uint8Array | null }> = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const body = init.body ? new Uint8Array(await new Response(init.body).arrayBuffer()) : null;
    calls.push({ url: String(input), init, body });
    return answers[Math.min(calls.length, answers.length) - 1]!();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

describe('pagination', () => {
  test('a service that repeats a cursor ends the iteration with an error, not a loop', async () => {
    const page = { object: 'list', data: [{ id: 'g1' }], has_more: true, next_cursor: 'c1' };
    const { fetch, calls } = scriptedFetch([json(200, page)]);
    const client = new Understudy({ apiKey: 'svc_x', baseUrl: 'http://api.test', fetch });
    const seen: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const goal of client.goals.list()) seen.push(goal);
      })(),
      (error: unknown) =>
        error instanceof UnderstudyError && /repeated the page token c1/.test(error.message),
    );
    assert.equal(calls.length, 2);
    assert.equal(seen.length, 2);
  });

  test('a memory tag is walked through its nested data.memories, page after page', async () => {
    const tagPage = (ids: string[], cursor: string | null) =>
      json(200, {
        data: { user_memory_tag: 'candidate:1', memory_count: 3, memories: ids.map((id) => ({ id })) },
        has_more: cursor !== null,
        next_cursor: cursor,
      });
    const { fetch, calls } = scriptedFetch([tagPage(['m1', 'm2'], 'c1'), tagPage(['m3'], null)]);
    const client = new Understudy({ apiKey: 'svc_x', baseUrl: 'http://api.test', fetch });
    const ids = (await client.memories.getTag('candidate:1', { limit: 2 }).toArray()).map((m) => m.id);
    assert.deepEqual(ids, ['m1', 'm2', 'm3']);
    assert.equal(calls[1]?.url, 'http://api.test/v1/memories/tags/candidate%3A1?limit=2&cursor=c1');
  });

  test('memories are listed by cursor, like every other platform list', () => {
    assert.deepEqual(platformOperations.memories.list.pagination, { style: 'cursor', items: 'data' });
    assert.deepEqual(platformOperations.memories.getTag.pagination, {
      style: 'cursor',
      items: 'data.memories',
    });
  });
});

describe('redirects', () => {
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  const seen: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      if (request.url?.startsWith('/v1/personas')) {
        response.writeHead(307, { location: '/elsewhere' }).end();
      } else response.writeHead(200, { 'content-type': 'application/json' }).end('{"followed":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a 3xx is an InvalidRequestError, not followed and not retried', async () => {
    const client = new Understudy({ apiKey: 'svc_x', baseUrl });
    await assert.rejects(
      client.personas.create({ name: 'Jane', job_title: 'EM' } as never),
      (error: unknown) => error instanceof InvalidRequestError && error.status === 307,
    );
    assert.deepEqual(seen, ['POST /v1/personas']);
  });
});

test('a streamed raw body is sent whole again by a retry', async () => {
  const spec: OperationSpec = {
    operationId: 'upload',
    method: 'PUT',
    path: '/v1/uploads',
    pathParams: [],
    query: [],
    headers: [],
    body: 'raw',
    pagination: null,
  };
  const { fetch, calls } = scriptedFetch([
    json(503, { error: { type: 'api_error', code: 'unavailable' } }, { 'retry-after': '0' }),
    json(200, { ok: true }),
  ]);
  const http = new HttpClient({ baseUrl: 'http://api.test', fetch }, { honoursIdempotencyKeys: true });
  const stream = new Blob(['hello ', 'stream']).stream();
  assert.deepEqual(await http.request(spec, [], { body: stream, contentType: 'text/plain' }), { ok: true });
  assert.equal(calls.length, 2);
  for (const call of calls) assert.equal(new TextDecoder().decode(call.body!), 'hello stream');
});

test('iterating a room sets no timer beyond what setTimeout takes (no overflow, no 1 ms spin)', async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  let socket!: FakeSocket;
  class FakeSocket implements WebSocketLike {
    binaryType = 'blob';
    readyState = 0;
    #listeners = new Map<string, Array<(event: unknown) => void>>();
    constructor() {
      socket = this;
      setImmediate(() => {
        this.readyState = 1;
        this.emit('open', {});
      });
    }
    addEventListener(type: string, listener: (event: unknown) => void) {
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
    }
    emit(type: string, event: unknown) {
      for (const listener of this.#listeners.get(type) ?? []) listener(event);
    }
    send(data: string) {
      if (JSON.parse(data).type === 'join') setImmediate(() => this.frame({ type: 'joined' }));
    }
    frame(frame: RoomFrame) {
      this.emit('message', { data: JSON.stringify(frame) });
    }
    close() {}
  }
  try {
    const room = new RoomClient({
      baseUrl: 'http://room.test',
      meetingId: 'm',
      roomToken: 't',
      WebSocket: FakeSocket,
    });
    await room.join();
    setTimeout(() => socket.frame({ type: 'agent.message', text: 'hi' }), 20);
    for await (const frame of room) {
      assert.equal(frame.type, 'agent.message');
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      warnings.filter((warning) => warning.name === 'TimeoutOverflowWarning').map((w) => w.message),
      [],
    );
  } finally {
    process.off('warning', onWarning);
  }
});
