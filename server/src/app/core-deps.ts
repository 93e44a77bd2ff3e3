import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import { SecretBox } from '../core/crypto/secret-box.ts';
import { type Database, openDatabase } from '../core/db/database.ts';
import { migrate } from '../core/db/migrator.ts';
import type { DB } from '../core/db/schema.ts';
import type { CoreDeps } from '../core/deps.ts';
import { Paginator } from '../core/http/pagination.ts';
import { createLogger } from '../core/logging.ts';

export interface CoreOverrides {
  clock?: Clock;
  database?: Database;
  logger?: Logger;
}

export async function createCoreDeps(
  config: Readonly<Config>,
  overrides: CoreOverrides = {},
): Promise<CoreDeps> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const database = overrides.database ?? (await openDatabase(config));
  const secretBox = new SecretBox(config.encryptionKey);
  const applied = await migrate(database, undefined, { secretBox });
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
    : null;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  const disposers: CoreDeps['disposers'] = [];
  if (!overrides.database) disposers.push(() => database.close());
  if (redis) disposers.push(() => void redis.disconnect());
  return {
    config,
    database,
    db: database.db,
    clock: overrides.clock ?? systemClock,
    secretBox,
    paginator: new Paginator(secretBox.deriveKey('cursor')),
    logger,
    redis,
    disposers,
  };
}

export async function disposeAll(deps: { disposers: CoreDeps['disposers'] }): Promise<void> {
  for (const dispose of deps.disposers.splice(0).reverse()) {
    try {
      await dispose();
    } catch {
      // Shutdown goes on: one failing resource must not keep the others open.
    }
  }
}
