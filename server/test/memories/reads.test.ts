import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { add } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

const enc = encodeURIComponent;

describe('reading', () => {
  test('GET /memories: newest first, limit 1 to 1000, default 400', async () => {
    const c = await t.workspace();
    await add(c, 'order', ['first']);
    t.clock.advance(1000);
    await add(c, 'order', ['second', 'third']);
    await add(c, 'order', [{ content: 'old import', created_at: '2020-01-01T00:00:00Z' }]);
    await add(c, 'elsewhere', ['other container']);
    const listed = await c.call('GET', '/memories?user_memory_tag=order');
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(Object.keys(listed.json()).sort(), ['data', 'has_more', 'next_cursor', 'object']);
    assert.equal(listed.json().has_more, false);
    assert.deepEqual(
      listed.json().data.map((m: { content: string }) => m.content),
      ['third', 'second', 'first', 'old import'],
    );
    const one = (await c.call('GET', '/memories?user_memory_tag=order&limit=1')).json().data;
    assert.deepEqual(
      one.map((m: { content: string }) => m.content),
      ['third'],
    );
    const everything = (await c.call('GET', '/memories')).json().data;
    assert.equal(everything.length, 5);
    assert.equal((await c.call('GET', '/memories?limit=1000')).statusCode, 200);
    for (const limit of ['0', '1001', 'abc', '-1', '2.5']) {
      const response = await c.call('GET', `/memories?user_memory_tag=order&limit=${limit}`);
      assert.equal(response.statusCode, 400, limit);
      assert.equal(response.json().error.param, 'limit');
      assert.match(response.json().error.message, /1 to 1000/);
    }
    const badTag = await c.call('GET', `/memories?user_memory_tag=${enc('bad tag')}`);
    assert.equal(badTag.statusCode, 400);
    assert.equal(badTag.json().error.param, 'user_memory_tag');

    await add(
      c,
      'big',
      Array.from({ length: 401 }, (_, i) => `fact number ${i}`),
    );
    const capped = (await c.call('GET', '/memories?user_memory_tag=big')).json().data;
    assert.equal(capped.length, 400);
    assert.equal((await c.call('GET', '/memories?user_memory_tag=big')).json().has_more, true);
    assert.equal(capped[0].content, 'fact number 400', 'the last of one import is the newest');
  });

  test('tag summaries: subject, count, newest activity first, scenario filter, paging', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const membershipTag = `membership:${c.membershipId}`;
    await add(c, membershipTag, ['a', 'b']);
    t.clock.advance(1000);
    await add(c, 'participant:1234', ['c'], { scenario_id: scenarioId });
    t.clock.advance(1000);
    await add(c, 'team/alpha', ['d', 'e', 'f']);

    const list = await c.call('GET', '/memories/tags');
    assert.equal(list.statusCode, 200);
    const data = list.json().data;
    assert.deepEqual(
      data.map((s: { user_memory_tag: string }) => s.user_memory_tag),
      ['team/alpha', 'participant:1234', membershipTag],
    );
    assert.deepEqual(data[0].subject, null);
    assert.deepEqual(data[1].subject, { type: 'participant', id: '1234' });
    assert.deepEqual(data[2].subject, { type: 'membership', id: c.membershipId });
    assert.equal(data[0].memory_count, 3);
    assert.equal(data[2].memory_count, 2);
    assert.ok(data[0].last_memory_at > data[2].last_memory_at);

    // Editing a memory is activity: its container moves to the front.
    t.clock.advance(1000);
    const membershipMemory = (await c.call('GET', `/memories?user_memory_tag=${enc(membershipTag)}`)).json()
      .data[0];
    await c.call('PATCH', `/memories/${membershipMemory.id}`, { content: 'b, edited' });
    const reordered = (await c.call('GET', '/memories/tags')).json().data;
    assert.equal(reordered[0].user_memory_tag, membershipTag);

    const filtered = (await c.call('GET', `/memories/tags?scenario_id=${scenarioId}`)).json().data;
    assert.deepEqual(
      filtered.map((s: { user_memory_tag: string }) => s.user_memory_tag),
      ['participant:1234'],
    );

    const page1 = (await c.call('GET', '/memories/tags?limit=2')).json();
    assert.equal(page1.object, 'list');
    assert.equal(page1.has_more, true);
    const page2 = (await c.call('GET', `/memories/tags?limit=2&cursor=${enc(page1.next_cursor)}`)).json();
    assert.equal(page2.has_more, false);
    assert.deepEqual(
      [...page1.data, ...page2.data].map((s: { user_memory_tag: string }) => s.user_memory_tag),
      reordered.map((s: { user_memory_tag: string }) => s.user_memory_tag),
    );
  });

  test('GET /memories/tags/{tag}: URL-encoded tags, summary plus memories, 404 when empty', async () => {
    const c = await t.workspace();
    const tag = 'org:acme/team|a=b+c@d.e_f-g';
    await add(c, tag, ['one', 'two']);
    const response = await c.call('GET', `/memories/tags/${enc(tag)}`);
    assert.equal(response.statusCode, 200, response.body);
    const data = response.json().data;
    assert.equal(data.user_memory_tag, tag);
    assert.equal(data.subject, null);
    assert.equal(data.memory_count, 2);
    assert.deepEqual(
      data.memories.map((m: { content: string }) => m.content),
      ['two', 'one'],
    );
    const limited = (await c.call('GET', `/memories/tags/${enc(tag)}?limit=1`)).json().data;
    assert.equal(limited.memories.length, 1);
    assert.equal(limited.memory_count, 2);
    const longest = `${'a/'.repeat(63)}zz`;
    assert.equal(longest.length, 128);
    await add(c, longest, ['at the limit']);
    const long = await c.call('GET', `/memories/tags/${enc(longest)}`);
    assert.equal(long.statusCode, 200, long.body);
    assert.equal(long.json().data.user_memory_tag, longest);
    const raw = await c.call('GET', '/memories/tags/org:acme/team%7Ca=b+c@d.e_f-g');
    assert.equal(raw.statusCode, 200, 'a raw slash is tolerated');
    assert.equal(raw.json().data.memory_count, 2);
    for (const missing of ['nothing-here', 'bad tag', 't'.repeat(129), `${longest}a`]) {
      const r = await c.call('GET', `/memories/tags/${enc(missing)}`);
      assert.equal(r.statusCode, 404, missing);
      assert.equal(r.json().error.param, 'tag');
    }
  });
});

