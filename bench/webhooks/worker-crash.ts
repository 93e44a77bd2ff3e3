/**
 * Worker crash benchmark (issue 28): a real worker process (the compiled build, `serve --role
 * worker`) delivers BENCH_EVENTS platform webhooks to a loopback receiver that answers slowly; it is
 * SIGKILLed while attempts are in flight, a new worker is started at once, and the run reports how
 * long after the kill the last delivery arrived, how many events arrived twice, and how many
 * attempts were really in flight at the kill (request sent, result not recorded).
 *
 *   npx tsx bench/webhooks/worker-crash.ts   (DATABASE_URL, or a throwaway database on 127.0.0.1)
 *
 * Knobs: BENCH_EVENTS (120), BENCH_ANSWER_MS (2000: the receiver's answer time),
 * BENCH_KILL_AFTER (48: requests received before the kill), BENCH_ROUNDS (1),
 * DELIVERY_LEASE_MS (passed to the workers when set; otherwise their default).
 * Bounded: each round gives up after 180 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { systemClock } from '../../server/src/core/clock.ts';
import { SecretBox } from '../../server/src/core/crypto/secret-box.ts';
import { type Database, openPostgres } from '../../server/src/core/db/database.ts';
import { migrate } from '../../server/src/core/db/migrator.ts';
import { createEventEmitter } from '../../server/src/platform/events/emitter.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import { buildIfStale } from '../lib/startup.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 120);
const ANSWER_MS = Number(process.env.BENCH_ANSWER_MS ?? 2_000);
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 48);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const ROUND_TIMEOUT_MS = 180_000;
const ENCRYPTION_KEY = 'c3'.repeat(32);
/** The dead worker's database sessions are found by this name. */
const VICTIM = 'bench-crash-victim';

