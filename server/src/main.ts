import { readFileSync, writeFileSync } from 'node:fs';
import { createCoreDeps, disposeAll } from './app/core-deps.ts';
import { planServe, ROLES, RoleError, type ServePlan } from './app/roles.ts';
import { closeHttpApp, onShutdown } from './app/shutdown.ts';
import { ConfigError, loadConfig } from './config.ts';
import { SecretBox } from './core/crypto/secret-box.ts';
import { openDatabase } from './core/db/database.ts';
import { migrate } from './core/db/migrator.ts';
import { isLoopback } from './core/http/metrics-access.ts';
import { startWorkers } from './core/workers.ts';

const USAGE = `usage: understudy <command>
  serve     start the platform API and the mailbox service (API + SMTP), with background workers
            unless RUN_WORKERS=false; --role api|mailbox|smtp|worker (comma-separated) runs only
            those roles in this process; --only=platform or --only=mailbox runs one service
  worker    run only the background workers (the same as serve --role worker)
  migrate   apply database migrations and exit
  openapi   write openapi/*.json from the route schemas (--check: fail if the committed files differ)
  contract  check | diff | fingerprint | release: the contract's changelog, fingerprints and gate`;

/** Says who can reach the listeners, and how to open them to the network when only this machine can. */
function listenLine(host: string): string {
  return host === 'localhost' || isLoopback(host)
    ? `Listening on   ${host} only (this machine); to expose it, set HOST=0.0.0.0 (and read SIGNUP_ENABLED, METRICS_TOKEN in the README)`
    : `Listening on   ${host} (reachable from the network)`;
}

/** How long after start-up the reference site is rendered in the background. */
const SITE_CONTENT_DELAY_MS = 2000;

/**
 * Runs the planned roles in this process (see app/roles.ts): builds only the dependencies they
 * need, listens, and on SIGTERM drains them in the opposite order of what accepts work.
 */
