import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { bearer, startPlatform, type TestPlatform, type Workspace } from '../../../test/harness.ts';
import { FakeClock } from '../../core/clock.ts';
import { loopbackClient } from '../../core/delivery/testing/fixtures.ts';
import { TestReceiver } from '../../core/delivery/testing/receiver.ts';
import { openTestDatabase, type TestDatabase } from '../../core/delivery/testing/test-database.ts';
import { DeliveryWorker } from '../../core/delivery/worker.ts';
import type { OutboundClient } from '../../core/outbound/client.ts';
import { createPlatformWebhookProfile } from '../events/webhook-profile.ts';

/** Written from the spec alone (not with signature.ts): what a customer's receiver would do. */
function signedBy(header: string, body: string, secret: string, nowSeconds: number): boolean {
  const parts = header.split(',').map((part) => part.split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  if (!t || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(([key, hex]) => key === 'v1' && timingSafeEqual(Buffer.from(hex, 'hex'), expected));
}

let t: TestPlatform;
let testDb: TestDatabase;
let receiver: TestReceiver;
let client: OutboundClient;
let worker: DeliveryWorker;
let owner: Workspace;
let ownerKey: string;
let stranger: Workspace;
let strangerKey: string;

before(async () => {
  // A database of its own: the worker below claims every due platform delivery it can see.
  testDb = await openTestDatabase();
  t = await startPlatform({ database: testDb.database, clock: new FakeClock('2026-11-01T12:00:00.000Z') });
  receiver = await TestReceiver.start();
  client = loopbackClient();
  worker = new DeliveryWorker({
    database: t.deps.database,
    clock: t.clock,
    client,
    profiles: [createPlatformWebhookProfile({ secretBox: t.deps.secretBox })],
    logger: { info() {}, warn() {}, error() {} },
    // One lane: arrivals then follow the claim order (oldest first), which the ordering test
    // asserts. With parallel lanes the order is only "give or take the concurrency" (queue.ts).
    concurrency: 1,
  });
  owner = await t.signup();
  ownerKey = (await t.createApiKey(owner)).secret;
  stranger = await t.signup();
  strangerKey = (await t.createApiKey(stranger)).secret;
});

after(async () => {
  await client.close();
  await receiver.close();
  await t.close();
  await testDb.close();
});

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, key = ownerKey) {
  return t.app.inject({ method, url: `/v1${url}`, headers: bearer(key), payload: payload as object });
}

async function createEndpoint(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/webhooks/endpoints', { url: receiver.url, ...body });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().data as { id: string; signing_secret: string; subscribed_events: string[] };
}

async function emit(accountId: string, event: 'meeting.created' | 'meeting.ended' = 'meeting.created') {
  const data =
    event === 'meeting.created'
      ? { meeting_id: crypto.randomUUID(), scenario_id: crypto.randomUUID() }
      : {
          meeting_id: crypto.randomUUID(),
          scenario_id: crypto.randomUUID(),
          ended_at: 'x',
          duration_seconds: 1,
        };
  return t.deps.db.transaction().execute((tx) => t.deps.events.emit(tx, { accountId, event, data } as never));
}

async function drain() {
  while ((await worker.runOnce()) > 0) {}
}

describe('POST /v1/webhooks/endpoints', () => {
  test('returns the whsec_ secret once, stores it sealed, and defaults to every event', async () => {
    const created = await createEndpoint({ description: 'ATS' });
    assert.match(created.signing_secret, /^whsec_[A-Za-z0-9_-]{20,}$/);
    assert.deepEqual(created.subscribed_events, ['*']);
    const stored = await t.deps.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(created.signing_secret), 'the secret never rests in clear');
    const read = await call('GET', `/webhooks/endpoints/${created.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().data.signing_secret, undefined);
    assert.equal(read.json().data.description, 'ATS');
  });

  test('accepts known event names, including meeting.started', async () => {
    const created = await createEndpoint({
      subscribed_events: ['meeting.started', 'meeting.ended', 'meeting.ended'],
    });
    assert.deepEqual(created.subscribed_events, ['meeting.started', 'meeting.ended']);
  });

  test('refuses an unknown event name with a 400 naming the parameter', async () => {
    const response = await call('POST', '/webhooks/endpoints', {
      url: receiver.url,
      subscribed_events: ['meeting.created', 'meeting.exploded'],
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error.param, 'subscribed_events[1]');
  });

  test('refuses a missing, malformed or private URL and unknown fields', async () => {
    const missing = await call('POST', '/webhooks/endpoints', {});
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.param, 'url');
    for (const url of ['not a url', 'ftp://example.com/x', 'http://10.0.0.5/hook', 'http://[::1]:9/x']) {
      const response = await call('POST', '/webhooks/endpoints', { url });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error.param, 'url', url);
    }
    const unknown = await call('POST', '/webhooks/endpoints', { url: receiver.url, secret: 'mine' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().error.param, 'secret');
  });
});

describe('reading and changing endpoints', () => {
  test('lists whole by default and pages with limit and cursor, newest first', async () => {
    const workspace = await t.signup();
    const key = (await t.createApiKey(workspace)).secret;
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      t.clock.advance(1);
      const response = await call('POST', '/webhooks/endpoints', { url: receiver.url }, key);
      ids.push(response.json().data.id);
    }
    const whole = await call('GET', '/webhooks/endpoints', undefined, key);
    assert.deepEqual(
      whole.json().data.map((endpoint: { id: string }) => endpoint.id),
      [...ids].reverse(),
    );
    assert.equal(whole.json().has_more, undefined);
    const first = (await call('GET', '/webhooks/endpoints?limit=2', undefined, key)).json();
    assert.equal(first.object, 'list');
    assert.equal(first.has_more, true);
    const second = (
      await call('GET', `/webhooks/endpoints?limit=2&cursor=${first.next_cursor}`, undefined, key)
    ).json();
    assert.deepEqual(
      [...first.data, ...second.data].map((endpoint: { id: string }) => endpoint.id),
      [...ids].reverse(),
    );
    assert.equal(second.has_more, false);
    const bad = await call('GET', '/webhooks/endpoints?limit=101', undefined, key);
    assert.equal(bad.json().error.code, 'invalid_pagination');
  });

  test('PATCH changes fields and validates them', async () => {
    const created = await createEndpoint();
    const patched = await call('PATCH', `/webhooks/endpoints/${created.id}`, {
      description: 'new',
      subscribed_events: ['meeting.ended'],
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().data.description, 'new');
    assert.deepEqual(patched.json().data.subscribed_events, ['meeting.ended']);
    const bad = await call('PATCH', `/webhooks/endpoints/${created.id}`, { subscribed_events: ['nope'] });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.param, 'subscribed_events[0]');
  });

  test('DELETE answers 204 and cancels deliveries not yet made', async () => {
    const created = await createEndpoint();
    await emit(owner.accountId);
    const response = await call('DELETE', `/webhooks/endpoints/${created.id}`);
    assert.equal(response.statusCode, 204);
    assert.equal((await call('GET', `/webhooks/endpoints/${created.id}`)).statusCode, 404);
    const left = await t.deps.db
      .selectFrom('deliveries')
      .select('status')
      .where('endpoint_id', '=', created.id)
      .execute();
    assert.deepEqual(
      left.map((row) => row.status),
      ['cancelled'],
    );
    await drain();
  });
});

describe('security', () => {
  test('another workspace gets 404 on every endpoint route', async () => {
    const created = await createEndpoint();
    const paths: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['GET', `/webhooks/endpoints/${created.id}`],
      ['PATCH', `/webhooks/endpoints/${created.id}`, { description: 'mine now' }],
      ['DELETE', `/webhooks/endpoints/${created.id}`],
      ['POST', `/webhooks/endpoints/${created.id}/rotate-secret`],
      ['GET', `/webhooks/endpoints/${created.id}/deliveries`],
    ];
    for (const [method, path, body] of paths) {
      const response = await call(method, path, body, strangerKey);
      assert.equal(response.statusCode, 404, `${method} ${path}`);
    }
    const list = await call('GET', '/webhooks/endpoints', undefined, strangerKey);
    assert.ok(!list.json().data.some((endpoint: { id: string }) => endpoint.id === created.id));
  });

  test("another workspace cannot redeliver this workspace's delivery", async () => {
    const created = await createEndpoint();
    await emit(owner.accountId);
    const [delivery] = await t.deps.db
      .selectFrom('deliveries')
      .select('id')
      .where('endpoint_id', '=', created.id)
      .execute();
    const response = await call(
      'POST',
      `/webhooks/deliveries/${delivery.id}/redeliver`,
      undefined,
      strangerKey,
    );
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().error.param, 'deliveryId');
    await call('DELETE', `/webhooks/endpoints/${created.id}`);
  });

  test('a key without the webhooks scopes gets 403; unknown ids 404', async () => {
    const limited = (await t.createApiKey(owner, { name: 'memories only', scopes: ['memories:read'] }))
      .secret;
    assert.equal((await call('GET', '/webhooks/endpoints', undefined, limited)).statusCode, 403);
    const write = await call('POST', '/webhooks/endpoints', { url: receiver.url }, limited);
    assert.equal(write.statusCode, 403);
    assert.equal((await call('GET', '/webhooks/endpoints/not-a-uuid')).statusCode, 404);
    assert.equal((await call('GET', `/webhooks/endpoints/${crypto.randomUUID()}`)).statusCode, 404);
    assert.equal(
      (await call('POST', `/webhooks/deliveries/${crypto.randomUUID()}/redeliver`)).statusCode,
      404,
    );
  });

  test('no credentials: 401', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/webhooks/endpoints' });
    assert.equal(response.statusCode, 401);
  });
});

describe('delivery through the API', () => {
  test('the attempt log pages, and redeliver sends the same event id again', async () => {
    const workspace = await t.signup();
    const key = (await t.createApiKey(workspace)).secret;
    const created = (await call('POST', '/webhooks/endpoints', { url: receiver.url }, key)).json().data;
    receiver.requests.length = 0;
    receiver.answer({ status: 500, body: 'try later' });
    const event = await emit(workspace.accountId);
    await drain();
    receiver.answer({ status: 200, body: 'thanks' });
    t.clock.advance(30_000);
    await drain();

    const log = (
      await call('GET', `/webhooks/endpoints/${created.id}/deliveries?limit=1`, undefined, key)
    ).json();
    assert.equal(log.object, 'list');
    assert.equal(log.has_more, true);
    assert.equal(log.data[0].attempt_number, 2);
    assert.equal(log.data[0].status_code, 200);
    assert.equal(log.data[0].response_excerpt, 'thanks');
    assert.equal(log.data[0].event_id, event.id);
    assert.equal(log.data[0].event, 'meeting.created');
    assert.equal(log.data[0].delivery_status, 'succeeded');
    const older = (
      await call(
        'GET',
        `/webhooks/endpoints/${created.id}/deliveries?cursor=${log.next_cursor}`,
        undefined,
        key,
      )
    ).json();
    assert.equal(older.data[0].attempt_number, 1);
    assert.equal(older.data[0].status_code, 500);
    assert.equal(older.data[0].outcome, 'retry_scheduled');
    assert.equal(
      older.data[0].next_retry_at,
      new Date(t.clock.now().getTime() - 30_000 + 30_000).toISOString(),
    );
    assert.ok(older.data[0].duration_ms >= 0);
    const foreignCursor = await call(
      'GET',
      `/webhooks/endpoints/${created.id}/deliveries?cursor=${log.next_cursor}`,
    );
    assert.equal(foreignCursor.statusCode, 404, 'the owner of the cursor is another workspace');

    t.clock.advance(60_000);
    const redelivered = await call(
      'POST',
      `/webhooks/deliveries/${log.data[0].delivery_id}/redeliver`,
      undefined,
      key,
    );
    assert.equal(redelivered.statusCode, 202);
    assert.equal(redelivered.json().data.event_id, event.id);
    assert.equal(redelivered.json().data.status, 'pending');
    await drain();
    const latest = (await call('GET', `/webhooks/endpoints/${created.id}/deliveries`, undefined, key)).json();
    assert.equal(latest.data[0].attempt_number, 3);
    assert.equal(latest.data[0].trigger, 'manual');
    const mine = receiver.requests.filter((request) => JSON.parse(request.rawBody).id === event.id);
    assert.equal(mine.length, 3, 'two automatic attempts and one manual, all with the same event id');
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    const last = mine[2];
    assert.ok(
      signedBy(String(last.headers['service-signature']), last.rawBody, created.signing_secret, nowSeconds),
    );
  });

  test('a paused endpoint holds events and sends them in order when re-enabled', async () => {
    const workspace = await t.signup();
    const key = (await t.createApiKey(workspace)).secret;
    const created = (await call('POST', '/webhooks/endpoints', { url: receiver.url }, key)).json().data;
    const paused = await call('PATCH', `/webhooks/endpoints/${created.id}`, { enabled: false }, key);
    assert.equal(paused.json().data.enabled, false);
    receiver.requests.length = 0;
    receiver.answer({ status: 200 });
    const events = [];
    for (let index = 0; index < 3; index += 1) {
      t.clock.advance(1);
      events.push(await emit(workspace.accountId));
    }
    await drain();
    assert.equal(receiver.requests.length, 0, 'nothing is sent while paused');
    await call('PATCH', `/webhooks/endpoints/${created.id}`, { enabled: true }, key);
    await drain();
    assert.deepEqual(
      receiver.requests.map((request) => JSON.parse(request.rawBody).id),
      events.map((event) => event.id),
    );
  });

  test('rotation: two signatures for 24 hours, then only the new secret', async () => {
    const workspace = await t.signup();
    const key = (await t.createApiKey(workspace)).secret;
    const created = (await call('POST', '/webhooks/endpoints', { url: receiver.url }, key)).json().data;
    const rotated = await call('POST', `/webhooks/endpoints/${created.id}/rotate-secret`, undefined, key);
    assert.equal(rotated.statusCode, 200);
    const { signing_secret: newSecret, previous_secret_expires_at } = rotated.json().data;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, created.signing_secret);
    assert.equal(previous_secret_expires_at, new Date(t.clock.now().getTime() + 86_400_000).toISOString());

    receiver.requests.length = 0;
    await emit(workspace.accountId);
    await drain();
    const during = receiver.requests[0];
    const header = String(during.headers['service-signature']);
    const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
    assert.equal(header.split(',').filter((part) => part.startsWith('v1=')).length, 2);
    assert.ok(signedBy(header, during.rawBody, newSecret, nowSeconds()));
    assert.ok(signedBy(header, during.rawBody, created.signing_secret, nowSeconds()));

    t.clock.advance(86_400_000);
    await emit(workspace.accountId);
    await drain();
    const afterOverlap = receiver.requests[1];
    const laterHeader = String(afterOverlap.headers['service-signature']);
    assert.equal(laterHeader.split(',').filter((part) => part.startsWith('v1=')).length, 1);
    assert.ok(signedBy(laterHeader, afterOverlap.rawBody, newSecret, nowSeconds()));
    assert.ok(!signedBy(laterHeader, afterOverlap.rawBody, created.signing_secret, nowSeconds()));
    const read = await call('GET', `/webhooks/endpoints/${created.id}`, undefined, key);
    assert.equal(read.json().data.previous_secret_expires_at, null);
  });
});

describe('production', () => {
  test('an http URL is refused when APP_ENV=production; https is accepted', async () => {
    const production = await startPlatform({
      env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com', SIGNUP_ENABLED: 'true' },
    });
    try {
      const workspace = await production.signup();
      const key = (await production.createApiKey(workspace)).secret;
      const post = (url: string) =>
        production.app.inject({
          method: 'POST',
          url: '/v1/webhooks/endpoints',
          headers: bearer(key),
          payload: { url },
        });
      const plain = await post('http://hooks.example.com/in');
      assert.equal(plain.statusCode, 400);
      assert.equal(plain.json().error.param, 'url');
      assert.match(plain.json().error.message, /https/);
      assert.equal((await post('https://hooks.example.com/in')).statusCode, 201);
    } finally {
      await production.close();
    }
  });
});
