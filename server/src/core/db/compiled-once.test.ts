import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from './compiled-once.ts';
import type { Database } from './database.ts';
import { openMigratedPGlite } from './testing/migrated-pglite.ts';

interface Notes {
  notes: { id: number; owner: string; kind: string; body: string };
}

let database: Database;
let db: Kysely<Notes>;

before(async () => {
  database = await openMigratedPGlite();
  db = database.db as unknown as Kysely<Notes>;
  await sql`create temporary table notes (id int primary key, owner text, kind text, body text)`.execute(db);
  await db
    .insertInto('notes')
    .values([
      { id: 1, owner: 'ann', kind: 'memo', body: 'a' },
      { id: 2, owner: 'ann', kind: 'memo', body: 'b' },
      { id: 3, owner: 'ann', kind: 'todo', body: 'c' },
      { id: 4, owner: 'bob', kind: 'memo', body: 'd' },
    ])
    .execute();
});
after(() => database.close());

test('a statement is compiled once and each call runs it with its own values', async () => {
  let builds = 0;
  const memosOf = compiledOnce((handle: Kysely<Notes>, owner: string, limit: number) => {
    builds += 1;
    return handle
      .selectFrom('notes')
      .select(['id', 'body'])
      .where('owner', '=', owner)
      .where('kind', '=', 'memo') // fixed at compile time: stays in every run
      .orderBy('id')
      .limit(limit);
  });
  assert.deepEqual(await memosOf(db, 'ann', 10), [
    { id: 1, body: 'a' },
    { id: 2, body: 'b' },
  ]);
  assert.deepEqual(await memosOf(db, 'ann', 1), [{ id: 1, body: 'a' }]);
  assert.deepEqual(await memosOf(db, 'bob', 10), [{ id: 4, body: 'd' }]);
  assert.deepEqual(await memosOf(db, 'carol', 10), []);
  assert.equal(builds, 1);
});

test('inside a transaction the statement runs on the transaction (compiled for that handle)', async () => {
  const bodyOf = compiledOnce((handle: Kysely<Notes>, id: number) =>
    handle.selectFrom('notes').select('body').where('id', '=', id),
  );
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.updateTable('notes').set({ body: 'changed' }).where('id', '=', 1).execute();
      assert.deepEqual(await bodyOf(tx, 1), [{ body: 'changed' }]);
      throw new Error('roll back');
    })
    .catch(() => {});
  assert.deepEqual(await bodyOf(db, 1), [{ body: 'a' }]);
});

test('a value that does not reach the SQL as a parameter is refused when the statement is compiled', async () => {
  // `limit + 1` computes with the stand-in instead of passing the value through.
  const wrong = compiledOnce((handle: Kysely<Notes>, owner: string, limit: number) =>
    handle
      .selectFrom('notes')
      .selectAll()
      .where('owner', '=', owner)
      .limit((limit as number) + 1),
  );
  await assert.rejects(wrong(db, 'ann', 1), /every value must reach the SQL exactly once/);
});
