import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import { type Clock, FakeClock, systemClock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { OutboundClient } from '../outbound/client.ts';
import { DeliveryQueue } from './queue.ts';
import { claimDueDeliveries, nextDueAt } from './repository.ts';
import { attemptsOf, deliveryRow, enqueueEvents, loopbackClient, testProfile } from './testing/fixtures.ts';
import { TestReceiver } from './testing/receiver.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from './worker.ts';

/**
 * Delivery claims under a short lease kept alive by the worker's heartbeat (issue 28): a slow
 * attempt keeps its claim, a dead worker's claims come free at their lease end and an idle worker
 * wakes for them, and a worker that lost its claims sends and records nothing more of them. The
 * crash of a real worker process is in worker-crash.test.ts.
 */

const SECRET = 'whsec_lease_test_secret';
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

/** Claims as a worker would and then dies: nothing renews or releases these claims. */
function abandonedClaims(at: Clock, leaseMs: number, limit = 10) {
  const now = at.now();
  return claimDueDeliveries(database.db, {
    channels: ['test_channel'],
    now,
    leaseUntil: new Date(now.getTime() + leaseMs),
    limit,
  });
}

/** A gate the receiver's answers wait for. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function waitFor(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const lockedUntil = async (id: string) => (await deliveryRow(database.db, id)).locked_until?.getTime();

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

test('a receiver slower than the lease gets exactly one attempt: the heartbeat keeps the claim', async () => {
  const answer = gate();
  receiver.answer({ status: 200, after: answer.opened });
  const [id] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1' });
  const slow = worker({ leaseMs: 15_000, heartbeatMs: 20 });
  assert.equal(slow.leaseMs, 15_000);
  const running = slow.runOnce();
  await receiver.waitForRequests(1);
  const claimedAt = clock.now().getTime();
  assert.equal(await lockedUntil(id), claimedAt + 15_000, 'leased for 15 s, not for the attempt timeout');

  clock.advance(10_000);
  await waitFor(async () => (await lockedUntil(id)) === clock.now().getTime() + 15_000, 'the renewal');
  clock.advance(10_000); // past the first lease end: only the renewal holds the claim now
  assert.equal(await worker().runOnce(), 0, 'another worker does not take a renewed claim');

  answer.open();
  assert.equal(await running, 1);
  assert.equal(receiver.requests.length, 1, 'one request');
  const row = await deliveryRow(database.db, id);
  assert.equal(row.status, 'succeeded');
  assert.equal(row.locked_until, null);
  assert.deepEqual(
    (await attemptsOf(database.db, id)).map((attempt) => attempt.attempt_number),
    [1],
  );
  assert.equal(slow.load.held, 0, 'nothing left to renew');
});

test("an idle worker wakes at a dead worker's lease end, and a worker that starts takes expired claims at once", async () => {
  // Real time: the worker's sleep until the lease end is measured on the system clock.
  const ids = await enqueueEvents(database.db, new DeliveryQueue(systemClock), {
    endpointId: 'ep-1',
    count: 2,
  });
  const claimedAt = Date.now();
  const [expiring] = await abandonedClaims(systemClock, 600, 1);
  const [expired] = await abandonedClaims(systemClock, -1_000, 1);
  assert.deepEqual([expired.id, expiring.id].sort(), [...ids].sort());
  const live = worker({ clock: systemClock, pollIntervalMs: 10 * 60_000 });
  await live.start();
  try {
    await within(receiver.waitForRequests(1), 5_000, 'the expired claim');
    assert.equal(receiver.requests[0].headers['x-delivery-id'], expired.id, 'the expired claim first');
    await within(receiver.waitForRequests(2), 5_000, 'the claim whose lease ran out, well before the poll');
    assert.equal(receiver.requests[1].headers['x-delivery-id'], expiring.id);
    assert.ok(receiver.requests[1].receivedAt >= claimedAt + 600, 'not before its lease end');
    await waitFor(
      async () => (await deliveryRow(database.db, expiring.id)).status === 'succeeded',
      'recorded',
    );
  } finally {
    await live.stop();
  }
  assert.equal(receiver.requests.length, 2);
});

test('the next look of an idle worker is the earliest of a due retry and a lease end', async () => {
  const channels = ['test_channel'];
  const now = clock.now().getTime();
  const [held, waiting] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 2 });
  await database.db
    .updateTable('deliveries')
    .set({ next_attempt_at: new Date(now + 60_000) })
    .where('id', '=', waiting)
    .execute();
  await abandonedClaims(clock, 15_000);
  assert.equal((await deliveryRow(database.db, held)).claim_token !== null, true);
  assert.equal((await nextDueAt(database.db, { channels, now: clock.now() }))?.getTime(), now + 15_000);
  clock.advance(20_000);
  assert.equal(
    (await nextDueAt(database.db, { channels, now: clock.now() }))?.getTime(),
    now,
    'once the lease passed, the delivery is due as it was',
  );
});

test('a worker whose claims were taken drops its queued deliveries, cuts its attempt short and records nothing', async () => {
  const answer = gate();
  receiver.answer({ status: 200, after: answer.opened });
  const ids = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 3 });
  // One attempt in flight, two claimed and queued behind it.
  const stalled = worker({ concurrency: 1, batchSize: 3, leaseMs: 15_000, heartbeatMs: 20 });
  const running = stalled.runOnce();
  await receiver.waitForRequests(1);
  assert.equal(stalled.load.held, 3);
  // Another worker took all three (this one stalled past its lease).
  const thief = randomUUID();
  await database.db.updateTable('deliveries').set({ claim_token: thief }).execute();
  try {
    assert.equal(await within(running, 5_000, 'the run to give up its lost claims'), 3);
  } finally {
    answer.open();
  }
  assert.equal(receiver.requests.length, 1, 'the queued deliveries were never sent');
  assert.equal(stalled.load.held, 0);
  for (const id of ids) {
    const row = await deliveryRow(database.db, id);
    assert.equal(row.claim_token, thief, "the other worker's claim is untouched");
    assert.equal(row.attempt_count, 0);
    assert.deepEqual(await attemptsOf(database.db, id), [], 'nothing recorded');
  }
});

test('a queued claim whose lease passed before the worker got to it is not sent', async () => {
  const answer = gate();
  receiver.answer({ status: 200, after: answer.opened });
  const [first, second] = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 2 });
  // A heartbeat too slow to beat during the test: the worker is as good as stalled.
  const stalled = worker({ concurrency: 1, batchSize: 2, leaseMs: 15_000, heartbeatMs: 14_000 });
  const running = stalled.runOnce();
  await receiver.waitForRequests(1);
  clock.advance(15_000);
  // Another worker takes both once the lease passed.
  const taken = await abandonedClaims(clock, 15_000);
  assert.deepEqual(taken.map((delivery) => delivery.id).sort(), [first, second].sort());
  answer.open();
  assert.equal(await running, 2);
  assert.deepEqual(
    receiver.requests.map((request) => request.headers['x-delivery-id']),
    [first],
    'the second delivery was left to the worker that holds it now',
  );
  assert.deepEqual(await attemptsOf(database.db, first), [], 'the late answer is fenced off');
  assert.equal(stalled.load.held, 0);
});

test('stop() hands back queued claims at once, and the heartbeat ends with the last claim', async () => {
  const answer = gate();
  receiver.answer({ status: 200, after: answer.opened });
  const ids = await enqueueEvents(database.db, queue, { endpointId: 'ep-1', count: 3 });
  const run = worker({ concurrency: 1, batchSize: 3, pollIntervalMs: 60_000, heartbeatMs: 20 });
  await run.start();
  await receiver.waitForRequests(1);
  await waitFor(() => run.load.held === 3, 'three claims held');
  const stopping = run.stop();
  await waitFor(async () => {
    const rows = await Promise.all(ids.map((id) => deliveryRow(database.db, id)));
    return rows.filter((row) => row.claim_token === null).length === 2;
  }, 'the two queued claims handed back');
  answer.open();
  await stopping;
  assert.equal(run.load.held, 0);
  assert.equal(receiver.requests.length, 1);
  assert.equal(await worker().runOnce(), 2, 'another worker takes the handed-back deliveries at once');
});
