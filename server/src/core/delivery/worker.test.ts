import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FakeClock } from '../clock.ts';
import { type Database, openPostgres } from '../db/database.ts';
import { OutboundClient } from '../outbound/client.ts';
import { freePort } from '../testing/free-port.ts';
import { DeliveryQueue } from './queue.ts';
import { claimDueDeliveries, completeAttempt } from './repository.ts';
import {
  attemptsOf,
  deliveryRow,
  enqueueEvents,
  loopbackClient,
  TEST_SCHEDULE_MS,
  testProfile,
} from './testing/fixtures.ts';
import { TestReceiver } from './testing/receiver.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from './worker.ts';

const SECRET = 'whsec_engine_test_secret';
const quietLogger = { info() {}, warn() {}, error() {} };

let testDb: TestDatabase;
let database: Database;
let receiver: TestReceiver;
let client: OutboundClient;
let clock: FakeClock;
let queue: DeliveryQueue;
let setup: ReturnType<typeof testProfile>;

function worker(options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  return new DeliveryWorker({
    database,
    clock,
    client,
    profiles: [setup.profile],
    logger: quietLogger,
    ...options,
  });
}

before(async () => {
  testDb = await openTestDatabase();
  database = testDb.database;
  receiver = await TestReceiver.start();
  client = loopbackClient();
});

after(async () => {
  await client.close();
  await receiver.close();
  await testDb.close();
});

beforeEach(async () => {
  await database.db.deleteFrom('delivery_attempts').execute();
  await database.db.deleteFrom('deliveries').execute();
  receiver.requests.length = 0;
  receiver.answer({ status: 200, body: 'ok' });
  clock = new FakeClock('2026-11-01T12:00:00.000Z');
  queue = new DeliveryQueue(clock);
  setup = testProfile();
  setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: true });
});