async function serve(plan: ServePlan) {
  const config = loadConfig();
  const { roles } = plan;
  const runWorkers = roles.has('worker');
  const needsPlatform = roles.has('api') || (runWorkers && plan.workersOf.has('platform'));
  const needsMailbox =
    roles.has('mailbox') || roles.has('smtp') || (runWorkers && plan.workersOf.has('mailbox'));
  // A part's modules are imported only when a role of this process needs it: loading modules is
  // most of what is left of a start, and an API instance need not load the mailbox (nor the reverse).
  const core = await createCoreDeps(config);
  const platform = needsPlatform
    ? await (await import('./app/platform-deps.ts')).createPlatformDeps(core)
    : null;
  const adapters = platform ?? {
    ...core,
    ...(await (await import('./app/adapters.ts')).createSharedAdapters(core)),
  };
  const mailbox = needsMailbox
    ? await (await import('./mailbox/wiring.ts')).createMailboxDeps(adapters)
    : null;
  const logger = core.logger;

  const platformApp =
    roles.has('api') && platform
      ? await (await import('./app/platform-app.ts')).buildPlatformApp(platform)
      : null;
  const mailboxApp =
    roles.has('mailbox') && mailbox
      ? await (await import('./app/mailbox-app.ts')).buildMailboxApp(mailbox)
      : null;
  const workers = runWorkers
    ? [
        ...(plan.workersOf.has('platform') ? (platform?.workers ?? []) : []),
        ...(plan.workersOf.has('mailbox') ? (mailbox?.workers ?? []) : []),
      ]
    : [];
  const stopWorkers = await startWorkers(workers);
  if (runWorkers) logger.info({ workers: workers.map((worker) => worker.name) }, 'workers running');

  // Imported before listening: once /healthz answers, a SIGTERM may come, and the shutdown handler
  // is installed only after the banner.
  const { planSpeechEngines, speechBannerLines } = await import('./platform/speech/wiring.ts');
  const banner: string[] = [];
  if (platformApp && platform) {
    await platformApp.listen({ port: config.port, host: config.host });
    const base = `${config.publicUrl}/v1`;
    logger.info(`platform API listening: ${base}; dashboard: ${config.publicUrl}/`);
    const speech = speechBannerLines(await planSpeechEngines(config));
    // The dashboard first: it is where a new user starts (issue 16).
    banner.push(
      `  Understudy dashboard  ${config.publicUrl}/   ← open this in a browser to sign up`,
      '',
      `  Platform API   ${base}   (reference: ${config.publicUrl}/docs)`,
      `  Database       ${core.database.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`,
      `  ${listenLine(config.host)}`,
      ...speech.map((line) => `  ${line}`),
    );
  }
  if (mailboxApp) {
    await mailboxApp.listen({ port: config.mailboxPort, host: config.host });
    const base = `${config.publicUrl.replace(/:\d+$/, '')}:${config.mailboxPort}/v0`;
    logger.info(`mailbox API listening: ${base}`);
    banner.push(
      `  Mailbox API    ${base}`,
      `  Mailbox keys   MAILBOX_ADMIN_KEY ${config.mailboxAdminKey ? 'is set' : 'is not set'}; platform svc_ keys work too.`,
    );
  }
  if (roles.has('smtp') && mailbox) {
    const smtpPort = await mailbox.smtp.listen(config.smtpPort, config.host);
    logger.info(`SMTP listening on port ${smtpPort}`);
    banner.push(
      `  SMTP (inbound) port ${smtpPort}, domain ${mailbox.mailDomain}${config.smtpTls ? ', STARTTLS' : ''}`,
      `  Outbound relay ${config.mailRelayUrl ? 'MAIL_RELAY_URL' : 'none (only inboxes of this service are reachable)'}`,
    );
  }
  if (platformApp) {
    banner.push(
      '',
      "  An API key from the command line (or the dashboard's API keys page):",
      `    curl -s -X POST ${config.publicUrl}/auth/signup -H 'content-type: application/json' \\`,
      `      -d '{"email":"you@example.com","password":"choose-a-password","name":"You"}'`,
      `    curl -s -X POST ${config.publicUrl}/v1/api-secrets -H "authorization: Bearer <token from signup>" \\`,
      `      -H 'content-type: application/json' -d '{"name":"my key"}'`,
    );
  }
  if (roles.size < ROLES.length) banner.push(`  Roles          ${[...roles].join(', ')} (this process)`);
  process.stdout.write(['', ...banner, ''].join('\n'));
  logger.info({ roles: [...roles] }, 'ready');
  if (platformApp) {
    // Built in the background once every role listens, and a moment later still: rendering the
    // reference (about 0.25 s of CPU) would otherwise hold up the first requests of a restart. The
    // first /docs visit need not wait for it; tests and workers, which never listen here, never pay.
    setTimeout(() => {
      import('./platform/reference/content.ts')
        .then(({ siteContent }) => siteContent())
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'reference site build failed; the first /docs request retries it'),
        );
    }, SITE_CONTENT_DELAY_MS).unref();
  }

  const apps = [platformApp, mailboxApp].filter((app) => app !== null);
  onShutdown({
    timeoutMs: config.shutdownTimeoutMs,
    log: logger,
    // Everything that accepts work stops at once and finishes what it has; the workers finish
    // their running jobs meanwhile; the database and Redis close last.
    drain: async () => {
      await Promise.all([
        ...apps.map((app) => closeHttpApp(app)),
        roles.has('smtp') && mailbox ? mailbox.smtp.close() : null,
        stopWorkers(),
      ]);
      await disposeAll(core);
    },
    force: () => {
      for (const app of apps) app.server.closeAllConnections();
    },
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
  const { generateOpenApiDocuments } = await import('./app/openapi.ts');
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

function plannedOrExit(args: string[]): ServePlan {
  try {
    return planServe(args, loadConfig().runWorkers);
  } catch (error) {
    if (!(error instanceof RoleError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'serve':
      return serve(plannedOrExit(args));
    // The older name of `serve --role worker`.
    case 'worker':
      return serve(plannedOrExit(['--role', 'worker']));
    case 'migrate':
      return migrateCommand();
    case 'openapi':
      return openapi(args.includes('--check'));
    case 'contract':
      process.exitCode = await (await import('./app/contract-command.ts')).contractCommand(args);
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
