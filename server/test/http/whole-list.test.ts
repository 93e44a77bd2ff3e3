// The unpaginated list (neither limit nor cursor) is streamed in keyset chunks: the body is the
// same JSON array as before, whatever the size, and its rows weigh in the rate-limit budget.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ROWS_PER_BUDGET_UNIT, WHOLE_LIST_CHUNK } from '../../src/core/http/whole-list.ts';
import { OWN_COUNTERS, startPlatform } from '../harness.ts';

const t = await startPlatform({ env: OWN_COUNTERS });
after(() => t.close());

test('the whole persona list is streamed across chunks, identical to the rendered rows, and charged', async () => {
  const a = await t.workspace();
  const owner = { accountId: a.accountId, membershipId: a.membershipId };
  // More than one chunk, and a few hundred rows; one clock tick for many rows tests the id tiebreak.
  const count = WHOLE_LIST_CHUNK + 137;
  for (let i = 0; i < count; i += 1) {
    await t.deps.personas.insert(t.deps.db, owner, {
      name: `Persona ${i}`,
      job_title: 'Engineer',
      demeanor: 'analytical',
    });
  }
  const response = await a.call('GET', '/personas');
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  // The old body: the array Fastify serialised with the route's response schema. The paginated path
  // still goes through that serialiser, so its pages, joined, give the same array key for key.
  const serialised: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page = await a.call('GET', `/personas?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    serialised.push(...page.json().data);
    cursor = page.json().next_cursor;
  } while (cursor);
  assert.ok(serialised.length >= count);
  assert.equal(response.body, JSON.stringify(serialised));
  const rows = await t.deps.personas.listChunk({ accountId: a.accountId } as never, {
    limit: 100_000,
    after: null,
  });
  assert.equal(response.body, JSON.stringify(rows.map((row) => t.deps.personas.render(row))));

  // The body spent 1 request + floor(rows / 100) units; the next request shows it.
  const first = await a.call('GET', '/personas');
  const before = Number(first.headers['ratelimit-remaining']);
  const next = await a.call('GET', '/personas?limit=1');
  const spent = before - Number(next.headers['ratelimit-remaining']);
  assert.equal(spent, 1 + Math.floor(serialised.length / ROWS_PER_BUDGET_UNIT));
});

test('a short list is a valid JSON array', async () => {
  const a = await t.workspace();
  const response = await a.call('GET', '/personas');
  assert.equal(response.statusCode, 200);
  assert.ok(Array.isArray(response.json()));
  assert.equal(response.body, JSON.stringify(response.json()));
});

test('the whole goal list is streamed the same way, with the scenarios each goal scores', async () => {
  const a = await t.workspace();
  const principal = { accountId: a.accountId, membershipId: a.membershipId } as never;
  const count = WHOLE_LIST_CHUNK + 30;
  for (let done = 0; done < count; done += 100) {
    const batch = Array.from({ length: Math.min(100, count - done) }, (_, i) => ({
      name: `Goal ${done + i}`,
    }));
    await t.deps.goals.bulkCreate(principal, batch);
  }
  const response = await a.call('GET', '/goals');
  assert.equal(response.statusCode, 200);
  const serialised: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page = await a.call('GET', `/goals?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    serialised.push(...page.json().data);
    cursor = page.json().next_cursor;
  } while (cursor);
  assert.ok(serialised.length >= count); // the seeded example scenarios bring their own goals
  assert.equal(response.body, JSON.stringify(serialised));
  // An unknown scenario filters everything out: still an array.
  const filtered = await a.call('GET', '/goals?scenario_id=00000000-0000-4000-8000-000000000000');
  assert.equal(filtered.body, '[]');
});
