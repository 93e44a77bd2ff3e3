import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FakeClock } from '../clock.ts';
import { type Database, openPGlite, openPostgres } from '../db/database.ts';
import { migrate } from '../db/migrator.ts';
import { DeliveryQueue } from './queue.ts';
import { attemptsOf, deliveryRow, enqueueEvents } from './testing/fixtures.ts';
import { TestReceiver } from './testing/receiver.ts';
import { openTestDatabase } from './testing/test-database.ts';

const WORKER_SCRIPT = fileURLToPath(new URL('./testing/crash-worker.ts', import.meta.url));

/**
 * At-least-once across a crash: a worker process is SIGKILLed while its attempt is in flight;
 * a restarted worker claims the delivery once the dead worker's lease passes and delivers it.
 * On PostgreSQL both processes share the server; on PGlite they take turns on one data directory.
 */
test('a worker killed with SIGKILL mid-delivery loses nothing once restarted', async () => {
  const receiver = await TestReceiver.start();
  const onPostgres = Boolean(process.env.DATABASE_URL);
  const pgliteDir = onPostgres ? null : mkdtempSync(join(tmpdir(), 'delivery-crash-'));
  const shared = onPostgres ? await openTestDatabase() : null;
  const open = async (): Promise<Database> => (shared ? openPostgres(shared.url!) : openPGlite(pgliteDir!));
  const workerEnv = {
    ...process.env,
    ...(shared ? { WORKER_DATABASE_URL: shared.url! } : { WORKER_PGLITE_DIR: pgliteDir! }),
    RECEIVER_URL: receiver.url,
    // Long enough that a slow machine cannot make the first worker re-claim its own hung attempt.
    LEASE_MS: '4000',
  };
  let child: ChildProcess | null = null;
  try {
    let database = await open();
    await migrate(database);
    const [id] = await enqueueEvents(database.db, new DeliveryQueue(new FakeClock(new Date())), {
      endpointId: 'ep-1',
    });
    if (!shared) await database.close();

    // The first attempt never gets an answer: the worker is killed while waiting for it.
    receiver.answer((request) =>
      receiver.requests.indexOf(request) === 0 ? { status: 200, hang: true } : { status: 200 },
    );
    child = await startWorker(workerEnv);
    await receiver.waitForRequests(1);
    child.kill('SIGKILL');
    await exited(child);

    // A long lease for the restarted worker: a slow machine must not make it re-claim its own attempt.
    child = await startWorker({ ...workerEnv, LEASE_MS: '60000', EXIT_WHEN_DONE: '1' });
    await receiver.waitForRequests(2);
    const code = await exited(child);
    child = null;
    assert.equal(code, 0);

    if (!shared) database = await open();
    const row = await deliveryRow(database.db, id);
    assert.equal(row.status, 'succeeded');
    const attempts = await attemptsOf(database.db, id);
    assert.deepEqual(
      attempts.map((attempt) => [attempt.attempt_number, attempt.status_code]),
      [[1, 200]],
      'the killed attempt left no record; the retried one is attempt 1',
    );
    assert.ok(receiver.requests.length >= 2, 'delivered at least once after the cut-off attempt');
    assert.equal(
      new Set(receiver.requests.map((request) => request.rawBody)).size,
      1,
      'the same event each time',
    );
    await database.close();
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await receiver.close();
    await shared?.close();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
});

/**
 * Issue 28: a worker process SIGKILLed with two attempts in flight and four deliveries claimed but
 * not started. Nothing renews its claims any more, so another worker (whose safety-net poll is a
 * minute away) sends them all within seconds of the short lease's end, waking for it; only the
 * two attempts in flight are sent twice, and each delivery has one recorded attempt. On PostgreSQL
 * the other worker is already running, idle, when the first dies (the heartbeat is seen renewing
 * the claims first); on PGlite, whose directory one process holds at a time, it starts after.
 */
test('a worker SIGKILLed with deliveries in flight and queued: a new worker sends them at the lease end, only those in flight twice', async () => {
  const receiver = await TestReceiver.start();
  const onPostgres = Boolean(process.env.DATABASE_URL);
  const pgliteDir = onPostgres ? null : mkdtempSync(join(tmpdir(), 'delivery-crash-'));
  const shared = onPostgres ? await openTestDatabase() : null;
  const open = async (): Promise<Database> => (shared ? openPostgres(shared.url!) : openPGlite(pgliteDir!));
  // Short, but long enough that a loaded machine does not stall the first worker past it.
  const leaseMs = 3_000;
  const workerEnv = {
    ...process.env,
    ...(shared ? { WORKER_DATABASE_URL: shared.url! } : { WORKER_PGLITE_DIR: pgliteDir! }),
    RECEIVER_URL: receiver.url,
    LEASE_MS: String(leaseMs),
    // Only the lease end (or the first look of a worker that starts) can explain a quick retry.
    POLL_MS: '60000',
  };
  const spawned: ChildProcess[] = [];
  const start = async (env: NodeJS.ProcessEnv) => {
    const started = await startWorker(env);
    spawned.push(started);
    return started;
  };
  try {
    let database = await open();
    await migrate(database);
    const ids = await enqueueEvents(database.db, new DeliveryQueue(new FakeClock(new Date())), {
      endpointId: 'ep-1',
      count: 6,
    });
    if (!shared) await database.close();

    // Nothing the first worker sends is answered: it dies waiting.
    let killed = false;
    receiver.answer(() => (killed ? { status: 200 } : { status: 200, hang: true }));
    const victim = await start({ ...workerEnv, CONCURRENCY: '2', BATCH_SIZE: '6' });
    await receiver.waitForRequests(2);
    if (shared) {
      // All six are claimed, and the heartbeat renews their lease while the worker lives.
      const leaseEnds = async () => {
        const rows = await database.db
          .selectFrom('deliveries')
          .select(['claim_token', 'locked_until'])
          .execute();
        assert.ok(rows.every((row) => row.claim_token !== null));
        return Math.min(...rows.map((row) => new Date(row.locked_until!).getTime()));
      };
      const first = await leaseEnds();
      await waitUntil(async () => (await leaseEnds()) > first, leaseMs * 2, 'a renewal');
    }
    const survivorEnv = { ...workerEnv, EXIT_WHEN_DONE: '1' };
    const running = shared ? await start(survivorEnv) : null;
    killed = true;
    victim.kill('SIGKILL');
    const killedAt = Date.now();
    await exited(victim);
    const inFlight = receiver.requests.map((request) => JSON.parse(request.rawBody).id as string);
    assert.equal(inFlight.length, 2, 'the dead worker sent only what its two slots held');

    const survivor = running ?? (await start(survivorEnv));
    const readyAt = Date.now();
    await within(receiver.waitForRequests(8), leaseMs + 20_000, 'the six deliveries');
    assert.equal(await exited(survivor), 0);
    const lastAt = Math.max(...receiver.requests.map((request) => request.receivedAt));
    const claimableAt = Math.max(killedAt + leaseMs, readyAt);
    assert.ok(
      lastAt - claimableAt < 5_000,
      `sent ${lastAt - claimableAt} ms after the claims came free (or the new worker was up), not at its poll`,
    );

    const times = new Map<string, number>();
    for (const request of receiver.requests) {
      const id = JSON.parse(request.rawBody).id as string;
      times.set(id, (times.get(id) ?? 0) + 1);
    }
    assert.equal(receiver.requests.length, 8);
    assert.deepEqual(
      [...times]
        .filter(([, count]) => count > 1)
        .map(([id]) => id)
        .sort(),
      [...inFlight].sort(),
      'only the attempts in flight at the kill were sent twice',
    );
    if (!shared) database = await open();
    for (const id of ids) {
      assert.equal((await deliveryRow(database.db, id)).status, 'succeeded');
      assert.deepEqual(
        (await attemptsOf(database.db, id)).map((attempt) => [attempt.attempt_number, attempt.status_code]),
        [[1, 200]],
        'one recorded attempt each: the killed ones left no record',
      );
    }
    await database.close();
  } finally {
    for (const worker of spawned)
      if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await receiver.close();
    await shared?.close();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
});

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
  });
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
