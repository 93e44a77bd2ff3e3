// The servers under test for bench/mailbox, in their own process so the load generator does not
// share their event loop: the mailbox service (HTTP, WebSocket and the SMTP listener on 127.0.0.1,
// PostgreSQL when DATABASE_URL is set) with INBOXES inboxes, and the baseline, a bare smtp-server
// that accepts and discards. Prints one JSON line with ports and the admin key; on SIGTERM prints
// a second one (messages stored, CPU time of this process while the service was measured) and exits.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { createSharedAdapters } from '../../server/src/app/adapters.ts';
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildMailboxApp } from '../../server/src/app/mailbox-app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openTestDatabase } from '../../server/src/mailbox/testing/db.ts';
import { createMailboxDeps } from '../../server/src/mailbox/wiring.ts';

const BENCH_DOMAIN = 'bench.test';
const INBOXES = Number(process.env.INBOXES ?? 20);

const dataDir = mkdtempSync(join(tmpdir(), 'bench-mailbox-'));
const adminKey = `adm_${randomBytes(12).toString('hex')}`;
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  ENCRYPTION_KEY: 'b2'.repeat(32),
  LOG_LEVEL: 'silent',
  MAIL_DOMAIN: BENCH_DOMAIN,
  MAILBOX_ADMIN_KEY: adminKey,
});
const database = await openTestDatabase();
const core = await createCoreDeps(config, { database, logger: pino({ level: 'silent' }) });
const deps = await createMailboxDeps(
  { ...core, ...(await createSharedAdapters(core)) },
  {
    platformKeys: null,
    eventChannel: `mailbox_bench_${randomBytes(4).toString('hex')}`,
  },
);
const app = await buildMailboxApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const smtpPort = await deps.smtp.listen(0, '127.0.0.1');

for (let i = 0; i < INBOXES; i++) {
  const response = await app.inject({
    method: 'POST',
    url: '/v0/inboxes',
    headers: { authorization: `Bearer ${adminKey}` },
    payload: { username: `bench-${i}`, domain: BENCH_DOMAIN },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
}

const bare = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => callback());
  },
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const baselinePort = (
  (bare as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo
).port;

// The load generator sends SIGUSR2 when the baseline is done: CPU is counted from there.
let cpuFrom: NodeJS.CpuUsage | undefined;
process.on('SIGUSR2', () => {
  cpuFrom = process.cpuUsage();
});

console.log(
  JSON.stringify({
    apiPort: (app.server.address() as AddressInfo).port,
    smtpPort,
    baselinePort,
    adminKey,
    engine: deps.database.engine,
    bus: deps.redis ? 'redis' : 'postgres notify',
  }),
);

process.on('SIGTERM', async () => {
  try {
    const cpu = process.cpuUsage(cpuFrom);
    const stored = await deps.db
      .selectFrom('mailbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      JSON.stringify({
        stored: Number(stored.n),
        cpuMs: (cpu.user + cpu.system) / 1000,
        systemMs: cpu.system / 1000,
      }),
    );
  } finally {
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await deps.smtp.close();
    await app.close();
    await disposeAll(core);
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
