import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startPlatform, type TestPlatform, type Workspace } from '../harness.ts';

describe('cursor pagination', () => {
  let t: TestPlatform;
  let ws: Workspace;
  const ids: number[] = [];
  before(async () => {
    t = await startPlatform();
    ws = await t.signup();
    for (let i = 0; i < 5; i += 1) {
      ids.push((await t.createApiKey(ws, { name: `key ${i}` })).id);
      t.clock.advance(1000);
    }
  });
  after(() => t.close());

  const list = (query: string, token = ws.token) =>
    t.app.inject({ method: 'GET', url: `/v1/api-secrets${query}`, headers: bearer(token) });

  test('without limit or cursor the body is unpaginated, newest first', async () => {
    const body = (await list('')).json();
    assert.equal(body.has_more, undefined);
    assert.deepEqual(
      body.data.map((k: { id: number }) => k.id),
      [...ids].reverse(),
    );
  });

  test('pages walk the whole list with opaque cursors; starting_after is an alias', async () => {
    const first = (await list('?limit=2')).json();
    assert.equal(first.object, 'list');
    assert.equal(first.has_more, true);
    assert.equal(first.data.length, 2);
    const second = (await list(`?limit=2&cursor=${first.next_cursor}`)).json();
    const third = (await list(`?limit=2&starting_after=${second.next_cursor}`)).json();
    assert.equal(third.has_more, false);
    assert.equal(third.next_cursor, null);
    const walked = [...first.data, ...second.data, ...third.data].map((k: { id: number }) => k.id);
    assert.deepEqual(walked, [...ids].reverse());
    const defaultLimit = (await list(`?cursor=${first.next_cursor}`)).json();
    assert.equal(defaultLimit.data.length, 3, 'default limit 25 once a cursor is given');
  });

  for (const [query, param] of [
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?cursor=garbage', 'cursor'],
    ['?starting_after=abc.def', 'starting_after'],
  ]) {
    test(`${query} → 400 invalid_pagination naming ${param}`, async () => {
      const response = await list(query);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error.code, 'invalid_pagination');
      assert.equal(response.json().error.param, param);
    });
  }

  test('a cursor sent twice is refused naming cursor, not limit', async () => {
    const response = await list('?cursor=a&cursor=b');
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error.code, 'invalid_pagination');
    assert.equal(response.json().error.param, 'cursor');
    assert.doesNotMatch(response.json().error.message, /limit/);
  });

  test('a tampered cursor and another workspace’s cursor are refused', async () => {
    const { next_cursor: cursor } = (await list('?limit=1')).json();
    const [payload, mac] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...decoded, i: 999999 })).toString('base64url');
    const tampered = await list(`?limit=1&cursor=${edited}.${mac}`);
    assert.equal(tampered.json().error.code, 'invalid_pagination');
    const stranger = await t.signup();
    const foreign = await list(`?limit=1&cursor=${cursor}`, stranger.token);
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().error.param, 'cursor');
  });

  test('limit=100 is accepted', async () => {
    assert.equal((await list('?limit=100')).statusCode, 200);
  });
});
