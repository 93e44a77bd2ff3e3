import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
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

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
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

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 20 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const listeners: pg.PoolClient[] = [];
  return {
    engine: 'postgres',
    db,
    async runScript(script) {
      await pool.query(script);
    },
    async withAdvisoryLock(key, fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      const client = await pool.connect();
      listeners.push(client);
      client.on('notification', (message) => {
        if (message.channel === channel) handler(message.payload ?? '');
      });
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
        listeners.splice(listeners.indexOf(client), 1);
        client.release();
      };
    },
    async close() {
      for (const client of listeners.splice(0)) client.release();
      await db.destroy();
    },
  };
}
