import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  bearer,
  startListeningPlatform,
  startPlatform,
  type TestPlatform,
  type Workspace,
} from '../harness.ts';

describe('idempotent writes', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform();
  });
  after(() => t.close());

  const create = (ws: Workspace, key: string | undefined, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: { ...bearer(ws.token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload,
    });
  const count = async (ws: Workspace) =>
    (await t.app.inject({ method: 'GET', url: '/v1/api-secrets', headers: bearer(ws.token) })).json().data
      .length;

  test('a repeat with the same key and body replays the stored response without running again', async () => {
    const ws = await t.signup();
    const first = await create(ws, 'create-1', { name: 'k' });
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotency-replayed'], undefined);
    const again = await create(ws, 'create-1', { name: 'k' });
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotency-replayed'], 'true');
    assert.equal(again.body, first.body, 'the exact stored response');
    const stored = await t.deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key', '=', 'create-1')
      .execute();
    assert.ok(
      !JSON.stringify(stored).includes(first.json().data.secret),
      'the one-time secret is sealed at rest',
    );
    assert.match(String(again.headers['content-type']), /application\/json/);
    assert.equal(await count(ws), 1);
  });

  test('the same key with a different body is 422 idempotency_key_reuse', async () => {
    const ws = await t.signup();
    await create(ws, 'reuse', { name: 'k' });
    const other = await create(ws, 'reuse', { name: 'different' });
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().error.code, 'idempotency_key_reuse');
    assert.equal(await count(ws), 1);
  });

  test('keys are scoped to the credential: another workspace may use the same key', async () => {
    const a = await t.signup();
    const b = await t.signup();
    assert.equal((await create(a, 'shared', { name: 'k' })).statusCode, 201);
    const onB = await create(b, 'shared', { name: 'k' });
    assert.equal(onB.statusCode, 201);
    assert.equal(onB.headers['idempotency-replayed'], undefined);
  });

  test('a failed first request releases the key', async () => {
    const ws = await t.signup();
    const failed = await create(ws, 'retry-me', { name: '' });
    assert.equal(failed.statusCode, 400);
    const fixedBody = await create(ws, 'retry-me', { name: 'fixed' });
    assert.equal(fixedBody.statusCode, 201);
    assert.equal(fixedBody.headers['idempotency-replayed'], undefined);
  });

  test('of two identical requests racing with one key, exactly one executes', async () => {
    const ws = await t.signup();
    const responses = await Promise.all([1, 2, 3].map(() => create(ws, 'race', { name: 'raced' })));
    const statuses = responses.map((r) => r.statusCode).sort();
    assert.equal(await count(ws), 1, 'one key created');
    const executed = responses.filter((r) => r.statusCode === 201 && !r.headers['idempotency-replayed']);
    assert.equal(executed.length, 1, `statuses: ${statuses}`);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      assert.equal(response.json().error.code, 'idempotency_key_in_use');
      assert.equal(response.headers['retry-after'], '1');
    }
  });

  test('a request still running answers 409 with Retry-After; an abandoned one may be taken over', async () => {
    const ws = await t.signup();
    const subject = `user:${ws.membershipId}`;
    const now = t.clock.now();
    const body = { name: 'slow' };
    // Make the in-flight record exactly as the first request would have: claim through a real request, then reset it.
    await create(ws, 'in-flight', body);
    await t.deps.db
      .updateTable('idempotency_keys')
      .set({ state: 'running', locked_at: now, response_body: null, response_status: null })
      .where('scope', '=', subject)
      .where('key', '=', 'in-flight')
      .execute();
    const busy = await create(ws, 'in-flight', body);
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.headers['retry-after'], '1');
    t.clock.advance(61_000);
    const takenOver = await create(ws, 'in-flight', body);
    assert.equal(takenOver.statusCode, 201);
  });

  test('a repeat sent while the first is still running answers 409 at once, over real HTTP', async () => {
    // The first request is held open by the receiver of the custom function it test-calls.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const receiver = createServer((_request, response) => {
      arrived();
      held.then(() => response.end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const listening = await startListeningPlatform();
    try {
      const ws = await listening.signup();
      const fn = await listening.app.inject({
        method: 'POST',
        url: '/v1/custom-functions',
        headers: bearer(ws.token),
        payload: { name: 'slow_tool', webhook_url: `http://127.0.0.1:${port}/tool`, timeout_ms: 30000 },
      });
      assert.equal(fn.statusCode, 201, fn.body);
      const send = () =>
        fetch(`${listening.baseUrl}/v1/custom-functions/${fn.json().data.id}/test`, {
          method: 'POST',
          headers: {
            ...bearer(ws.token),
            'content-type': 'application/json',
            'idempotency-key': 'slow-once',
          },
          body: JSON.stringify({ arguments: {} }),
        });
      const first = send();
      await reached;
      const repeat = await send();
      assert.equal(repeat.status, 409, await repeat.clone().text());
      assert.equal((await repeat.json()).error.code, 'idempotency_key_in_use');
      assert.equal(repeat.headers.get('retry-after'), '1');
      release();
      assert.equal((await first).status, 200);
      const replayed = await send();
      assert.equal(replayed.status, 200);
      assert.equal(replayed.headers.get('idempotency-replayed'), 'true');
    } finally {
      release();
      receiver.close();
      await listening.close();
    }
  });

  test('records expire after 24 hours; GET ignores the header; keys over 255 characters are refused', async () => {
    let ws = await t.signup();
    await create(ws, 'daily', { name: 'k' });
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    ws = { ...ws, token: await t.deps.tokens.sign(ws) };
    const fresh = await create(ws, 'daily', { name: 'k' });
    assert.equal(fresh.statusCode, 201);
    assert.equal(fresh.headers['idempotency-replayed'], undefined);
    const get = await t.app.inject({
      method: 'GET',
      url: '/v1/api-secrets',
      headers: { ...bearer(ws.token), 'idempotency-key': 'x' },
    });
    assert.equal(get.statusCode, 200);
    const tooLong = await create(ws, 'k'.repeat(256), { name: 'k' });
    assert.equal(tooLong.statusCode, 400);
    assert.equal(tooLong.json().error.param, 'Idempotency-Key');
    assert.equal((await create(ws, 'k'.repeat(255), { name: 'k' })).statusCode, 201);
  });

  test('PUT, PATCH and DELETE are covered too', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const del = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/v1/api-secrets/${key.id}`,
        headers: { ...bearer(ws.token), 'idempotency-key': 'delete-once' },
      });
    assert.equal((await del()).statusCode, 200);
    const replay = await del();
    assert.equal(replay.statusCode, 200, 'replayed rather than 404');
    assert.equal(replay.headers['idempotency-replayed'], 'true');

    // PATCH and PUT: a replay answers what the first request answered and changes nothing, even
    // after another write (without the key) changed the resource in between.
    const write = (method: 'PATCH' | 'PUT', url: string, payload: Record<string, unknown>, key?: string) =>
      t.app.inject({
        method,
        url,
        headers: { ...bearer(ws.token), ...(key ? { 'idempotency-key': key } : {}) },
        payload,
      });
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/endpoints',
      headers: bearer(ws.token),
      payload: { url: 'https://hooks.example.com/in' },
    });
    const endpointUrl = `/v1/webhooks/endpoints/${endpoint.json().data.id}`;
    const [scenario] = (
      await t.app.inject({ method: 'GET', url: '/v1/scenarios', headers: bearer(ws.token) })
    ).json().data;
    const optionsUrl = `/v1/scenarios/${scenario.id}/session-options`;
    for (const [method, url, first, second, read] of [
      [
        'PATCH',
        endpointUrl,
        { description: 'first' },
        { description: 'second' },
        async () =>
          (await t.app.inject({ method: 'GET', url: endpointUrl, headers: bearer(ws.token) })).json().data
            .description,
      ],
      [
        'PUT',
        optionsUrl,
        { recording_enabled: false },
        { recording_enabled: true },
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/v1/scenarios/${scenario.id}`,
              headers: bearer(ws.token),
            })
          ).json().session_options.recording_enabled,
      ],
    ] as const) {
      const original = await write(method, url, first, `${method}-once`);
      assert.equal(original.statusCode, 200, original.body);
      const before = await read();
      assert.equal((await write(method, url, second)).statusCode, 200);
      const changed = await read();
      assert.notEqual(changed, before);
      const replayed = await write(method, url, first, `${method}-once`);
      assert.equal(replayed.headers['idempotency-replayed'], 'true', method);
      assert.equal(replayed.body, original.body, method);
      assert.equal(await read(), changed, `${method} did not run again`);
      assert.equal((await write(method, url, second, `${method}-once`)).statusCode, 422, method);
    }
  });
});
