import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPostgres } from '../../core/db/database.ts';
import { migrate } from '../../core/db/migrator.ts';
import { openMigratedPGlite } from '../../core/db/testing/migrated-pglite.ts';

/**
 * A migrated database for one test file: in-memory PGlite by default; with DATABASE_URL set, a
 * fresh schema on that server (dropped on close) so parallel test files never see each other.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    return openMigratedPGlite();
  }
  const schema = `t_mailbox_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  const database = await openPostgres(scoped.toString());
  await migrate(database);
  const close = database.close.bind(database);
  return Object.assign(database, {
    async close() {
      await close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  });
}
