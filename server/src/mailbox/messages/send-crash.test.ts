import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Database, openPGlite, openPostgres } from '../../core/db/database.ts';
import { migrate } from '../../core/db/migrator.ts';
import { openTestDatabase } from '../../core/delivery/testing/test-database.ts';
import type { OutboundRecipient } from '../tables.ts';
import { type RelayedMessage, startTestRelay } from '../testing/relay.ts';
import { MAILBOX_SEND_JOB } from './send-job.ts';

const WORKER_SCRIPT = fileURLToPath(new URL('../testing/send-crash-worker.ts', import.meta.url));
const SENDER = 'sender@mail.test';
const PEER = 'peer@mail.test';
const OUTSIDE = 'customer@example.com';

/**
 * No loss, no duplicate across SIGKILL: a process accepting and sending mail (4 sends at a time,
 * each to an inbox of this service and to an outside address through a loopback relay) is killed
 * (1) right after the relay answered 250 to a message, (2) while the relay holds a message's
 * DATA unanswered; a restarted process then finishes. Every accepted send must reach the inbox
 * exactly once and the relay at least once, with the same Message-ID and bytes each time; a
 * second copy at the relay is possible only for a message the relay accepted just before a kill
 * (the process died before recording it): that window is counted and reported.
 */
test('a sending process killed with SIGKILL loses no accepted send and delivers each once', async () => {
  const onPostgres = Boolean(process.env.DATABASE_URL);
  const pgliteDir = onPostgres ? null : mkdtempSync(join(tmpdir(), 'send-crash-db-'));
  const storageDir = mkdtempSync(join(tmpdir(), 'send-crash-objects-'));
  const shared = onPostgres ? await openTestDatabase() : null;
  const open = async (): Promise<Database> => (shared ? openPostgres(shared.url!) : openPGlite(pgliteDir!));
  let child: ChildProcess | null = null;
  let kills = 0;
  const killNow = () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      kills += 1;
    }
  };
  /** What the relay does at its next message: kill the sender after the 250, or hold its DATA and kill it. */
  let plan: 'kill-after-answer' | 'kill-holding-data' | 'accept' = 'accept';
  let killAfterAnswers = 0;
  const relay = await startTestRelay('accept', {
    async beforeAnswer() {
      if (plan !== 'kill-holding-data') return;
      plan = 'accept';
      const dying = child!;
      killNow();
      await exited(dying);
      return false; // never answered: the sender did not get it
    },
    afterAnswer() {
      if (plan === 'kill-after-answer' && relay.received.length >= killAfterAnswers) {
        plan = 'accept';
        killNow();
      }
    },
  });
  const env = {
    ...process.env,
    ...(shared ? { WORKER_DATABASE_URL: shared.url! } : { WORKER_PGLITE_DIR: pgliteDir! }),
    STORAGE_DIR: storageDir,
    RELAY_URL: relay.url,
    FROM: SENDER,
    TO: `${PEER},${OUTSIDE}`,
  };
  const accepted: string[] = [];
  try {
    let database = await open();
    await migrate(database);
    for (const address of [SENDER, PEER]) await addInbox(database, address);
    if (!shared) await database.close();

    // 1. Killed right after the relay's 250 for the third message, sends still being accepted.
    plan = 'kill-after-answer';
    killAfterAnswers = 3;
    child = await startWorker({ ...env, SENDS: '12' }, accepted);
    await exited(child);
    assert.equal(kills, 1, 'killed after the third 250');

    // 2. Restarted with more sends; killed while the relay holds its first message unanswered.
    database = await lapse(database, shared, open);
    plan = 'kill-holding-data';
    child = await startWorker({ ...env, SENDS: '4' }, accepted);
    await exited(child);
    assert.equal(kills, 2, 'killed while the relay held a DATA');

    // 3. Restarted for good: finishes what is left, then exits.
    database = await lapse(database, shared, open);
    child = await startWorker({ ...env, EXIT_WHEN_DONE: '1' }, accepted);
    assert.equal(await exited(child), 0);
    child = null;

    if (!shared) database = await open();
    const sent = await database.db
      .selectFrom('mailbox_messages')
      .select(['message_id', 'status', 'recipients'])
      .where('inbox_id', '=', SENDER)
      .execute();
    const received = await database.db
      .selectFrom('mailbox_messages')
      .select('message_id')
      .where('inbox_id', '=', PEER)
      .execute();
    const stored = new Set(sent.map((row) => row.message_id));
    for (const messageId of accepted) assert.ok(stored.has(messageId), `accepted ${messageId} is stored`);
    assert.ok(sent.length >= accepted.length && sent.length <= 16);

    const atRelay = new Map<string, RelayedMessage[]>();
    for (const message of relay.received) {
      const messageId = /^Message-ID: (<[^>]+>)/im.exec(message.raw)?.[1] ?? '';
      atRelay.set(messageId, [...(atRelay.get(messageId) ?? []), message]);
    }
    let duplicates = 0;
    for (const row of sent) {
      assert.equal(row.status, 'sent', `${row.message_id} was sent`);
      const statuses = Object.fromEntries(
        (row.recipients as OutboundRecipient[]).map((r) => [r.address, r.status]),
      );
      assert.deepEqual(statuses, { [PEER]: 'delivered', [OUTSIDE]: 'sent' });
      assert.equal(
        received.filter((r) => r.message_id === row.message_id).length,
        1,
        `${row.message_id} is in the inbox exactly once`,
      );
      const copies = atRelay.get(row.message_id) ?? [];
      assert.ok(copies.length >= 1, `${row.message_id} reached the relay`);
      assert.equal(new Set(copies.map((c) => c.raw)).size, 1, 'every copy is the same bytes');
      for (const copy of copies) assert.deepEqual(copy.to, [OUTSIDE], 'the inbox recipient never goes out');
      duplicates += copies.length - 1;
    }
    assert.equal(atRelay.size, sent.length, 'the relay got nothing that was not stored');
    // Only a message the relay had answered 250 when the process died can go twice: at most one
    // per send in flight (4) at each kill. The held DATA itself never goes twice, but on a loaded
    // machine the other sends in flight may have had their 250 before the kill landed.
    assert.ok(duplicates <= 4 * kills, `duplicates ${duplicates}`);
    console.log(
      `send crash test (${onPostgres ? 'PostgreSQL' : 'PGlite'}): ${kills} SIGKILLs, ${sent.length} sends stored ` +
        `(${accepted.length} calls had returned), inbox copies ${received.length} (exactly one each), ` +
        `relay copies ${relay.received.length} for ${atRelay.size} Message-IDs, duplicates ${duplicates} ` +
        '(relay accepted, process killed before recording)',
    );
    await database.close();
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await relay.close();
    await shared?.close();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
    rmSync(storageDir, { recursive: true, force: true });
  }
});

async function addInbox(database: Database, address: string) {
  const [username, domain] = address.split('@') as [string, string];
  const now = new Date();
  await database.db
    .insertInto('mailbox_inboxes')
    .values({
      id: address,
      namespace_id: 'ns_default',
      pod_id: null,
      username,
      domain,
      display_name: null,
      client_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Time passes: the dead process's leases and the retries' backoff run out (as they would after
 * their minutes), so the restarted process claims them at once.
 */
async function lapse(database: Database, shared: unknown, open: () => Promise<Database>): Promise<Database> {
  const db = shared ? database : await open();
  await sql`update jobs set run_at = now(), locked_until = case when state = 'running' then now() end
    where name = ${MAILBOX_SEND_JOB} and state in ('pending', 'running')`.execute(db.db);
  if (!shared) await db.close();
  return db;
}

async function startWorker(env: NodeJS.ProcessEnv, accepted: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      for (const match of text.matchAll(/^accepted (<[^>]+>)$/gm)) accepted.push(match[1]!);
      if (text.includes('ready')) resolve();
    });
  });
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
