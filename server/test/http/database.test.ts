import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { listMigrations, migrate } from '../../src/core/db/migrator.ts';
import { openTestDatabase } from '../harness.ts';

test('migrations are numbered, unique and applied once even when two processes race', async () => {
  const migrations = listMigrations();
  const versions = migrations.map((m) => m.version);
  assert.deepEqual(
    versions,
    [...new Set(versions)].sort((a, b) => a - b),
    'unique and ordered',
  );
  const a = await openTestDatabase();
  const b = process.env.DATABASE_URL ? await openTestDatabase() : a;
  try {
    await Promise.all([migrate(a), migrate(b)]);
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from schema_migrations`.execute(a.db);
    assert.equal(rows[0]!.count, migrations.length);
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
