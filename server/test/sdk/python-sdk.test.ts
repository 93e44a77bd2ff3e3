// Runs the Python SDK's unittest suite (sdk/python/tests) against a real platform and mailbox
// listening on 127.0.0.1, with their webhook delivery workers running so the SDK's webhook tests
// receive deliveries the services really sent, and a second platform instance on the same
// database for the room to resume on. Skipped, saying why, only when python3 is missing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildMailboxApp } from '../../src/app/mailbox-app.ts';
import { FakeClock } from '../../src/core/clock.ts';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import type { AppInstance } from '../../src/core/http/types.ts';
import type { BackgroundWorker } from '../../src/core/workers.ts';
import { createMailboxDeps } from '../../src/mailbox/wiring.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';

const SDK_DIR = join(import.meta.dirname, '..', '..', '..', 'sdk', 'python');
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const pythonMissing =
  python.error || python.status !== 0 ? 'python3 is not installed: the Python SDK is not tested' : false;

/** The harness takes a FakeClock; this one never stops showing the real time. */
class WallClock extends FakeClock {
  override now(): Date {
    return new Date();
  }
}

function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    // Asynchronous on purpose: the servers this process hosts must keep answering meanwhile.
    const child = spawn(command, args, { cwd: SDK_DIR, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('Python SDK against a running platform and mailbox', { skip: pythonMissing }, () => {
  let database: TestDatabase;
  let platform: ListeningPlatform;
  let other: ListeningPlatform;
  let mailboxApp: AppInstance;
  let mailboxUrl: string;
  const workers: BackgroundWorker[] = [];

  before(async () => {
    // A database of its own: the delivery workers below act on every due delivery in it.
    database = await openTestDatabase();
    // The wall clock, as in production: webhook signatures carry its time and the SDK checks it
    // against the real one (5 minutes of tolerance), however long the suite takes to get there.
    platform = await startListeningPlatform({ database: database.database, clock: new WallClock() });
    // Another instance on the same database and clock: the room's resume tests move to it.
    other = await startListeningPlatform({ database: database.database, clock: platform.clock });
    const mailbox = await createMailboxDeps(platform.deps, {
      eventChannel: `mailbox_events_sdk${randomBytes(6).toString('hex')}`,
    });
    mailboxApp = await buildMailboxApp(mailbox);
    await mailboxApp.listen({ port: 0, host: '127.0.0.1' });
    mailboxUrl = `http://127.0.0.1:${(mailboxApp.server.address() as AddressInfo).port}`;
    workers.push(
      ...platform.deps.workers.filter((worker) => worker.name === 'webhook-delivery'),
      ...mailbox.workers.filter((worker) => worker.name === 'mailbox-webhook-deliveries'),
    );
    assert.equal(workers.length, 2, 'both delivery workers found');
    for (const worker of workers) await worker.start();
  });

  after(async () => {
    for (const worker of workers) await worker.stop();
    await mailboxApp?.close();
    await platform?.close();
    await other?.close();
    await database?.close();
  });

  test('the package compiles (python3 -m compileall)', async () => {
    const result = await run('python3', ['-m', 'compileall', '-q', 'understudy', 'scripts', 'tests'], {
      // Bytecode goes to a temporary directory, not beside the sources.
      PYTHONPYCACHEPREFIX: join(tmpdir(), `understudy-pycache-${process.pid}`),
    });
    assert.equal(result.code, 0, result.output);
  });

  test('python3 -m unittest discover passes (README quick start included)', async () => {
    const workspace = await platform.workspace();
    const result = await run('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], {
      UNDERSTUDY_BASE_URL: platform.baseUrl,
      UNDERSTUDY_OTHER_BASE_URL: other.baseUrl,
      MAILBOX_BASE_URL: mailboxUrl,
      UNDERSTUDY_API_KEY: workspace.key,
      PYTHONDONTWRITEBYTECODE: '1',
    });
    assert.equal(result.code, 0, result.output);
    assert.doesNotMatch(result.output, /skipped/, `no test may skip here:\n${result.output}`);
  });
});
