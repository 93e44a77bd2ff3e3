/**
 * A delivery worker in its own process, for the crash test (worker-crash.test.ts): the test
 * SIGKILLs it mid-attempt, then starts it again. Configured through the environment:
 *   WORKER_DATABASE_URL or WORKER_PGLITE_DIR, RECEIVER_URL, LEASE_MS, POLL_MS (100),
 *   CONCURRENCY and BATCH_SIZE (the worker's defaults when unset),
 *   EXIT_WHEN_DONE=1 to stop once nothing is pending (so the test can read an embedded database).
 */
import { systemClock } from '../../clock.ts';
import { type Database, openPGlite, openPostgres } from '../../db/database.ts';
import { DeliveryWorker } from '../worker.ts';
import { loopbackClient, testProfile } from './fixtures.ts';

const env = process.env;
const database: Database = env.WORKER_DATABASE_URL
  ? await openPostgres(env.WORKER_DATABASE_URL)
  : await openPGlite(env.WORKER_PGLITE_DIR!);
const { profile, receivers } = testProfile({ attemptTimeoutMs: 10_000 });
receivers.set('ep-1', { url: env.RECEIVER_URL!, secrets: ['whsec_crash'], enabled: true });
const client = loopbackClient();
const worker = new DeliveryWorker({
  database,
  clock: systemClock,
  client,
  profiles: [profile],
  leaseMs: Number(env.LEASE_MS ?? 1_500),
  pollIntervalMs: Number(env.POLL_MS ?? 100),
  concurrency: env.CONCURRENCY ? Number(env.CONCURRENCY) : undefined,
  batchSize: env.BATCH_SIZE ? Number(env.BATCH_SIZE) : undefined,
  logger: { info() {}, warn() {}, error: (details, message) => console.error(message, details) },
});
await worker.start();
process.stdout.write('ready\n');

if (env.EXIT_WHEN_DONE === '1') {
  const timer = setInterval(async () => {
    const left = await database.db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(left.count) > 0) return;
    clearInterval(timer);
    await worker.stop();
    await client.close();
    await database.close();
    process.exit(0);
  }, 100);
}