describe('editing and deleting', () => {
  test('PATCH content and external_id; 409 on a duplicate; tag and source fields are refused', async () => {
    const c = await t.workspace();
    const { created } = await add(c, 'edit', ['Likes tea', { content: 'Has a dog', external_id: 'ext-1' }]);
    const [tea, dog] = created as [(typeof created)[0], (typeof created)[0]];
    t.clock.advance(1000);
    const patched = await c.call('PATCH', `/memories/${tea.id}`, {
      content: 'Likes green tea',
      external_id: 'ext-2',
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.content, 'Likes green tea');
    assert.equal(patched.json().data.external_id, 'ext-2');
    assert.equal(patched.json().data.created_at, tea.created_at);
    assert.notEqual(patched.json().data.updated_at, tea.updated_at);

    const cleared = await c.call('PATCH', `/memories/${dog.id}`, { external_id: null });
    assert.equal(cleared.json().data.external_id, null);
    assert.equal(cleared.json().data.content, 'Has a dog');

    const recased = await c.call('PATCH', `/memories/${dog.id}`, { content: 'has a DOG.' });
    assert.equal(recased.statusCode, 200, 'its own fact, rewritten, is not a duplicate');

    const dup = await c.call('PATCH', `/memories/${dog.id}`, { content: '- likes green TEA.' });
    assert.equal(dup.statusCode, 409);
    assert.equal(dup.json().error.code, 'duplicate');
    assert.equal(dup.json().error.param, 'content');

    for (const field of ['user_memory_tag', 'source', 'source_meeting_id', 'source_scenario_id']) {
      const response = await c.call('PATCH', `/memories/${dog.id}`, { [field]: 'x' });
      assert.equal(response.statusCode, 400, field);
      assert.equal(response.json().error.param, field);
    }
    const both = await c.call('PATCH', `/memories/${dog.id}`, { user_memory_tag: 'x', source: 'meeting' });
    assert.deepEqual(
      both.json().errors.map((e: { param: string }) => e.param),
      ['user_memory_tag', 'source'],
    );
    for (const [body, param] of [
      [{ content: 'two\nlines' }, 'content'],
      [{ content: '   ' }, 'content'],
      [{ content: 'c'.repeat(1001) }, 'content'],
      [{ external_id: 'e'.repeat(256) }, 'external_id'],
      [{ scenario_id: 'x' }, 'scenario_id'],
    ] as const) {
      const response = await c.call('PATCH', `/memories/${dog.id}`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().error.param, param);
    }
    assert.equal(
      (await c.call('PATCH', `/memories/${dog.id}`, { content: 'c'.repeat(1000) })).statusCode,
      200,
    );
    assert.equal(
      (await c.call('PATCH', `/memories/${dog.id}`, { external_id: 'e'.repeat(255) })).statusCode,
      200,
    );
  });

  test('DELETE one memory and a whole tag', async () => {
    const c = await t.workspace();
    const { created } = await add(c, 'team/gone', ['a', 'b']);
    await add(c, 'kept', ['c']);
    assert.equal((await c.call('DELETE', `/memories/${created[0]!.id}`)).statusCode, 204);
    assert.equal((await c.call('GET', `/memories/${created[0]!.id}`)).statusCode, 404);
    assert.equal((await c.call('DELETE', `/memories/${created[0]!.id}`)).statusCode, 404);
    assert.equal((await c.call('DELETE', `/memories/tags/${enc('team/gone')}`)).statusCode, 204);
    const again = await c.call('DELETE', `/memories/tags/${enc('team/gone')}`);
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().error.param, 'tag');
    assert.equal((await c.call('GET', `/memories/tags/${enc('team/gone')}`)).statusCode, 404);
    assert.equal((await c.call('GET', '/memories/tags/kept')).json().data.memory_count, 1);
    const longest = `${'b/'.repeat(63)}zz`;
    await add(c, longest, ['x']);
    assert.equal((await c.call('DELETE', `/memories/tags/${enc(longest)}`)).statusCode, 204);
    assert.equal((await c.call('DELETE', `/memories/tags/${enc(longest)}`)).statusCode, 404);
  });
});
