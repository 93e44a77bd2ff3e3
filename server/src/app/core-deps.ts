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
import { RedisCircuit } from '../core/redis-circuit.ts';

/** How long start-up waits for Redis's first answer before serving from the fallbacks. */
const START_WAIT_FOR_REDIS_MS = 2_000;

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
  const redis = config.redisUrl ? new RedisCircuit(config.redisUrl, { ...config.redis, logger }) : null;
  // A healthy Redis starts with the circuit closed; an unreachable one does not hold up the start.
  await redis?.ready(START_WAIT_FOR_REDIS_MS);
  const disposers: CoreDeps['disposers'] = [];
  if (!overrides.database) disposers.push(() => database.close());
  if (redis) disposers.push(() => redis.close());
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
