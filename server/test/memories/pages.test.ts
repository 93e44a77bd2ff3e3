// Memories beyond one read (docs/memories.md, "Reading"): `limit` keeps the spec's meaning (at most
// this many, 1 to 1000, default 400) and `next_cursor` reads on, so no fact of a large container
// is out of reach.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { add } from './helpers.ts';

let t: TestPlatform;
let c: ApiClient;
const TAG = 'candidate:many';
const FACTS = 2500;
before(async () => {
  t = await startPlatform();
  c = await t.workspace();
  // One multi-line entry is one fact per line: 2,500 facts written at one instant (the order among
  // them is their insertion order), then a few imported at their own, older, times.
  await add(c, TAG, [Array.from({ length: FACTS - 3 }, (_, i) => `fact ${i}`).join('\n')]);
  await add(
    c,
    TAG,
    ['2021', '2022', '2023'].map((year) => ({
      content: `imported ${year}`,
      created_at: `${year}-01-01T00:00:00Z`,
    })),
  );
  await add(c, 'candidate:other', ['elsewhere']);
});
after(() => t.close());

interface Page {
  data: Array<{ content: string }>;
  has_more: boolean;
  next_cursor: string | null;
}

/** Every page of a list, following next_cursor; `read` takes the cursor (or none) and answers a page. */
async function walk(read: (cursor: string | null) => Promise<Page>): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    pages.push(page);
    assert.equal(page.has_more, page.next_cursor !== null);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}

const expected = [
  ...Array.from({ length: FACTS - 3 }, (_, i) => `fact ${FACTS - 4 - i}`),
  'imported 2023',
  'imported 2022',
  'imported 2021',
];

describe('memories beyond one read', () => {
  test('GET /memories walks a 2,500-fact container in pages of `limit`, newest first, none twice', async () => {
    const pages = await walk(async (cursor) => {
      const query = `user_memory_tag=${encodeURIComponent(TAG)}&limit=1000${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await c.call('GET', `/memories?${query}`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    });
    assert.deepEqual(
      pages.map((page) => page.data.length),
      [1000, 1000, 500],
    );
    assert.deepEqual(
      pages.flatMap((page) => page.data.map((memory) => memory.content)),
      expected,
    );
  });

  test('the default limit (400) pages too, and a workspace-wide list has its own cursors', async () => {
    const pages = await walk(async (cursor) =>
      (await c.call('GET', `/memories${cursor ? `?starting_after=${cursor}` : ''}`)).json(),
    );
    assert.deepEqual(
      pages.map((page) => page.data.length),
      [400, 400, 400, 400, 400, 400, 101],
    );
    const contents = pages.flatMap((page) => page.data.map((memory) => memory.content));
    assert.equal(new Set(contents).size, FACTS + 1, 'every memory of the workspace once');
  });

  test('GET /memories/tags/{tag} pages its memories the same way', async () => {
    const pages = await walk(async (cursor) => {
      const response = await c.call(
        'GET',
        `/memories/tags/${encodeURIComponent(TAG)}?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.data.memory_count, FACTS, 'the summary counts the whole container');
      return { data: body.data.memories, has_more: body.has_more, next_cursor: body.next_cursor };
    });
    assert.deepEqual(
      pages.flatMap((page) => page.data.map((memory) => memory.content)),
      expected,
    );
  });

  test('a cursor only continues the list it came from', async () => {
    const first = (
      await c.call('GET', `/memories?user_memory_tag=${encodeURIComponent(TAG)}&limit=1`)
    ).json();
    assert.equal(first.has_more, true);
    const tries = [
      `/memories?user_memory_tag=candidate:other&cursor=${first.next_cursor}`,
      `/memories?cursor=${first.next_cursor}`,
      `/memories?user_memory_tag=${encodeURIComponent(TAG)}&cursor=${first.next_cursor}x`,
    ];
    for (const url of tries) {
      const response = await c.call('GET', url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error.code, 'invalid_pagination', url);
      assert.equal(response.json().error.param, 'cursor', url);
    }
    const stranger = await t.workspace();
    const foreign = await stranger.call(
      'GET',
      `/memories?user_memory_tag=${encodeURIComponent(TAG)}&cursor=${first.next_cursor}`,
    );
    assert.equal(foreign.statusCode, 400, 'another workspace’s cursor');
    assert.equal(foreign.json().error.code, 'invalid_pagination');
  });
});
