import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/database.ts';
import type { DB } from './db/schema.ts';
import type { Paginator } from './http/pagination.ts';
import type { RedisCircuit } from './redis-circuit.ts';

/** What every service and worker shares: configuration, storage, time, secrets and logging. */
export interface CoreDeps {
  config: Readonly<Config>;
  database: Database;
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  paginator: Paginator;
  logger: Logger;
  /** The shared Redis connection behind its circuit (REDIS_URL), or none. */
  redis: RedisCircuit | null;
  /** Run in reverse order on shutdown. */
  disposers: Array<() => Promise<void> | void>;
}