/** Every request's event id and arrival time; answers 200 after ANSWER_MS. */
class SlowReceiver {
  readonly arrivals: Array<{ id: string; at: number }> = [];
  #waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
        this.arrivals.push({ id, at: Date.now() });
        this.#waiters = this.#waiters.filter((waiter) => {
          if (!waiter.test()) return true;
          waiter.resolve();
          return false;
        });
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        }, ANSWER_MS).unref();
      });
    });
    this.#server.keepAliveTimeout = 60_000;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves when `test` holds after a request arrived (or at once). */
  until(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`benchmark timed out waiting for ${what}`)), timeoutMs);
      this.#waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  reset(): void {
    this.arrivals.length = 0;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** `node dist/server/main.js serve --role worker`; resolves once its workers run. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server/main.js', 'serve', '--role', 'worker'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`worker exited early with ${code}`));
    child.once('exit', early);
    let seen = '';
    let ready = false;
    // Read on after start-up too: a full pipe would block the worker.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (ready) return;
      seen += chunk.toString();
      if (!seen.includes('workers running')) return;
      ready = true;
      child.off('exit', early);
      resolve();
    });
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until PostgreSQL has ended the dead worker's sessions: after that it can record nothing more. */
async function victimSessionsGone(database: Database): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where application_name = ${VICTIM}`.execute(
      database.db,
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error('the killed worker still has database sessions');
    await sleep(20);
  }
}

interface Round {
  killToLastArrival: number;
  killToAllRecorded: number;
  claimedAtKill: number;
  inFlightAtKill: number;
  recordedBeforeKill: number;
  claimsHeldFor: number;
  duplicated: number;
  duplicatedInFlight: number;
  requests: number;
}

async function round(
  database: Database,
  receiver: SlowReceiver,
  accountId: string,
  env: NodeJS.ProcessEnv,
  victimUrl: string,
): Promise<Round> {
  receiver.reset();
  const emitter = createEventEmitter({
    clock: systemClock,
    secretBox: new SecretBox(Buffer.from(ENCRYPTION_KEY, 'hex')),
    legacyWebhookSunset: new Date(0),
  });
  let victim: ChildProcess | null = await startWorker({ ...env, DATABASE_URL: victimUrl });
  let survivor: ChildProcess | null = null;
  try {
    const ids = await database.db.transaction().execute(async (tx) => {
      const emitted: string[] = [];
      for (let index = 0; index < EVENTS; index += 1) {
        const event = await emitter.emit(tx, {
          accountId,
          event: 'meeting.created',
          data: { meeting_id: randomUUID(), scenario_id: randomUUID() },
        });
        emitted.push(event.id);
      }
      return emitted;
    });
    await receiver.until(
      () => receiver.arrivals.length >= KILL_AFTER,
      ROUND_TIMEOUT_MS,
      'the first requests',
    );
    victim.kill('SIGKILL');
    const killedAt = Date.now();
    await exited(victim);
    victim = null;
    await victimSessionsGone(database);
    // Read once it is gone: a request it sent just before the kill may arrive a moment after.
    const sentBeforeKill = new Set(receiver.arrivals.map((arrival) => arrival.id));

    // What the dead worker left: claims it held, and which requests it sent without recording.
    const left = await database.db
      .selectFrom('deliveries')
      .select(['event_id', 'status', 'claim_token', 'locked_until'])
      .where('event_id', 'in', ids)
      .execute();
    const claimed = left.filter((row) => row.status === 'pending' && row.claim_token !== null);
    const recorded = new Set(left.filter((row) => row.status !== 'pending').map((row) => row.event_id));
    const inFlight = new Set([...sentBeforeKill].filter((id) => !recorded.has(id)));
    const heldUntil = Math.max(killedAt, ...claimed.map((row) => new Date(row.locked_until!).getTime()));

    survivor = await startWorker(env);
    const seen = () => new Set(receiver.arrivals.map((arrival) => arrival.id)).size >= ids.length;
    await receiver.until(seen, ROUND_TIMEOUT_MS, 'every event');
    const deadline = Date.now() + ROUND_TIMEOUT_MS;
    for (;;) {
      const pending = await database.db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('event_id', 'in', ids)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      if (Number(pending.count) === 0) break;
      if (Date.now() > deadline) throw new Error('benchmark timed out waiting for every result');
      await sleep(50);
    }
    const allRecorded = Date.now();
    const counts = new Map<string, number>();
    for (const { id } of receiver.arrivals) counts.set(id, (counts.get(id) ?? 0) + 1);
    const duplicated = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
    return {
      killToLastArrival: (Math.max(...receiver.arrivals.map((arrival) => arrival.at)) - killedAt) / 1000,
      killToAllRecorded: (allRecorded - killedAt) / 1000,
      claimedAtKill: claimed.length,
      inFlightAtKill: inFlight.size,
      recordedBeforeKill: recorded.size,
      claimsHeldFor: (heldUntil - killedAt) / 1000,
      duplicated: duplicated.length,
      duplicatedInFlight: duplicated.filter((id) => inFlight.has(id)).length,
      requests: receiver.arrivals.length,
    };
  } finally {
    victim?.kill('SIGKILL');
    if (survivor) {
      survivor.kill('SIGTERM');
      await exited(survivor);
    }
  }
}

async function main(target: { url: string }) {
  buildIfStale();
  const loadBefore = loadavg()[0];
  const database = await openPostgres(target.url);
  await migrate(database);
  const receiver = new SlowReceiver();
  const url = await receiver.listen();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-worker-crash-'));
  const secretBox = new SecretBox(Buffer.from(ENCRYPTION_KEY, 'hex'));
  const accountId = randomUUID();
  const now = new Date();
  await database.db
    .insertInto('accounts')
    .values({ id: accountId, name: 'bench', created_at: now })
    .execute();
  await database.db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      account_id: accountId,
      url,
      description: 'bench',
      signing_secret_sealed: secretBox.seal(`whsec_${randomBytes(24).toString('base64url')}`),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      subscribed_events: JSON.stringify(['*']),
      enabled: true,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: target.url,
    DATA_DIR: dataDir,
    ENCRYPTION_KEY,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    REDIS_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'info',
  };
  const victimUrl = new URL(target.url);
  victimUrl.searchParams.set('application_name', VICTIM);

  const lines = [
    `webhook worker crash: ${EVENTS} events, receiver answers in ${ANSWER_MS} ms, SIGKILL after ${KILL_AFTER} requests, compiled worker processes on PostgreSQL`,
  ];
  try {
    for (let index = 0; index < ROUNDS; index += 1) {
      const r = await round(database, receiver, accountId, env, victimUrl.toString());
      const share = (count: number) => `${((100 * count) / EVENTS).toFixed(1)} %`;
      lines.push(
        `  round ${index + 1}`,
        `    kill -> last delivery arrived          ${r.killToLastArrival.toFixed(1)} s  (every result recorded ${r.killToAllRecorded.toFixed(1)} s)`,
        `    dead worker's claims held after kill    ${r.claimsHeldFor.toFixed(1)} s  (ratio kill -> last delivery / that: ${ratio(r.killToLastArrival, r.claimsHeldFor)})`,
        `    at the kill                             ${r.recordedBeforeKill} recorded, ${r.claimedAtKill} claimed, of which ${r.inFlightAtKill} in flight (sent, not recorded)`,
        `    duplicated event ids                    ${r.duplicated} of ${EVENTS} (${share(r.duplicated)}); in flight at the kill: ${r.duplicatedInFlight}, others: ${r.duplicated - r.duplicatedInFlight}`,
        `    requests received                       ${r.requests}`,
      );
    }
  } finally {
    lines.push(
      `  machine load average (1 min) ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`,
    );
    console.log(lines.join('\n'));
    await receiver.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const target = benchDatabaseUrl('webhooks_crash');
try {
  await main(target);
} finally {
  try {
    target.drop();
  } catch {
    console.error('the benchmark database could not be dropped (connections still open after a failure)');
  }
}
