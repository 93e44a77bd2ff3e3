// Migration 0056 keeps the block list's rows: they become receive block entries of the same level.
// PGlite only: it needs a database that has not yet been migrated past 0055.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openPGlite } from '../../core/db/database.ts';
import { listMigrations, migrate } from '../../core/db/migrator.ts';

test('0056: existing block entries become receive block entries; each list and direction keeps its own values', async () => {
  const database = await openPGlite(null);
  try {
    const all = listMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < 56),
    );
    await sql`insert into mailbox_namespaces (id, name) values ('ns_m', 'm')`.execute(database.db);
    await sql`insert into mailbox_block_entries (id, namespace_id, inbox_id, kind, value)
      values ('blk_old', 'ns_m', null, 'domain', 'spam.example')`.execute(database.db);

    await migrate(database, all);
    const { rows } = await sql<
      Record<string, unknown>
    >`select id, list, direction, pod_id, inbox_id, kind, value
      from mailbox_list_entries`.execute(database.db);
    assert.deepEqual(rows, [
      {
        id: 'blk_old',
        list: 'block',
        direction: 'receive',
        pod_id: null,
        inbox_id: null,
        kind: 'domain',
        value: 'spam.example',
      },
    ]);
    const insert = (id: string, list: string, direction: string) =>
      sql`insert into mailbox_list_entries (id, namespace_id, list, direction, kind, value)
        values (${id}, 'ns_m', ${list}, ${direction}, 'domain', 'spam.example')`.execute(database.db);
    await insert('alw_1', 'allow', 'receive');
    await insert('blk_2', 'block', 'send');
    await assert.rejects(insert('blk_3', 'block', 'receive'), /duplicate key|unique/);
  } finally {
    await database.close();
  }
});