describe('delivery state table', () => {
  test('a 2xx answer ends the delivery as succeeded and logs the attempt', async () => {
    receiver.answer({ status: 204 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    assert.equal(await worker().runOnce(), 1);
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'succeeded');
    assert.equal(row.attempt_count, 1);
    assert.equal(row.next_attempt_at, null);
    const [attempt] = await attemptsOf(database.db, id);
    assert.equal(attempt.attempt_number, 1);
    assert.equal(attempt.status_code, 204);
    assert.equal(attempt.outcome, 'succeeded');
    assert.equal(attempt.next_retry_at, null);
    assert.ok(attempt.duration_ms >= 0);
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0].headers['x-delivery-id'], id);
  });

  for (const status of [400, 401, 403, 404, 410, 422]) {
    test(`a ${status} answer fails permanently, with no retry`, async () => {
      receiver.answer({ status, body: 'nope' });
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await worker().runOnce();
      const row = await deliveryRow(database.db, id);
      assert.equal(row.status, 'failed');
      assert.equal(row.next_attempt_at, null);
      assert.equal(row.last_status_code, status);
      const [attempt] = await attemptsOf(database.db, id);
      assert.equal(attempt.outcome, 'failed');
      assert.equal(attempt.response_excerpt, 'nope');
      clock.advance(TEST_SCHEDULE_MS[4] * 2);
      assert.equal(await worker().runOnce(), 0, 'never attempted again');
    });
  }

  for (const status of [408, 429, 500, 502, 503]) {
    test(`a ${status} answer is retried after 30 s`, async () => {
      receiver.answer({ status });
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await worker().runOnce();
      const row = await deliveryRow(database.db, id);
      assert.equal(row.status, 'pending');
      assert.equal(row.attempt_count, 1);
      assert.equal(row.next_attempt_at?.getTime(), clock.now().getTime() + 30_000);
      const [attempt] = await attemptsOf(database.db, id);
      assert.equal(attempt.outcome, 'retry_scheduled');
      assert.equal(attempt.next_retry_at?.getTime(), clock.now().getTime() + 30_000);
    });
  }

  test('retries follow 30 s, 5 min, 30 min, 2 h, 12 h and then the delivery is dead', async () => {
    receiver.answer({ status: 500 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const run = worker();
    assert.equal(await run.runOnce(), 1);
    for (const [index, delay] of TEST_SCHEDULE_MS.entries()) {
      clock.advance(delay - 1);
      assert.equal(await run.runOnce(), 0, `retry ${index + 1} is not due 1 ms early`);
      clock.advance(1);
      assert.equal(await run.runOnce(), 1, `retry ${index + 1} is due after ${delay} ms`);
    }
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'dead');
    assert.equal(row.attempt_count, 6);
    const attempts = await attemptsOf(database.db, id);
    assert.deepEqual(
      attempts.map((attempt) => [attempt.attempt_number, attempt.outcome]),
      [
        [1, 'retry_scheduled'],
        [2, 'retry_scheduled'],
        [3, 'retry_scheduled'],
        [4, 'retry_scheduled'],
        [5, 'retry_scheduled'],
        [6, 'dead'],
      ],
    );
    clock.advance(TEST_SCHEDULE_MS[4] * 2);
    assert.equal(await run.runOnce(), 0);
    assert.equal(receiver.requests.length, 6);
    assert.equal(
      new Set(receiver.requests.map((request) => request.rawBody)).size,
      1,
      'every attempt sends the same bytes',
    );
  });

  test('a transient failure followed by a 2xx succeeds on the retry', async () => {
    receiver.answer({ status: 503 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    receiver.answer({ status: 200 });
    clock.advance(30_000);
    await worker().runOnce();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'succeeded');
    assert.equal(row.attempt_count, 2);
  });

  test('a receiver slower than the attempt timeout is recorded as a timeout and retried', async () => {
    setup = testProfile({ attemptTimeoutMs: 200 });
    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: true });
    receiver.answer({ status: 200, delayMs: 2_000 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    const [attempt] = await attemptsOf(database.db, id);
    assert.equal(attempt.status_code, null);
    assert.match(attempt.error ?? '', /^timeout/);
    assert.equal(attempt.outcome, 'retry_scheduled');
    assert.ok(attempt.duration_ms < 1_500, `gave up after ${attempt.duration_ms} ms`);
    assert.equal((await deliveryRow(database.db, id)).status, 'pending');
  });

  test('a network error (nothing listening) is retried', async () => {
    const closedPort = await freePort();
    setup.receivers.set('ep-1', {
      url: `http://127.0.0.1:${closedPort}/hooks`,
      secrets: [SECRET],
      enabled: true,
    });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    const [attempt] = await attemptsOf(database.db, id);
    assert.equal(attempt.status_code, null);
    assert.match(attempt.error ?? '', /^(connect_failed|network_error)/);
    assert.equal(attempt.outcome, 'retry_scheduled');
    assert.equal(
      (await deliveryRow(database.db, id)).next_attempt_at?.getTime(),
      clock.now().getTime() + 30_000,
    );
  });

  test('a mailbox-style profile retries 4xx too and ends as failed after six attempts', async () => {
    setup = testProfile({
      exhaustedStatus: 'failed',
      classify: (result) =>
        result.kind === 'response' && result.statusCode >= 200 && result.statusCode < 300
          ? 'success'
          : 'retry',
    });
    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: true });
    receiver.answer({ status: 404 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const run = worker();
    await run.runOnce();
    for (const delay of TEST_SCHEDULE_MS) {
      clock.advance(delay);
      await run.runOnce();
    }
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempt_count, 6);
  });

  test('the response excerpt is kept to 1 KiB', async () => {
    receiver.answer({ status: 500, body: 'x'.repeat(5_000) });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    const [attempt] = await attemptsOf(database.db, id);
    assert.equal(attempt.response_excerpt?.length, 1024);
  });
});

