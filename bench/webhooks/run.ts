/**
 * Webhook delivery benchmark (issue 4): 20,000 events for one endpoint on PostgreSQL, delivered
 * by the delivery worker to a local receiver, beside a baseline that POSTs the same bodies with
 * the same outbound client and concurrency and no database at all.
 *
 *   npx tsx bench/webhooks/run.ts           (DATABASE_URL, or a throwaway database on 127.0.0.1)
 *
 * Knobs: BENCH_EVENTS (20000), BENCH_CONCURRENCY (64), BENCH_BATCH (200), BENCH_PRODUCERS (16).
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../server/src/core/clock.ts';
import { SecretBox } from '../../server/src/core/crypto/secret-box.ts';
import { type Database, openPostgres } from '../../server/src/core/db/database.ts';
import { migrate } from '../../server/src/core/db/migrator.ts';
import { signatureHeader } from '../../server/src/core/delivery/signature.ts';
import { DeliveryWorker } from '../../server/src/core/delivery/worker.ts';
import { OutboundClient } from '../../server/src/core/outbound/client.ts';
import { createPlatformWebhookProfile } from '../../server/src/platform/events/webhook-profile.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 16);

const now = () => performance.timeOrigin + performance.now();

/** The receiver thread and a typed request/answer channel to it. */
async function startReceiver() {
  const thread = new Worker(new URL('./receiver-thread.mjs', import.meta.url));
  const ask = <T>(type: string) =>
    new Promise<T>((resolve) => {
      thread.once('message', resolve);
      thread.postMessage({ type });
    });
  const { port } = await new Promise<{ port: number }>((resolve) => thread.once('message', resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    reset: () => ask('reset'),
    report: () => ask<{ requests: number; arrivals: Array<[string, number]> }>('report'),
    count: async () => (await ask<{ requests: number }>('count')).requests,
    async close() {
      await ask('close');
      await thread.terminate();
    },
  };
}

/** Emits `count` events from the producer process; resolves with each event's commit time. */
function startProducer(databaseUrl: string, accountId: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./producer.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        PRODUCER_DATABASE_URL: databaseUrl,
        PRODUCER_ACCOUNT_ID: accountId,
        PRODUCER_LANES: String(PRODUCERS),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
  return {
    ready,
    emit: (count: number) =>
      new Promise<Array<[string, number]>>((resolve) => {
        child.once('message', (message: { committed: Array<[string, number]> }) =>
          resolve(message.committed),
        );
        child.send({ type: 'emit', count });
      }),
    stop: () => child.kill(),
  };
}

async function runLanes(count: number, lanes: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function succeededCount(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** When the last result was recorded (the worker stamps attempts with the system clock). */
async function lastRecordedAttempt(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('delivery_attempts')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .executeTakeFirstOrThrow();
  return new Date(row.at as Date).getTime();
}

async function main(target: { url: string }) {
  const loadBefore = loadavg()[0];
  const setupDb = await openPostgres(target.url);
  await migrate(setupDb);
  const workerDb = await openPostgres(target.url);
  const receiver = await startReceiver();
  const client = new OutboundClient({ allowCidrs: ['127.0.0.0/8'], requireHttps: false });
  const secretBox = new SecretBox(randomBytes(32));
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;

  const accountId = randomUUID();
  await setupDb.db
    .insertInto('accounts')
    .values({ id: accountId, name: 'bench', created_at: new Date() })
    .execute();
  await setupDb.db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      account_id: accountId,
      url: receiver.url,
      description: 'bench',
      signing_secret_sealed: secretBox.seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      subscribed_events: JSON.stringify(['*']),
      enabled: true,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();

  // Producers run in their own process, as API servers would, so they do not share this event loop.
  const producer = startProducer(target.url, accountId);
  await producer.ready;

  // Baseline: the same envelopes, signed the same way, POSTed straight from memory.
  const bodies = Array.from({ length: EVENTS }, () =>
    JSON.stringify({
      id: randomUUID(),
      event: 'meeting.created',
      created_at: new Date().toISOString(),
      data: { meeting_id: randomUUID(), scenario_id: randomUUID() },
    }),
  );
  const baseline = async () => {
    const started = now();
    await runLanes(EVENTS, CONCURRENCY, async (index) => {
      const body = bodies[index];
      await client.request({
        url: receiver.url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'Service-Signature': signatureHeader({ secrets: [secret], rawBody: body, now: new Date() }),
        },
        body,
        timeoutMs: 10_000,
        maxResponseBytes: 1024,
      });
    });
    return EVENTS / ((now() - started) / 1000);
  };
  // Warm up the client, the receiver and the JIT first, so the baseline is not measured cold.
  await baseline();
  // Run before and after the webhook phases: the machine's load drifts, the mean is fairer.
  const baselineBefore = await baseline();
  await receiver.reset();

  // Webhooks: the worker runs while producers emit, one event per transaction.
  const worker = new DeliveryWorker({
    database: workerDb,
    clock: systemClock,
    client,
    profiles: [createPlatformWebhookProfile({ secretBox })],
    batchSize: BATCH,
    concurrency: CONCURRENCY,
    logger: { info() {}, warn() {}, error: (details, message) => console.error(message, details) },
  });
  await worker.start();
  const enqueueStart = now();
  const committed = await producer.emit(EVENTS);
  const committedAt = new Map(committed);
  const enqueueSeconds = (Math.max(...committedAt.values()) - enqueueStart) / 1000;
  // Watch the receiver (cheap), then confirm in the database once: counting rows every few
  // milliseconds would itself load the database being measured.
  await waitUntil(async () => (await receiver.count()) >= EVENTS, 300_000);
  await waitUntil(async () => (await succeededCount(workerDb)) >= EVENTS, 300_000);
  const deliverySeconds = ((await lastRecordedAttempt(workerDb)) - enqueueStart) / 1000;
  const deliveryRate = EVENTS / deliverySeconds;
  const { requests, arrivals } = await receiver.report();
  const latencies = arrivals
    .map(([id, at]) => at - (committedAt.get(id) ?? Number.NaN))
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);

  // Backlog drain: everything enqueued first, then one worker empties the queue.
  await worker.stop();
  await receiver.reset();
  await producer.emit(EVENTS);
  const drainStart = now();
  await worker.start();
  await waitUntil(async () => (await receiver.count()) >= EVENTS, 300_000);
  await waitUntil(async () => (await succeededCount(workerDb)) >= 2 * EVENTS, 300_000);
  const drainEnd = await lastRecordedAttempt(workerDb);
  const drainRate = EVENTS / ((drainEnd - drainStart) / 1000);
  await worker.stop();
  await receiver.reset();
  const baselineAfter = await baseline();
  const baselineRate = (baselineBefore + baselineAfter) / 2;

  const lines = [
    `webhooks benchmark: ${EVENTS} events, one endpoint, PostgreSQL, concurrency ${CONCURRENCY}, batch ${BATCH}, ${PRODUCERS} producers`,
    `  machine load average (1 min) ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`,
    `  baseline (direct POST, no database)   ${baselineRate.toFixed(0)} req/s  (${baselineBefore.toFixed(0)} before, ${baselineAfter.toFixed(0)} after)`,
    `  enqueue (one event per transaction)   ${(EVENTS / enqueueSeconds).toFixed(0)} events/s`,
    `  delivered while enqueueing            ${deliveryRate.toFixed(0)} deliveries/s  (first commit to last recorded attempt ${deliverySeconds.toFixed(2)} s)`,
    `  commit -> first attempt               p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms  (${latencies.length} events, ${requests} requests)`,
    `  backlog drain                         ${drainRate.toFixed(0)} deliveries/s`,
    `  ratio to baseline                     ${ratio(deliveryRate, baselineRate)} (while enqueueing), ${ratio(drainRate, baselineRate)} (drain)`,
  ];
  console.log(lines.join('\n'));

  producer.stop();
  await client.close();
  await receiver.close();
  await workerDb.close();
  await setupDb.close();
}

const target = benchDatabaseUrl('webhooks');
try {
  await main(target);
} finally {
  try {
    target.drop();
  } catch {
    console.error('the benchmark database could not be dropped (connections still open after a failure)');
  }
}
