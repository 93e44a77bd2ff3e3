// Migration 0064 keeps the ids of existing API keys and gives new ones random 53-bit ids.
// PGlite only: it needs a database that has not yet been migrated past 0063.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openPGlite } from '../../core/db/database.ts';
import { listMigrations, migrate } from '../../core/db/migrator.ts';

test('0064: existing API key ids are kept; new ones are random safe integers', async () => {
  const database = await openPGlite(null);
  try {
    const all = listMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < 64),
    );
    const account = '00000000-0000-4000-8000-000000000001';
    const membership = '00000000-0000-4000-8000-000000000002';
    const user = '00000000-0000-4000-8000-000000000003';
    await sql`insert into accounts (id, name) values (${account}, 'a')`.execute(database.db);
    await sql`insert into users (id, email, name) values (${user}, 'a@example.com', 'a')`.execute(
      database.db,
    );
    await sql`insert into memberships (id, account_id, user_id, role) values (${membership}, ${account}, ${user}, 'owner')`.execute(
      database.db,
    );
    const insertKey = (n: number) =>
      sql<{
        id: number;
      }>`insert into api_secrets (account_id, membership_id, name, secret_prefix, secret_hash, lookup_hash)
        values (${account}, ${membership}, ${`k${n}`}, 'svc_', 'h', ${`lookup-${n}`}) returning id`
        .execute(database.db)
        .then((result) => Number(result.rows[0]!.id));
    const old = [await insertKey(1), await insertKey(2)];
    assert.deepEqual(old, [1, 2], 'before: a global sequence');

    await migrate(database, all);
    const { rows } = await sql<{ id: number }>`select id from api_secrets order by id`.execute(database.db);
    assert.deepEqual(
      rows.map((row) => Number(row.id)),
      [1, 2],
      'existing ids are kept',
    );
    const fresh: number[] = [];
    for (let n = 3; n < 23; n += 1) fresh.push(await insertKey(n));
    for (const id of fresh) assert.ok(Number.isSafeInteger(id) && id >= 1, String(id));
    for (let i = 1; i < fresh.length; i += 1) assert.notEqual(Math.abs(fresh[i]! - fresh[i - 1]!), 1);
    // 20 draws from 2^53: all distinct, and not all below a count-like bound.
    assert.equal(new Set(fresh).size, fresh.length);
    assert.ok(fresh.some((id) => id > 2 ** 32));
  } finally {
    await database.close();
  }
});