describe('paused and removed receivers', () => {
  test('deliveries created while paused are held, then released in order on re-enable', async () => {
    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: false });
    const ids = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 5, held: true });
    clock.advance(60_000);
    assert.equal(await worker().runOnce(), 0, 'held deliveries are not claimed');
    for (const id of ids) assert.equal((await deliveryRow(database.db, id)).status, 'paused');

    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: true });
    const released = await database.db
      .transaction()
      .execute((tx) => queue.releaseHeld(tx, { channel: 'test_channel', endpointId: 'ep-1' }));
    assert.equal(released, 5);
    assert.equal(await worker({ concurrency: 1 }).runOnce(), 5);
    assert.deepEqual(
      receiver.requests.map((request) => request.headers['x-delivery-id']),
      ids,
      'oldest first',
    );
    for (const id of ids) assert.equal((await deliveryRow(database.db, id)).status, 'succeeded');
  });

  test('a retry that comes due while the receiver is paused is held, not attempted', async () => {
    receiver.answer({ status: 500 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: false });
    clock.advance(30_000);
    await worker().runOnce();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'paused');
    assert.equal(row.attempt_count, 1);
    assert.equal(receiver.requests.length, 1);
  });

  test('a receiver that no longer exists cancels the delivery without sending', async () => {
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-gone' });
    await worker().runOnce();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'cancelled');
    assert.equal(receiver.requests.length, 0);
  });

  test('cancelPending cancels pending and held deliveries of one receiver only', async () => {
    const [pending] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const [held] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', held: true });
    const [other] = await enqueueEvents(database.db, queue, { endpointId: 'ep-2' });
    const cancelled = await database.db
      .transaction()
      .execute((tx) => queue.cancelPending(tx, { channel: 'test_channel', endpointId: 'ep-1' }));
    assert.equal(cancelled, 2);
    assert.equal((await deliveryRow(database.db, pending)).status, 'cancelled');
    assert.equal((await deliveryRow(database.db, held)).status, 'cancelled');
    assert.equal((await deliveryRow(database.db, other)).status, 'pending');
  });
});

