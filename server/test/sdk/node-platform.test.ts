// The Node SDK against a real platform on loopback: typed errors, walking cursor lists, retries
// after a 429 that honour Retry-After, and an idempotent replay after the connection dropped
// with the server's answer in flight (one resource, not two).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  Understudy,
} from '../../../sdk/node/src/index.ts';
import { parseRetryAfter, retryDelayMs } from '../../../sdk/node/src/retry.ts';
import { type ApiClient, type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { FlakyProxy } from './helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;
let proxy: FlakyProxy;

before(async () => {
  t = await startListeningPlatform();
  api = await t.workspace();
  proxy = await FlakyProxy.start(t.baseUrl);
});
after(async () => {
  await proxy.close();
  await t.close();
});

/** A client whose fetch counts the requests it makes. */
function countingClient(baseUrl = t.baseUrl, extra: { maxRetries?: number } = {}) {
  const calls: string[] = [];
  const client = new Understudy({
    apiKey: api.key,
    baseUrl,
    ...extra,
    fetch: (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input).replace(baseUrl, '')}`);
      return fetch(input, init);
    },
  });
  return { client, calls };
}

describe('typed errors', () => {
  test('an unknown scenario is an InvalidRequestError 404 with code, param, request id and doc URL', async () => {
    const { client } = countingClient();
    const error = await client.scenarios.get('3f1f8f5e-0000-4000-8000-000000000000').then(
      () => assert.fail('expected a 404'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof InvalidRequestError);
    assert.ok(error instanceof NotFoundError, 'a 404 is a NotFoundError, as in the Python SDK');
    assert.equal(error.status, 404);
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.code, 'resource_not_found');
    assert.equal(error.param, 'id');
    assert.match(error.requestId ?? '', /\S/);
    assert.equal(error.requestId, (error.body as { request_id: string }).request_id);
    assert.match(error.docUrl ?? '', /#resource_not_found$/);
  });

  test('a wrong key is an AuthenticationError, not retried', async () => {
    const calls: string[] = [];
    const client = new Understudy({
      apiKey: 'svc_wrong',
      baseUrl: t.baseUrl,
      fetch: (input, init) => {
        calls.push(String(input));
        return fetch(input, init);
      },
    });
    await assert.rejects(client.personas.list(), (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.status, 401);
      return true;
    });
    assert.equal(calls.length, 1);
  });

  test('a validation failure names the parameter', async () => {
    const { client } = countingClient();
    await assert.rejects(
      client.personas.create({ name: 'No title' } as never),
      (error: unknown) => error instanceof InvalidRequestError && error.param === 'job_title',
    );
  });
});

describe('pagination', () => {
  test('for await walks every page of a cursor list, sending limit and the next cursor', async () => {
    const { client, calls } = countingClient();
    const created: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const persona = await client.personas.create({ name: `Paged ${i}`, job_title: 'Tester' });
      created.push(persona.id);
    }
    const first = await client.personas.list({ limit: 2 });
    if (Array.isArray(first)) assert.fail('with a limit the list is a page');
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    assert.equal(typeof first.next_cursor, 'string');

    calls.length = 0;
    const seen: string[] = [];
    for await (const persona of client.personas.list({ limit: 2 })) seen.push(persona.id);
    for (const id of created) assert.ok(seen.includes(id), `persona ${id} was walked`);
    assert.equal(new Set(seen).size, seen.length, 'no item twice');
    assert.ok(calls.length >= 3, `three pages at least: ${calls.join(', ')}`);
    assert.ok(calls.slice(1).every((call) => call.includes('cursor=')));

    const all = await client.personas.list().toArray();
    assert.ok(
      calls.some((call) => call.includes('limit=100')),
      'iteration without a limit sends one',
    );
    assert.deepEqual(new Set(all.map((p) => p.id)), new Set(seen));
  });

  test('a memory tag of several pages is walked through its data.memories, as are the memories', async () => {
    const { client, calls } = countingClient();
    const tag = 'candidate:sdk-pages@example.com';
    await client.memories.create({
      user_memory_tag: tag,
      memories: ['One.', 'Two.', 'Three.', 'Four.', 'Five.'],
    });
    calls.length = 0;
    const contents = (await client.memories.getTag(tag, { limit: 2 }).toArray()).map((m) => m.content);
    assert.deepEqual([...contents].sort(), ['Five.', 'Four.', 'One.', 'Three.', 'Two.']);
    assert.equal(calls.length, 3, `three pages of two: ${calls.join(', ')}`);
    const listed = await client.memories.list({ user_memory_tag: tag, limit: 2 }).toArray();
    assert.deepEqual(listed.map((m) => m.content).sort(), [...contents].sort());
  });
});

describe('retries', () => {
  test('Retry-After is read as seconds or as an HTTP date, and capped', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    const now = Date.parse('2026-11-01T12:00:00Z');
    assert.equal(parseRetryAfter('Sun, 01 Nov 2026 12:00:03 GMT', now), 3000);
    assert.equal(parseRetryAfter('soon'), null);
    assert.equal(retryDelayMs(0, '1'), 1000);
    assert.equal(retryDelayMs(0, '3600'), 60_000);
    const backoff = retryDelayMs(2, null);
    assert.ok(backoff >= 1000 && backoff <= 2000, `jittered backoff within [1 s, 2 s]: ${backoff}`);
  });

  test('a 429 with Retry-After is retried with the same idempotency key, and the write runs once', async () => {
    const { client } = countingClient(proxy.baseUrl);
    proxy.seen.length = 0;
    proxy.plan = [{ kind: 'rate-limit', retryAfter: '1' }];
    const persona = await client.personas.create({ name: 'After a 429', job_title: 'Patient' });
    assert.equal(persona.name, 'After a 429');
    assert.deepEqual(
      proxy.seen.map((r) => r.step),
      ['rate-limit', 'forward'],
    );
    const keys = proxy.seen.map((r) => r.headers['idempotency-key']);
    assert.match(String(keys[0]), /\S/);
    assert.equal(keys[0], keys[1]);
  });

  test('with retries exhausted the 429 surfaces as a RateLimitError carrying retryAfter', async () => {
    const { client } = countingClient(proxy.baseUrl, { maxRetries: 0 });
    proxy.plan = [{ kind: 'rate-limit', retryAfter: '7' }];
    await assert.rejects(client.personas.list(), (error: unknown) => {
      assert.ok(error instanceof RateLimitError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'rate_limited');
      assert.equal(error.retryAfter, 7);
      return true;
    });
  });

  test('a dropped answer is retried with the same key: the service replays, one resource exists', async () => {
    const { client } = countingClient(proxy.baseUrl);
    proxy.seen.length = 0;
    proxy.plan = [{ kind: 'drop-answer' }];
    const name = `Exactly once ${Date.now()}`;
    const persona = await client.personas.create({ name, job_title: 'Unique' });
    assert.equal(persona.name, name);
    assert.deepEqual(
      proxy.seen.map((r) => r.step),
      ['drop-answer', 'forward'],
    );
    assert.equal(proxy.seen[0]!.headers['idempotency-key'], proxy.seen[1]!.headers['idempotency-key']);
    const named = (await client.personas.list().toArray()).filter((p) => p.name === name);
    assert.equal(named.length, 1, 'the retry did not create a second persona');
    assert.equal(named[0]!.id, persona.id);
  });

  test('a caller-supplied idempotency key is used as given', async () => {
    const { client } = countingClient(proxy.baseUrl);
    proxy.seen.length = 0;
    const key = `caller-${Date.now()}`;
    const first = await client.personas.create({ name: 'Keyed', job_title: 'K' }, { idempotencyKey: key });
    const again = await client.personas.create({ name: 'Keyed', job_title: 'K' }, { idempotencyKey: key });
    assert.equal(again.id, first.id, 'the same key replays the first answer');
    assert.equal(proxy.seen[0]!.headers['idempotency-key'], key);
  });

  test('without retries a dropped answer is an APIConnectionError', async () => {
    const { client } = countingClient(proxy.baseUrl, { maxRetries: 0 });
    proxy.plan = [{ kind: 'drop-answer' }];
    await assert.rejects(client.personas.list(), APIConnectionError);
  });

  test('a 503 is retried after a backoff, then succeeds; exhausted, it is an APIError', async () => {
    const { client } = countingClient(proxy.baseUrl);
    proxy.seen.length = 0;
    proxy.plan = [{ kind: 'unavailable' }];
    await client.personas.list();
    assert.deepEqual(
      proxy.seen.map((r) => r.step),
      ['unavailable', 'forward'],
    );
    const impatient = countingClient(proxy.baseUrl, { maxRetries: 0 }).client;
    proxy.plan = [{ kind: 'unavailable' }];
    await assert.rejects(impatient.personas.list(), (error: unknown) => {
      assert.ok(error instanceof APIError);
      assert.equal(error.status, 503);
      assert.equal(error.requestId, 'req_proxy');
      return true;
    });
  });

  test('an attempt that outlasts the timeout is an APITimeoutError', async () => {
    const client = new Understudy({ apiKey: api.key, baseUrl: proxy.baseUrl, timeout: 200, maxRetries: 0 });
    proxy.plan = [{ kind: 'hang' }];
    await assert.rejects(client.personas.list(), APITimeoutError);
  });

  test('an aborted signal stops the call', async () => {
    const { client, calls } = countingClient();
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(client.personas.list({}, { signal: controller.signal }), /stop/);
    assert.equal(calls.length, 0);
  });
});
