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