describe('redeliver', () => {
  test('a succeeded delivery is sent once more, now, with the same body', async () => {
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    clock.advance(3_600_000);
    const redelivered = await database.db.transaction().execute((tx) => queue.redeliver(tx, id));
    assert.equal(redelivered?.status, 'pending');
    assert.equal(await worker().runOnce(), 1);
    const attempts = await attemptsOf(database.db, id);
    assert.deepEqual(
      attempts.map((attempt) => [attempt.attempt_number, attempt.manual, attempt.outcome]),
      [
        [1, false, 'succeeded'],
        [2, true, 'succeeded'],
      ],
    );
    assert.equal(receiver.requests[0].rawBody, receiver.requests[1].rawBody);
  });

  test('a failing manual redelivery of a dead delivery is not retried automatically', async () => {
    receiver.answer({ status: 500 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const run = worker();
    await run.runOnce();
    for (const delay of TEST_SCHEDULE_MS) {
      clock.advance(delay);
      await run.runOnce();
    }
    assert.equal((await deliveryRow(database.db, id)).status, 'dead');
    await database.db.transaction().execute((tx) => queue.redeliver(tx, id));
    await run.runOnce();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'dead');
    assert.equal(row.attempt_count, 7);
    clock.advance(TEST_SCHEDULE_MS[4] * 2);
    assert.equal(await run.runOnce(), 0);
  });

  test('a delivery waiting for a retry is brought forward and keeps its schedule', async () => {
    receiver.answer({ status: 500 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await worker().runOnce();
    await database.db.transaction().execute((tx) => queue.redeliver(tx, id));
    await worker().runOnce();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempt_count, 2);
    assert.equal(row.next_attempt_at?.getTime(), clock.now().getTime() + TEST_SCHEDULE_MS[1]);
  });

  test('an unknown delivery id gives undefined', async () => {
    const result = await database.db
      .transaction()
      .execute((tx) => queue.redeliver(tx, '00000000-0000-4000-8000-000000000000'));
    assert.equal(result, undefined);
  });
});

describe('claims and leases', () => {
  test('two workers racing deliver each attempt exactly once', async () => {
    const ids = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 120 });
    // On PostgreSQL the second worker gets its own pool, so the two really race for rows.
    const secondDatabase = testDb.url ? await openPostgres(testDb.url) : database;
    try {
      const first = worker({ batchSize: 10, concurrency: 5 });
      const second = worker({ database: secondDatabase, batchSize: 10, concurrency: 5 });
      const drain = async (run: DeliveryWorker) => {
        let total = 0;
        for (let claimed = -1; claimed !== 0; total += claimed) claimed = await run.runOnce();
        return total;
      };
      const [a, b] = await Promise.all([drain(first), drain(second)]);
      assert.equal(a + b, ids.length);
    } finally {
      if (secondDatabase !== database) await secondDatabase.close();
    }
    const delivered = receiver.requests.map((request) => request.headers['x-delivery-id']);
    assert.equal(delivered.length, ids.length);
    assert.equal(new Set(delivered).size, ids.length, 'no delivery was sent twice');
    const attempts = await database.db.selectFrom('delivery_attempts').select('delivery_id').execute();
    assert.equal(attempts.length, ids.length, 'one attempt logged per delivery');
  });

  test('a claim left by a dead worker is retried once its lease passes', async () => {
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const now = clock.now();
    const abandoned = await claimDueDeliveries(database.db, {
      channels: ['test_channel'],
      now,
      leaseUntil: new Date(now.getTime() + 40_000),
      limit: 10,
    });
    assert.equal(abandoned.length, 1);
    assert.equal(await worker().runOnce(), 0, 'still leased');
    clock.advance(40_000);
    assert.equal(await worker().runOnce(), 1);
    assert.equal((await deliveryRow(database.db, id)).status, 'succeeded');
  });

  test('a backlog on one channel does not hold back another channel of the same worker', async () => {
    const other = testProfile({ name: 'other_channel' });
    other.receivers.set('ep-2', { url: receiver.url, secrets: [SECRET], enabled: true });
    await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 6 });
    const [waiting] = await enqueueEvents(database.db, queue, {
      endpointId: 'ep-2',
      channel: 'other_channel',
    });
    const run = worker({ profiles: [setup.profile, other.profile], batchSize: 3, concurrency: 3 });
    assert.equal(await run.runOnce(), 3, 'the first claim fills up on the first channel');
    assert.equal((await deliveryRow(database.db, waiting)).status, 'pending');
    await run.runOnce();
    assert.equal(
      (await deliveryRow(database.db, waiting)).status,
      'succeeded',
      'the next claim starts with the other channel',
    );
  });

  test('a completion from a lost lease is fenced off', async () => {
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    const now = clock.now();
    const [stale] = await claimDueDeliveries(database.db, {
      channels: ['test_channel'],
      now,
      leaseUntil: new Date(now.getTime() + 1_000),
      limit: 1,
    });
    clock.advance(1_000);
    await worker().runOnce();
    const recorded = await completeAttempt(database.db, {
      delivery: stale,
      status: 'failed',
      nextAttemptAt: null,
      now: clock.now(),
      attempt: {
        attemptNumber: 1,
        manual: false,
        url: receiver.url,
        statusCode: 400,
        durationMs: 1,
        error: null,
        responseExcerpt: null,
        outcome: 'failed',
      },
    });
    assert.equal(recorded, false);
    assert.equal((await deliveryRow(database.db, id)).status, 'succeeded');
    assert.equal((await attemptsOf(database.db, id)).length, 1);
  });
});

