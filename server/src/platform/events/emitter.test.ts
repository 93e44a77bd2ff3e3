import assert from 'node:assert/strict';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FakeClock } from '../../core/clock.ts';
import { SecretBox } from '../../core/crypto/secret-box.ts';
import type { Database } from '../../core/db/database.ts';
import { loopbackClient } from '../../core/delivery/testing/fixtures.ts';
import { TestReceiver } from '../../core/delivery/testing/receiver.ts';
import { openTestDatabase, type TestDatabase } from '../../core/delivery/testing/test-database.ts';
import { DeliveryWorker } from '../../core/delivery/worker.ts';
import type { OutboundClient, OutboundRequest } from '../../core/outbound/client.ts';
import { createEventEmitter, type EventEmitter } from './emitter.ts';
import { createLegacyWebhookProfile, legacyWebhookDeprecationHeaders } from './legacy-webhook.ts';
import { createPlatformWebhookProfile } from './webhook-profile.ts';

/** Receiver-side checks written from the spec, independent of signature.ts. */
function timestampedSignatureValid(
  header: string,
  body: string,
  secret: string,
  nowSeconds: number,
): boolean {
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  if (!fields.t || Math.abs(nowSeconds - Number(fields.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${fields.t}.${body}`).digest();
  return timingSafeEqual(Buffer.from(fields.v1 ?? '', 'hex').subarray(0, 32), expected);
}
function bodySignatureValid(header: string, body: string, secret: string): boolean {
  return header === `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const SUNSET = new Date('2026-09-25T00:00:00.000Z');
const quietLogger = { info() {}, warn() {}, error() {} };

let testDb: TestDatabase;
let database: Database;
let receiver: TestReceiver;
let client: OutboundClient;
let secretBox: SecretBox;
let clock: FakeClock;
let emitter: EventEmitter;
let worker: DeliveryWorker;

before(async () => {
  testDb = await openTestDatabase();
  database = testDb.database;
  receiver = await TestReceiver.start();
  client = loopbackClient();
  secretBox = new SecretBox(randomBytes(32));
});

after(async () => {
  await client.close();
  await receiver.close();
  await testDb.close();
});

beforeEach(() => {
  clock = new FakeClock('2026-09-01T09:00:00.000Z');
  emitter = createEventEmitter({ clock, secretBox, legacyWebhookSunset: SUNSET });
  worker = new DeliveryWorker({
    database,
    clock,
    client,
    profiles: [
      createPlatformWebhookProfile({ secretBox }),
      createLegacyWebhookProfile({ secretBox, legacyWebhookSunset: SUNSET }),
    ],
    logger: quietLogger,
  });
  receiver.requests.length = 0;
  receiver.answer({ status: 200 });
});

async function account(): Promise<string> {
  const id = randomUUID();
  await database.db.insertInto('accounts').values({ id, name: 'Acme', created_at: clock.now() }).execute();
  return id;
}

async function endpoint(
  accountId: string,
  options: { events?: string[]; enabled?: boolean; path?: string } = {},
) {
  const id = randomUUID();
  const secret = `whsec_${randomBytes(12).toString('hex')}`;
  await database.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      account_id: accountId,
      url: `${receiver.url}${options.path ?? ''}`,
      description: '',
      signing_secret_sealed: secretBox.seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      subscribed_events: JSON.stringify(options.events ?? ['*']),
      enabled: options.enabled ?? true,
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  return { id, secret };
}

const meeting = () => ({ meeting_id: randomUUID(), scenario_id: randomUUID() });

async function drain() {
  while ((await worker.runOnce()) > 0) {}
}

describe('emit', () => {
  test('records the event and delivers the envelope to every subscribed endpoint', async () => {
    const accountId = await account();
    const all = await endpoint(accountId, { path: '?all' });
    const ended = await endpoint(accountId, { events: ['meeting.ended'], path: '?ended' });
    const created = await endpoint(accountId, {
      events: ['meeting.started', 'meeting.created'],
      path: '?created',
    });
    const data = meeting();
    const event = await database.db
      .transaction()
      .execute((tx) => emitter.emit(tx, { accountId, event: 'meeting.created', data }));
    assert.equal(event.deliveries, 2);

    const stored = await database.db
      .selectFrom('platform_events')
      .selectAll()
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.event, 'meeting.created');
    assert.deepEqual(stored.data, data);
    assert.equal(stored.created_at.toISOString(), clock.now().toISOString());

    await drain();
    assert.deepEqual(receiver.requests.map((request) => request.path).sort(), [
      '/hooks?all',
      '/hooks?created',
    ]);
    for (const request of receiver.requests) {
      assert.deepEqual(JSON.parse(request.rawBody), {
        id: event.id,
        event: 'meeting.created',
        created_at: clock.now().toISOString(),
        data,
      });
      assert.equal(request.headers['content-type'], 'application/json');
      assert.equal(request.headers['service-event'], 'meeting.created');
      const secret = request.path === '/hooks?all' ? all.secret : created.secret;
      const nowSeconds = Math.floor(clock.now().getTime() / 1000);
      assert.ok(
        timestampedSignatureValid(
          String(request.headers['service-signature']),
          request.rawBody,
          secret,
          nowSeconds,
        ),
      );
      assert.ok(
        !timestampedSignatureValid(
          String(request.headers['service-signature']),
          request.rawBody,
          ended.secret,
          nowSeconds,
        ),
      );
    }
  });

  test("fans out only to the emitting account's endpoints", async () => {
    const mine = await account();
    const theirs = await account();
    await endpoint(theirs);
    const event = await database.db.transaction().execute((tx) =>
      emitter.emit(tx, {
        accountId: mine,
        event: 'recording.ready',
        data: { ...meeting(), recording_id: 'r' },
      }),
    );
    assert.equal(event.deliveries, 0);
    await drain();
    assert.equal(receiver.requests.length, 0);
  });

  test('rolls back with the caller: no event, no delivery', async () => {
    const accountId = await account();
    await endpoint(accountId);
    let eventId = '';
    await assert.rejects(
      database.db.transaction().execute(async (tx) => {
        eventId = (await emitter.emit(tx, { accountId, event: 'meeting.created', data: meeting() })).id;
        throw new Error('the state change failed');
      }),
    );
    const events = await database.db
      .selectFrom('platform_events')
      .select('id')
      .where('id', '=', eventId)
      .execute();
    const deliveries = await database.db
      .selectFrom('deliveries')
      .select('id')
      .where('event_id', '=', eventId)
      .execute();
    assert.equal(events.length + deliveries.length, 0);
    await drain();
    assert.equal(receiver.requests.length, 0);
  });

  test('a disabled endpoint gets a held delivery', async () => {
    const accountId = await account();
    const paused = await endpoint(accountId, { enabled: false });
    const event = await database.db
      .transaction()
      .execute((tx) =>
        emitter.emit(tx, { accountId, event: 'analysis.failed', data: { ...meeting(), error: 'boom' } }),
      );
    const [delivery] = await database.db
      .selectFrom('deliveries')
      .selectAll()
      .where('event_id', '=', event.id)
      .execute();
    assert.equal(delivery.status, 'paused');
    assert.equal(delivery.endpoint_id, paused.id);
  });

  test('refuses data without meeting_id and scenario_id', async () => {
    const accountId = await account();
    await assert.rejects(
      database.db
        .transaction()
        .execute((tx) =>
          emitter.emit(tx, { accountId, event: 'meeting.created', data: { meeting_id: 'm' } as never }),
        ),
      /scenario_id/,
    );
  });
});

describe('legacy per-scenario webhook', () => {
  const payload = () => ({
    ...meeting(),
    person_name: 'Ada',
    goals: [{ name: 'Rapport', score: 8 }],
    completed_at: '2026-09-01T08:59:00.000Z',
  });

  test('before the sunset: meeting.completed with both signatures', async () => {
    const accountId = await account();
    const data = payload();
    const queued = await database.db.transaction().execute((tx) =>
      emitter.enqueueLegacyMeetingCompleted(tx, {
        accountId,
        url: receiver.url,
        secret: 'legacy-secret',
        payload: data,
      }),
    );
    assert.equal(queued, true);
    const [stored] = await database.db
      .selectFrom('deliveries')
      .selectAll()
      .where('tenant_id', '=', accountId)
      .execute();
    assert.ok(!JSON.stringify(stored).includes('legacy-secret'), 'the secret is sealed at rest');
    await drain();
    assert.equal(receiver.requests.length, 1);
    const [request] = receiver.requests;
    const body = JSON.parse(request.rawBody);
    assert.equal(body.event, 'meeting.completed');
    assert.deepEqual(body.data, data);
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    assert.ok(
      timestampedSignatureValid(
        String(request.headers['service-signature']),
        request.rawBody,
        'legacy-secret',
        nowSeconds,
      ),
    );
    assert.ok(
      bodySignatureValid(String(request.headers['x-service-signature']), request.rawBody, 'legacy-secret'),
    );
  });

  test('after the sunset: nothing is queued or sent', async () => {
    clock.set(SUNSET);
    const accountId = await account();
    const queued = await database.db.transaction().execute((tx) =>
      emitter.enqueueLegacyMeetingCompleted(tx, {
        accountId,
        url: receiver.url,
        secret: 's',
        payload: payload(),
      }),
    );
    assert.equal(queued, false);
    const rows = await database.db
      .selectFrom('deliveries')
      .select('id')
      .where('tenant_id', '=', accountId)
      .execute();
    assert.equal(rows.length, 0);
    await drain();
    assert.equal(receiver.requests.length, 0);
  });

  test('a retry that comes due after the sunset is cancelled, not sent', async () => {
    receiver.answer({ status: 503 });
    clock.set(new Date(SUNSET.getTime() - 10_000));
    const accountId = await account();
    await database.db.transaction().execute((tx) =>
      emitter.enqueueLegacyMeetingCompleted(tx, {
        accountId,
        url: receiver.url,
        secret: 's',
        payload: payload(),
      }),
    );
    await drain();
    assert.equal(receiver.requests.length, 1);
    clock.advance(30_000);
    await drain();
    assert.equal(receiver.requests.length, 1);
    const [row] = await database.db
      .selectFrom('deliveries')
      .selectAll()
      .where('tenant_id', '=', accountId)
      .execute();
    assert.equal(row.status, 'cancelled');
  });

  test('Deprecation and Sunset header values', () => {
    const headers = legacyWebhookDeprecationHeaders(SUNSET, new Date('2026-09-06T00:00:00Z'));
    assert.deepEqual(headers, { Deprecation: '@1788652800', Sunset: 'Fri, 25 Sep 2026 00:00:00 GMT' });
  });
});

describe('the platform delivery schedule', () => {
  // The engine tests run a copy of these values in a test profile; this ties the profiles the
  // platform really uses to the spec: 10 s per attempt, retries after 30 s, 5 min, 30 min, 2 h,
  // 12 h, then dead. The client is a recorder, so no time passes and nothing is sent.
  const SPEC_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000];

  test('each attempt is given 10 s; a failing delivery follows the schedule to dead', async () => {
    const sent: OutboundRequest[] = [];
    const recorder = {
      async request(request: OutboundRequest) {
        sent.push(request);
        return { status: 503, headers: {}, body: Buffer.alloc(0), truncated: false, durationMs: 1 };
      },
    };
    const platformProfile = createPlatformWebhookProfile({ secretBox });
    const legacyProfile = createLegacyWebhookProfile({ secretBox, legacyWebhookSunset: SUNSET });
    const recording = new DeliveryWorker({
      database,
      clock,
      client: recorder,
      profiles: [platformProfile, legacyProfile],
      logger: quietLogger,
    });
    const accountId = await account();
    await endpoint(accountId);
    await database.db.transaction().execute(async (tx) => {
      await emitter.emit(tx, { accountId, event: 'meeting.created', data: meeting() });
      await emitter.enqueueLegacyMeetingCompleted(tx, {
        accountId,
        url: receiver.url,
        secret: 's',
        payload: { ...meeting(), person_name: null, goals: [], completed_at: clock.now().toISOString() },
      });
    });
    assert.equal(await recording.runOnce(), 2);
    for (const delay of SPEC_DELAYS_MS) {
      clock.advance(delay - 1);
      assert.equal(await recording.runOnce(), 0, `nothing is due 1 ms before the ${delay} ms retry`);
      clock.advance(1);
      assert.equal(await recording.runOnce(), 2, `both retry after ${delay} ms`);
    }
    assert.equal(sent.length, 12);
    assert.ok(sent.every((request) => request.timeoutMs === 10_000));
    const rows = await database.db
      .selectFrom('deliveries')
      .select(['status', 'attempt_count'])
      .where('tenant_id', '=', accountId)
      .execute();
    assert.deepEqual(
      rows.map((row) => [row.status, row.attempt_count]),
      [
        ['dead', 6],
        ['dead', 6],
      ],
    );
    for (const profile of [platformProfile, legacyProfile]) {
      assert.deepEqual([...profile.retryDelaysMs], SPEC_DELAYS_MS, profile.name);
      assert.equal(profile.attemptTimeoutMs, 10_000, profile.name);
    }
  });
});
