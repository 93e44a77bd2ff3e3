import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { codeMigrations } from '../../src/core/db/migrations/code-migrations.ts';
import { listMigrations, migrate } from '../../src/core/db/migrator.ts';
import { openTestDatabase } from '../harness.ts';

test('migrations are numbered, unique and applied once even when two processes race', async () => {
  const migrations = listMigrations();
  // SQL files and code migrations share one sequence.
  const versions = [...migrations, ...codeMigrations].map((m) => m.version).sort((a, b) => a - b);
  assert.deepEqual(
    versions,
    [...new Set(versions)].sort((a, b) => a - b),
    'unique and ordered',
  );
  const a = await openTestDatabase();
  const b = process.env.DATABASE_URL ? await openTestDatabase() : a;
  try {
    await Promise.all([migrate(a), migrate(b)]);
    // Every SQL migration recorded once (code migrations need the app's key: another test's app,
    // on a shared PostgreSQL, may have applied them too).
    const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(a.db);
    const recordedSql = rows
      .map((row) => row.version)
      .filter((version) => migrations.some((m) => m.version === version))
      .sort((x, y) => x - y);
    assert.deepEqual(
      recordedSql,
      migrations.map((m) => m.version),
      'each SQL migration recorded once',
    );
    assert.deepEqual(await migrate(a), [], 'nothing left to apply');
  } finally {
    if (b !== a) await b.close();
    await a.close();
  }
});

test('a failing migration is rolled back and reported by name', async () => {
  const database = await openTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  writeFileSync(join(dir, '9001_good.sql'), 'create table if not exists migration_probe_ok (id int);');
  writeFileSync(
    join(dir, '9002_bad.sql'),
    'create table migration_probe_bad (id int); select no_such_function();',
  );
  try {
    await migrate(database);
    await assert.rejects(migrate(database, listMigrations(dir)), /migration 9002_bad failed/);
    const { rows } = await sql<{
      name: string | null;
    }>`select to_regclass('migration_probe_bad')::text as name`.execute(database.db);
    assert.equal(rows[0]!.name, null, 'the failed migration left nothing behind');
    await sql`drop table if exists migration_probe_ok`.execute(database.db);
    await sql`delete from schema_migrations where version >= 9000`.execute(database.db);
  } finally {
    await database.close();
  }
});
