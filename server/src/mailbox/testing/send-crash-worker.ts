/**
 * The mailbox's outbound path in its own process, for the crash test (send-crash.test.ts): it
 * accepts sends the way the API does and runs the mailbox.send job runner; the test SIGKILLs it
 * at points during sending, then starts it again. Configured through the environment:
 *   WORKER_DATABASE_URL or WORKER_PGLITE_DIR, STORAGE_DIR, RELAY_URL, FROM (the sending inbox),
 *   TO (comma-separated recipients of each send), SENDS (how many sends to accept, 4 at a time),
 *   EXIT_WHEN_DONE=1 to stop once no send job is left (so the test can read an embedded database).
 * Prints `ready`, then `accepted <Message-ID>` for each send whose call returned.
 */
import { randomBytes } from 'node:crypto';
import { systemClock } from '../../core/clock.ts';
import { SecretBox } from '../../core/crypto/secret-box.ts';
import { type Database, openPGlite, openPostgres } from '../../core/db/database.ts';
import { DeliveryQueue } from '../../core/delivery/queue.ts';
import { JobCatalog, JobQueue, JobRunner } from '../../core/jobs/index.ts';
import { LocalStorage } from '../../core/storage/local.ts';
import { LocalEventBus } from '../events/bus.ts';
import { EventRecorder } from '../events/recorder.ts';
import { inboxesRepository } from '../inboxes/repository.ts';
import { InboundMail } from '../messages/ingest.ts';
import { OutboundMail } from '../messages/outbound.ts';
import { MAILBOX_SEND_JOB, mailboxSendJob, OutboundDelivery } from '../messages/send-job.ts';
import { SmtpRelay } from '../messages/transport.ts';

const env = process.env;
const database: Database = env.WORKER_DATABASE_URL
  ? await openPostgres(env.WORKER_DATABASE_URL)
  : await openPGlite(env.WORKER_PGLITE_DIR!);
const db = database.db;
const clock = systemClock;
const storage = new LocalStorage({
  root: env.STORAGE_DIR!,
  publicBaseUrl: 'http://localhost/storage',
  signingKey: randomBytes(32),
  clock,
});
const recorder = new EventRecorder(database, clock, new DeliveryQueue(clock), new LocalEventBus());
const mailDomain = 'mail.test';
const inbound = new InboundMail({ db, clock, storage, recorder, mailDomain });
const relay = new SmtpRelay(env.RELAY_URL!, { timeoutMs: 60_000 });
const secretBox = new SecretBox(randomBytes(32));
const delivery = new OutboundDelivery({
  db,
  clock,
  storage,
  recorder,
  relay,
  inbound,
  secretBox,
  mailDomain,
});
const runner = new JobRunner({
  database,
  clock,
  catalog: new JobCatalog([mailboxSendJob(delivery)]),
  logger: { info() {}, warn() {}, error: (details, message) => console.error(message, details) },
  pollIntervalMs: 50,
});
const outbound = new OutboundMail({
  db,
  clock,
  storage,
  recorder,
  queue: new JobQueue(clock),
  runNow: (jobId) => runner.runNow(jobId),
  sendWaitMs: 10_000,
  maxMessageBytes: 1024 * 1024,
});
await runner.start();
process.stdout.write('ready\n');

const from = (await inboxesRepository.byId(db, env.FROM!))!;
let next = 0;
const sends = Number(env.SENDS ?? 0);
await Promise.all(
  [1, 2, 3, 4].map(async () => {
    while (next < sends) {
      next += 1;
      const message = await outbound.send(from, {
        to: env.TO!.split(','),
        cc: [],
        bcc: [],
        reply_to: [],
        subject: `Crash test ${next}`,
        text: `Send number ${next}.`,
        html: null,
        attachments: [],
        in_reply_to: null,
        references: [],
        labels: [],
      });
      process.stdout.write(`accepted ${message.message_id}\n`);
    }
  }),
);

if (env.EXIT_WHEN_DONE === '1') {
  const timer = setInterval(async () => {
    const left = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('name', '=', MAILBOX_SEND_JOB)
      .where('state', 'in', ['pending', 'running'])
      .executeTakeFirstOrThrow();
    if (Number(left.count) > 0) return;
    clearInterval(timer);
    await runner.stop();
    relay.close();
    await database.close();
    process.exit(0);
  }, 100);
}
