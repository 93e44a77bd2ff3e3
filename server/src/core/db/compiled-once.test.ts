import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from './compiled-once.ts';
import { type Database, openPostgres } from './database.ts';
import { directQueryOf } from './direct-query.ts';
import { openMigratedPGlite } from './testing/migrated-pglite.ts';

interface Notes {
  compiled_once_notes: { id: number; owner: string; kind: string; body: string };
}

// On PostgreSQL (DATABASE_URL) the pool handle runs compiled statements directly on its pool;
// the table is shared by concurrent runs, so every owner name carries this run's id.
let database: Database;
let db: Kysely<Notes>;
const run = randomUUID();
const ann = `ann-${run}`;
const bob = `bob-${run}`;

before(async () => {
  const url = process.env.DATABASE_URL;
  database = url ? await openPostgres(url) : await openMigratedPGlite();
  db = database.db as unknown as Kysely<Notes>;
  await sql`create table if not exists compiled_once_notes (id int, owner text, kind text, body text)`.execute(
    db,
  );
  await db
    .insertInto('compiled_once_notes')
    .values([
      { id: 1, owner: ann, kind: 'memo', body: 'a' },
      { id: 2, owner: ann, kind: 'memo', body: 'b' },
      { id: 3, owner: ann, kind: 'todo', body: 'c' },
      { id: 4, owner: bob, kind: 'memo', body: 'd' },
    ])
    .execute();
});
after(async () => {
  await db.deleteFrom('compiled_once_notes').where('owner', 'in', [ann, bob]).execute();
  await database.close();
});

test('the pool handle of PostgreSQL runs them directly; PGlite through Kysely', () => {
  assert.equal(directQueryOf(db) !== undefined, database.engine === 'postgres');
});

test('a statement is compiled once and each call runs it with its own values', async () => {
  let builds = 0;
  const memosOf = compiledOnce((handle: Kysely<Notes>, owner: string, limit: number) => {
    builds += 1;
    return handle
      .selectFrom('compiled_once_notes')
      .select(['id', 'body'])
      .where('owner', '=', owner)
      .where('kind', '=', 'memo') // fixed at compile time: stays in every run
      .orderBy('id')
      .limit(limit);
  });
  assert.deepEqual(await memosOf(db, ann, 10), [
    { id: 1, body: 'a' },
    { id: 2, body: 'b' },
  ]);
  assert.deepEqual(await memosOf(db, ann, 1), [{ id: 1, body: 'a' }]);
  assert.deepEqual(await memosOf(db, bob, 10), [{ id: 4, body: 'd' }]);
  assert.deepEqual(await memosOf(db, `carol-${run}`, 10), []);
  assert.equal(builds, 1);
});

test('inside a transaction the statement runs on the transaction (compiled for that handle)', async () => {
  const bodyOf = compiledOnce((handle: Kysely<Notes>, owner: string, id: number) =>
    handle.selectFrom('compiled_once_notes').select('body').where('owner', '=', owner).where('id', '=', id),
  );
  await db
    .transaction()
    .execute(async (tx) => {
      await tx
        .updateTable('compiled_once_notes')
        .set({ body: 'changed' })
        .where('owner', '=', ann)
        .where('id', '=', 1)
        .execute();
      assert.deepEqual(await bodyOf(tx, ann, 1), [{ body: 'changed' }]);
      throw new Error('roll back');
    })
    .catch(() => {});
  assert.deepEqual(await bodyOf(db, ann, 1), [{ body: 'a' }]);
});

test('a value that does not reach the SQL as a parameter is refused when the statement is compiled', async () => {
  // `limit + 1` computes with the stand-in instead of passing the value through.
  const wrong = compiledOnce((handle: Kysely<Notes>, owner: string, limit: number) =>
    handle
      .selectFrom('compiled_once_notes')
      .selectAll()
      .where('owner', '=', owner)
      .limit((limit as number) + 1),
  );
  await assert.rejects(wrong(db, ann, 1), /every value must reach the SQL exactly once/);
});
