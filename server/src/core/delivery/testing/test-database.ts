import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPostgres } from '../../db/database.ts';
import { migrate } from '../../db/migrator.ts';
import { openMigratedPGlite } from '../../db/testing/migrated-pglite.ts';

export interface TestDatabase {
  database: Database;
  /** Set on PostgreSQL: a URL other processes (a spawned worker) can open. */
  url: string | null;
  close(): Promise<void>;
}

/**
 * A migrated, empty database for one test file: in-memory PGlite by default, or, when
 * DATABASE_URL is set, a throwaway database created on that server and dropped afterwards.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const database = await openMigratedPGlite();
    return { database, url: null, close: () => database.close() };
  }
  const name = `test_delivery_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  await migrate(database);
  return {
    database,
    url: url.toString(),
    async close() {
      await database.close();
      // pg's pool.end() resolves before its sockets are closed; dropping "with (force)" at once
      // would kill those connections and surface as an uncaught error in the closing test.
      await adminQuery(serverUrl, waitForDisconnects(name));
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** A statement that waits (up to 5 s) until nobody is connected to `name`. */
function waitForDisconnects(name: string): string {
  return `do $$ begin
    for attempt in 1..100 loop
      exit when not exists (select 1 from pg_stat_activity where datname = '${name}');
      perform pg_sleep(0.05);
    end loop;
  end $$`;
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
