import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMemories, readMemories } from '../../src/platform/memories/service.ts';
import { insertMeeting, insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, bearer, startPlatform, type TestPlatform } from '../harness.ts';
import { add } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

const enc = encodeURIComponent;

describe('security', () => {
  test('scoped keys need memories:read for GET and memories:write for writes', async () => {
    const c = await t.workspace();
    const { created } = await add(c, 'scoped', ['a fact']);
    const id = created[0]!.id;
    const readKey = await t.createApiKey(c, { name: 'reader', scopes: ['memories:read'] });
    const writeKey = await t.createApiKey(c, { name: 'writer', scopes: ['memories:write'] });
    const otherKey = await t.createApiKey(c, { name: 'other', scopes: ['goals:read'] });
    const reads: Array<[string, string]> = [
      ['GET', '/memories?user_memory_tag=scoped'],
      ['GET', '/memories/tags'],
      ['GET', '/memories/tags/scoped'],
      ['GET', `/memories/${id}`],
    ];
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/memories', { user_memory_tag: 'scoped', memories: ['another'] }],
      ['PATCH', `/memories/${id}`, { external_id: 'x' }],
      ['DELETE', `/memories/${id}`, undefined],
      ['DELETE', '/memories/tags/scoped', undefined],
    ];
    const call = (secret: string, method: string, url: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'GET',
        url: `/v1${url}`,
        headers: bearer(secret),
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    for (const [method, url] of reads) {
      assert.equal((await call(readKey.secret, method, url)).statusCode, 200, `${method} ${url}`);
      for (const key of [writeKey, otherKey]) {
        const denied = await call(key.secret, method, url);
        assert.equal(denied.statusCode, 403, `${method} ${url}`);
        assert.equal(denied.json().error.code, 'insufficient_scope');
      }
    }
    for (const [method, url, payload] of writes) {
      for (const key of [readKey, otherKey]) {
        const denied = await call(key.secret, method, url, payload);
        assert.equal(denied.statusCode, 403, `${method} ${url}`);
      }
    }
    for (const [method, url, payload] of writes) {
      const response = await call(writeKey.secret, method, url, payload);
      assert.ok([200, 201, 204].includes(response.statusCode), `${method} ${url}: ${response.body}`);
    }
  });

  test('another workspace gets 404 for every id and tag', async () => {
    const owner = await t.workspace();
    const stranger = await t.workspace();
    const { created } = await add(owner, 'private/tag', ['secret fact']);
    const id = created[0]!.id;
    const scenarioId = await insertScenario(t.deps, owner.accountId);
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/memories/${id}`, undefined, 'id'],
      ['PATCH', `/memories/${id}`, { content: 'mine now' }, 'id'],
      ['DELETE', `/memories/${id}`, undefined, 'id'],
      ['GET', `/memories/tags/${enc('private/tag')}`, undefined, 'tag'],
      ['DELETE', `/memories/tags/${enc('private/tag')}`, undefined, 'tag'],
      ['GET', `/memories/tags?scenario_id=${scenarioId}`, undefined, 'scenario_id'],
      ['GET', '/memories/not-a-uuid', undefined, 'id'],
    ];
    for (const [method, url, payload, param] of cases) {
      const response = await stranger.call(method, url, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().error.param, param);
    }
    assert.deepEqual((await stranger.call('GET', '/memories?user_memory_tag=private/tag')).json().data, []);
    assert.deepEqual((await stranger.call('GET', '/memories/tags')).json().data, []);
    // The same tag in another workspace is another container.
    const theirs = await add(stranger, 'private/tag', ['secret fact']);
    assert.equal(theirs.created.length, 1);
    assert.equal((await owner.call('GET', `/memories/${id}`)).json().data.content, 'secret fact');
    assert.equal(
      (await owner.call('GET', `/memories/tags/${enc('private/tag')}`)).json().data.memory_count,
      1,
    );
  });
});

describe('service functions for agents', () => {
  test('addMemories from a meeting records its source and shares the dedupe rules; readMemories', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const meetingId = await insertMeeting(t.deps, c.accountId, scenarioId);
    const tag = `participant:${meetingId}`;
    await add(c, tag, ['Works at Acme.']);
    const result = await t.deps.db.transaction().execute((tx) =>
      addMemories(tx, {
        accountId: c.accountId,
        tag,
        facts: ['works at acme', 'Lives in Porto.', 'Lives in Porto', 'x'.repeat(1001)],
        source: { type: 'meeting', meetingId, scenarioId },
        now: t.clock.now(),
      }),
    );
    assert.deepEqual(
      result.created.map((m) => m.content),
      ['Lives in Porto.'],
    );
    assert.deepEqual(result.skipped, [
      { content: 'works at acme', reason: 'duplicate' },
      { content: 'Lives in Porto', reason: 'duplicate_in_request' },
    ]);
    const memory = result.created[0]!;
    assert.equal(memory.source, 'meeting');
    assert.equal(memory.source_meeting_id, meetingId);
    assert.equal(memory.source_scenario_id, scenarioId);
    assert.equal(memory.scenario_id, scenarioId);

    const read = await readMemories(t.deps.db, c.accountId, tag);
    assert.deepEqual(
      read.map((m) => m.content),
      ['Lives in Porto.', 'Works at Acme.'],
    );
    assert.deepEqual(await readMemories(t.deps.db, c.accountId, tag, 1).then((r) => r.length), 1);
    const stranger = await t.workspace();
    assert.deepEqual(await readMemories(t.deps.db, stranger.accountId, tag), []);

    const summary = (await c.call('GET', `/memories/tags/${enc(tag)}`)).json().data;
    assert.deepEqual(summary.subject, { type: 'participant', id: meetingId });

    await assert.rejects(
      addMemories(t.deps.db, { accountId: c.accountId, tag: 'bad tag', facts: ['a'], source: 'api' }),
      (error: { param?: string }) => error.param === 'user_memory_tag',
    );
  });
});
