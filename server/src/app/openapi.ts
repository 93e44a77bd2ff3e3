import pino from 'pino';
import { loadConfig } from '../config.ts';
import { openPGlite } from '../core/db/database.ts';
import { createMailboxDeps } from '../mailbox/wiring.ts';
import { generateAsyncApiDocuments } from './asyncapi.ts';
import { createCoreDeps, disposeAll } from './core-deps.ts';
import { buildMailboxApp } from './mailbox-app.ts';
import { buildPlatformApp } from './platform-app.ts';
import { createPlatformDeps } from './platform-deps.ts';

/**
 * The OpenAPI documents (and the AsyncAPI documents of the WebSockets), keyed by their committed path. They come from the route schemas of apps
 * built in memory (never a running server), with fixed settings so the output is reproducible.
 */
export async function generateOpenApiDocuments(): Promise<Record<string, string>> {
  const config = loadConfig({
    ENCRYPTION_KEY: '0'.repeat(64),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:8080',
    DATA_DIR: './data',
  });
  const database = await openPGlite(null);
  const deps = await createPlatformDeps(
    await createCoreDeps(config, { database, logger: pino({ level: 'silent' }) }),
  );
  const documents: Record<string, string> = {};
  try {
    const platform = await buildPlatformApp(deps);
    await platform.ready();
    documents['openapi/platform-v1.json'] = `${JSON.stringify(platform.swagger(), null, 2)}\n`;
    await platform.close();
    const mailbox = await buildMailboxApp(await createMailboxDeps(deps, { platformKeys: null }));
    await mailbox.ready();
    documents['openapi/mailbox-v0.json'] = `${JSON.stringify(mailbox.swagger(), null, 2)}\n`;
    await mailbox.close();
  } finally {
    await disposeAll(deps);
    await database.close();
  }
  return { ...documents, ...generateAsyncApiDocuments() };
}
