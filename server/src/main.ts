import { readFileSync, writeFileSync } from 'node:fs';
import { createSharedAdapters } from './app/adapters.ts';
import { contractCommand } from './app/contract-command.ts';
import { createCoreDeps, disposeAll } from './app/core-deps.ts';
import { buildMailboxApp } from './app/mailbox-app.ts';
import { generateOpenApiDocuments } from './app/openapi.ts';
import { buildPlatformApp } from './app/platform-app.ts';
import { createPlatformDeps } from './app/platform-deps.ts';
import { ConfigError, loadConfig } from './config.ts';
import { SecretBox } from './core/crypto/secret-box.ts';
import { openDatabase } from './core/db/database.ts';
import { migrate } from './core/db/migrator.ts';
import type { CoreDeps } from './core/deps.ts';
import { startWorkers } from './core/workers.ts';
import { createMailboxDeps, type MailboxAdapters } from './mailbox/wiring.ts';
import { siteContent } from './platform/reference/content.ts';
import { planSpeechEngines, speechBannerLines } from './platform/speech/wiring.ts';

const USAGE = `usage: understudy <command>
  serve     start the platform API and the mailbox service (API + SMTP), with background workers
            unless RUN_WORKERS=false; --only=platform or --only=mailbox runs one of them
  worker    run only the background workers
  migrate   apply database migrations and exit
  openapi   write openapi/*.json from the route schemas (--check: fail if the committed files differ)
  contract  check | diff | fingerprint | release: the contract's changelog, fingerprints and gate`;

/** The mailbox service: /v0 on MAILBOX_PORT and the SMTP listener on SMTP_PORT. */
async function serveMailbox(core: CoreDeps & MailboxAdapters, runWorkers: boolean) {
  const config = core.config;
  const deps = await createMailboxDeps(core);
  const app = await buildMailboxApp(deps);
  const stopWorkers = runWorkers ? await startWorkers(deps.workers) : async () => {};
  await app.listen({ port: config.mailboxPort, host: config.host });
  const smtpPort = await deps.smtp.listen(config.smtpPort, config.host);
  const base = `${config.publicUrl.replace(/:\d+$/, '')}:${config.mailboxPort}/v0`;
  deps.logger.info(`mailbox API listening: ${base}; SMTP on port ${smtpPort}`);
  const banner = [
    `  Mailbox API    ${base}`,
    `  SMTP (inbound) port ${smtpPort}, domain ${deps.mailDomain}${config.smtpTls ? ', STARTTLS' : ''}`,
    `  Outbound relay ${config.mailRelayUrl ? 'MAIL_RELAY_URL' : 'none (only inboxes of this service are reachable)'}`,
    `  Mailbox keys   MAILBOX_ADMIN_KEY ${config.mailboxAdminKey ? 'is set' : 'is not set'}; platform svc_ keys work too.`,
  ];
  const stop = async () => {
    await deps.smtp.close();
    await app.close();
    await stopWorkers();
  };
  return { stop, banner };
}

/** Says who can reach the listeners, and how to open them to the network when only this machine can. */
function listenLine(host: string): string {
  return isLoopbackHost(host)
    ? `Listening on   ${host} only (this machine); to expose it, set HOST=0.0.0.0 (and read SIGNUP_ENABLED, METRICS_TOKEN in the README)`
    : `Listening on   ${host} (reachable from the network)`;
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

async function serve(only: string | null) {
  const config = loadConfig();
  if (only === 'mailbox') {
    const core = await createCoreDeps(config);
    const { stop, banner } = await serveMailbox(
      { ...core, ...(await createSharedAdapters(core)) },
      config.runWorkers,
    );
    process.stdout.write(['', ...banner, ''].join('\n'));
    onShutdown(async () => {
      await stop();
      await disposeAll(core);
    });
    return;
  }
  const deps = await createPlatformDeps(await createCoreDeps(config));
  const app = await buildPlatformApp(deps);
  const stopWorkers = config.runWorkers ? await startWorkers(deps.workers) : async () => {};
  await app.listen({ port: config.port, host: config.host });
  deps.logger.info(`dashboard: ${config.publicUrl}/`);
  const mailbox = only === 'platform' ? null : await serveMailbox(deps, config.runWorkers);
  // Built in the background now that the server listens, so that the first /docs visit need not
  // wait for it (tests and workers, which never listen here, never pay for it).
  siteContent().catch((error: unknown) =>
    deps.logger.warn({ err: error }, 'reference site build failed; the first /docs request retries it'),
  );
  const base = `${config.publicUrl}/v1`;
  deps.logger.info(`platform API listening: ${base}`);
  const speech = speechBannerLines(await planSpeechEngines(config));
  // The dashboard first: it is where a new user starts (issue 16).
  process.stdout.write(
    [
      '',
      `  Understudy dashboard  ${config.publicUrl}/   ← open this in a browser to sign up`,
      '',
      `  Platform API   ${base}   (reference: ${config.publicUrl}/docs)`,
      `  Database       ${deps.database.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
      `  ${listenLine(config.host)}`,
      ...speech.map((line) => `  ${line}`),
      ...(mailbox?.banner ?? []),
      '',
      "  An API key from the command line (or the dashboard's API keys page):",
      `    curl -s -X POST ${config.publicUrl}/auth/signup -H 'content-type: application/json' \\`,
      `      -d '{"email":"you@example.com","password":"choose-a-password","name":"You"}'`,
      `    curl -s -X POST ${base}/api-secrets -H "authorization: Bearer <token from signup>" \\`,
      `      -H 'content-type: application/json' -d '{"name":"my key"}'`,
      '',
    ].join('\n'),
  );
  onShutdown(async () => {
    await mailbox?.stop();
    await app.close();
    await stopWorkers();
    await disposeAll(deps);
  });
}

async function worker() {
  const config = loadConfig();
  const deps = await createPlatformDeps(await createCoreDeps(config));
  const mailbox = await createMailboxDeps(deps);
  const stopWorkers = await startWorkers([...deps.workers, ...mailbox.workers]);
  deps.logger.info('workers running');
  onShutdown(async () => {
    await stopWorkers();
    await disposeAll(deps);
  });
}

async function migrateCommand() {
  const config = loadConfig();
  const database = await openDatabase(config);
  const applied = await migrate(database, undefined, { secretBox: new SecretBox(config.encryptionKey) });
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  await database.close();
}

async function openapi(check: boolean) {
  let stale = false;
  for (const [file, text] of Object.entries(await generateOpenApiDocuments())) {
    if (!check) {
      writeFileSync(file, text);
      console.log(`wrote ${file}`);
      continue;
    }
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {}
    if (committed !== text) {
      console.error(`${file} differs from what the code generates: run npm run openapi and commit it`);
      stale = true;
    }
  }
  if (stale) process.exit(1);
}

function onShutdown(close: () => Promise<void>) {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      close().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'serve': {
      const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? null;
      if (only !== null && only !== 'platform' && only !== 'mailbox') {
        console.error('--only must be platform or mailbox');
        process.exit(2);
      }
      return serve(only);
    }
    case 'worker':
      return worker();
    case 'migrate':
      return migrateCommand();
    case 'openapi':
      return openapi(args.includes('--check'));
    case 'contract':
      process.exitCode = await contractCommand(args);
      return;
    default:
      console.error(USAGE);
      process.exit(2);
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : error);
  process.exit(1);
});