describe('running worker', () => {
  test('start() wakes on NOTIFY: a committed delivery is attempted without waiting for the poll', async () => {
    const run = worker({ pollIntervalMs: 60_000 });
    await run.start();
    try {
      // Let the first (empty) claim finish so the worker is idle and waiting.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await receiver.waitForRequests(1);
      assert.ok(Date.now() - started < 5_000);
      await waitFor(async () => (await deliveryRow(database.db, id)).status === 'succeeded');
    } finally {
      await run.stop();
    }
  });

  test('events committed right after a NOTIFY, without one of their own, are still picked up at once', async () => {
    const run = worker({ pollIntervalMs: 60_000 });
    await run.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      // Separate transactions in quick succession: only the first one notifies.
      const ids = [];
      for (let index = 0; index < 5; index += 1)
        ids.push(...(await enqueueEvents(database.db, queue, { endpointId: 'ep-1' })));
      await receiver.waitForRequests(ids.length);
      assert.ok(Date.now() - started < 5_000, 'well before the 60 s poll');
    } finally {
      await run.stop();
    }
  });

  test('an idle worker wakes at the next due retry it reads or schedules, not at the safety-net poll', async () => {
    setup = testProfile({ retryDelaysMs: [200, 200] });
    setup.receivers.set('ep-1', { url: receiver.url, secrets: [SECRET], enabled: true });
    // A retry another worker scheduled: due in 200 ms (clock time).
    const [waiting] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await database.db
      .updateTable('deliveries')
      .set({ next_attempt_at: new Date(clock.now().getTime() + 200) })
      .where('id', '=', waiting)
      .execute();
    receiver.answer((request) =>
      receiver.requests.indexOf(request) === 0 ? { status: 500 } : { status: 200 },
    );
    const run = worker({ pollIntervalMs: 10 * 60_000 });
    await run.start();
    try {
      clock.advance(200);
      await receiver.waitForRequests(1);
      // That attempt failed: this worker scheduled the retry itself and wakes for it.
      await waitFor(async () => (await deliveryRow(database.db, waiting)).attempt_count === 1);
      clock.advance(200);
      await receiver.waitForRequests(2);
      await waitFor(async () => (await deliveryRow(database.db, waiting)).status === 'succeeded');
    } finally {
      await run.stop();
    }
  });

  test('stop() lets an attempt in flight finish and record its outcome', async () => {
    receiver.answer({ status: 200, delayMs: 300 });
    const run = worker({ pollIntervalMs: 50 });
    const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
    await run.start();
    await receiver.waitForRequests(1);
    await run.stop();
    assert.equal((await deliveryRow(database.db, id)).status, 'succeeded');
  });

  test('a busy worker drains a backlog larger than its concurrency', async () => {
    const ids = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 60 });
    const run = worker({ batchSize: 8, concurrency: 4, pollIntervalMs: 50 });
    await run.start();
    try {
      await receiver.waitForRequests(ids.length);
      await waitFor(async () => {
        const done = await database.db
          .selectFrom('deliveries')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('status', '=', 'succeeded')
          .executeTakeFirstOrThrow();
        return Number(done.count) === ids.length;
      });
    } finally {
      await run.stop();
    }
  });
});

describe('outbound safety', () => {
  test('a loopback receiver that is not allowlisted sees no request; the attempt is logged as blocked', async () => {
    const strictClient = new OutboundClient({ allowCidrs: [], requireHttps: false });
    try {
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await worker({ client: strictClient }).runOnce();
      const [attempt] = await attemptsOf(database.db, id);
      assert.match(attempt.error ?? '', /^blocked_address/);
      assert.equal(receiver.requests.length, 0);
    } finally {
      await strictClient.close();
    }
  });
  test('a name that resolves to a loopback address that is not allowlisted: no request reaches it', async () => {
    const strictClient = new OutboundClient(
      { allowCidrs: [], requireHttps: false },
      { lookup: async () => ['127.0.0.1'] },
    );
    try {
      const port = new URL(receiver.url).port;
      setup.receivers.set('ep-1', {
        url: `http://hooks.example.test:${port}/hooks`,
        secrets: [SECRET],
        enabled: true,
      });
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await worker({ client: strictClient }).runOnce();
      const [attempt] = await attemptsOf(database.db, id);
      assert.match(attempt.error ?? '', /^blocked_address/);
      assert.equal(attempt.outcome, 'failed', 'a refused address is permanent: no retry');
      assert.equal((await deliveryRow(database.db, id)).status, 'failed');
      assert.equal(receiver.requests.length, 0);
    } finally {
      await strictClient.close();
    }
  });

  test('a redirect to an address that is not allowlisted is not followed', async () => {
    // Only 127.0.0.1 is allowed; the redirect target listens on 127.0.0.2.
    const hidden = await TestReceiver.start('127.0.0.2');
    const narrowClient = new OutboundClient({ allowCidrs: ['127.0.0.1/32'], requireHttps: false });
    try {
      receiver.answer({ status: 302, headers: { location: hidden.url } });
      const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
      await worker({ client: narrowClient }).runOnce();
      const [attempt] = await attemptsOf(database.db, id);
      assert.equal(attempt.status_code, 302);
      assert.equal(attempt.outcome, 'retry_scheduled', 'a redirect is a failed attempt');
      assert.equal(receiver.requests.length, 1);
      assert.equal(hidden.requests.length, 0);
    } finally {
      await narrowClient.close();
      await hidden.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
