import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { allowDirectQueries } from './direct-query.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

// timestamptz and json come back as Date and objects on both engines; int8 (counts) as numbers here.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export type NotifyHandler = (payload: string) => void;

/** One handle over either engine: the query builder plus the few engine-level operations we need. */
export interface Database {
  readonly engine: 'pglite' | 'postgres';
  readonly db: Kysely<DB>;
  /** Runs a multi-statement SQL script (migrations). */
  runScript(script: string): Promise<void>;
  /** Runs `fn` while holding a session-level advisory lock. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** Subscribes to PostgreSQL NOTIFY on a channel; returns an unsubscribe function. */
  listen(channel: string, handler: NotifyHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Throws unless the database answers a trivial query (the readiness probe). */
export async function pingDatabase(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** How long PostgreSQL may keep a caller waiting (config.database). */
export interface PostgresTimeouts {
  /** For a new connection; past it the query fails (a 503) instead of queueing on a dead server. */
  connectTimeoutMs: number;
  /** The server's statement_timeout for every pooled session; 0 = none. */
  statementTimeoutMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectTimeoutMs: 3_000,
  statementTimeoutMs: 30_000,
};

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  database?: PostgresTimeouts;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.database)
    : openPGlite(join(options.dataDir, 'pglite'));
}

/** The embedded engine, which can also dump its data directory (the tests' migrated template). */
export interface PGliteDatabase extends Database {
  dumpDataDir(): Promise<Blob>;
}

/** `loadDataDir` starts an in-memory database from a dump (see db/testing/migrated-pglite.ts). */
export async function openPGlite(
  dir: string | null,
  options: { loadDataDir?: Blob } = {},
): Promise<PGliteDatabase> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pglite = dir ? await PGlite.create(dir) : await PGlite.create({ loadDataDir: options.loadDataDir });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const lockChains = new Map<number, Promise<void>>();
  return {
    engine: 'pglite',
    db,
    async runScript(script) {
      await pglite.exec(script);
    },
    async withAdvisoryLock(key, fn) {
      // One embedded session: PostgreSQL advisory locks are re-entrant within a session, so
      // callers in this process queue on a promise chain instead.
      const previous = lockChains.get(key) ?? Promise.resolve();
      let release!: () => void;
      const current = new Promise<void>((resolve) => {
        release = resolve;
      });
      lockChains.set(
        key,
        previous.then(() => current),
      );
      await previous;
      try {
        return await fn();
      } finally {
        release();
      }
    },
    async listen(channel, handler) {
      const unlisten = await pglite.listen(channel, handler);
      return async () => unlisten();
    },
    dumpDataDir: () => pglite.dumpDataDir('none'),
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

/** Runs `fn` on one pooled session without the statement timeout (migrations, waits for a lock). */
async function untimed<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    return await fn(client);
  } finally {
    // Back to the pool's statement_timeout (the session's start-up value); a session that failed
    // to reset is discarded rather than handed on without its bound.
    const reset = await client.query('reset statement_timeout').then(
      () => undefined,
      (error: Error) => error,
    );
    client.release(reset);
  }
}

export async function openPostgres(
  connectionString: string,
  timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: 20,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    // Sent at start-up, so it is the session default that `reset statement_timeout` returns to.
    ...(timeouts.statementTimeoutMs > 0 ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    // A connection to a server that vanished without a reset is found dead instead of waited on.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle pooled connection that the server (or the network) drops emits 'error' on the pool;
  // unhandled, that would crash the process. The pool discards it; requests then see a 503 and
  // /readyz a 503 until the server answers again.
  pool.on('error', () => {});
  // The same for a checked-out connection (a running query, a LISTEN): the query itself fails,
  // and pg-pool discards the connection when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  allowDirectQueries(db, async (text, values) => (await pool.query(text, values)).rows);
  const subscriptions = new Set<{ stop(): Promise<void> }>();
  return {
    engine: 'postgres',
    db,
    async runScript(script) {
      // Migrations may rewrite large tables: they are not bound by the statement timeout.
      await untimed(pool, (client) => client.query(script));
    },
    async withAdvisoryLock(key, fn) {
      // Waiting for the lock (another instance migrating) is not bound by the statement timeout.
      return untimed(pool, async (client) => {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      });
    },
    async listen(channel, handler) {
      const subscription = await listenResiliently(pool, channel, handler);
      subscriptions.add(subscription);
      return async () => {
        subscriptions.delete(subscription);
        await subscription.stop();
      };
    },
    async close() {
      for (const subscription of subscriptions) await subscription.stop();
      subscriptions.clear();
      await db.destroy();
    },
  };
}

/** How long to wait before listening again on a new connection after losing one. */
const RELISTEN_DELAY_MS = 1_000;

/**
 * LISTEN on a dedicated pooled connection that is replaced when the server drops it (an outage,
 * a restart), so notifications resume on their own once PostgreSQL is back. Notifications sent
 * while no connection listens are lost: every listener has a polling or cache-age safety net.
 * The first LISTEN fails as before when the server is unreachable.
 */
async function listenResiliently(
  pool: pg.Pool,
  channel: string,
  handler: NotifyHandler,
): Promise<{ stop(): Promise<void> }> {
  /** The listening connection and how to give it back (once) to the pool. */
  let current: { client: pg.PoolClient; release(error?: Error): void } | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const attach = async () => {
    const client = await pool.connect();
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      client.off('error', lost);
      client.removeAllListeners('notification');
      if (current?.client === client) current = null;
      // With an error pg-pool discards the connection instead of reusing it.
      client.release(error);
    };
    function lost(error: Error) {
      release(error);
      if (!stopped) schedule();
    }
    client.on('error', lost);
    client.on('notification', (message) => {
      if (message.channel === channel) handler(message.payload ?? '');
    });
    try {
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      release(error as Error);
      throw error;
    }
    if (stopped) return release();
    current = { client, release };
  };
  const schedule = () => {
    retry = setTimeout(() => void attach().catch(() => !stopped && schedule()), RELISTEN_DELAY_MS);
    retry.unref();
  };

  await attach();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const listening = current;
      if (!listening) return;
      await listening.client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
      listening.release();
    },
  };
}
