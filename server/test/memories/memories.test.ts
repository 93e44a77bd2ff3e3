import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { normaliseFact, splitFacts, subjectOf } from '../../src/platform/memories/facts.ts';
import { insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { add } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

const _enc = encodeURIComponent;

describe('fact parsing', () => {
  test('lines, bullets and numbering', () => {
    assert.deepEqual(
      splitFacts('- one\n* two\n• three\n•four\n1. five\n2) six\n\n   \n  seven  \r\n10. ten'),
      ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'ten'],
    );
    assert.deepEqual(splitFacts('1.5 million users\n-5 degrees outside'), [
      '1.5 million users',
      '-5 degrees outside',
    ]);
    assert.equal(normaliseFact('- Likes   TEA.'), normaliseFact('likes tea'));
    assert.equal(normaliseFact('2) Likes tea...'), 'likes tea');
    assert.notEqual(normaliseFact('Likes tea'), normaliseFact('Likes coffee'));
  });

  test('subjects of default containers', () => {
    assert.deepEqual(subjectOf('membership:abc'), { type: 'membership', id: 'abc' });
    assert.deepEqual(subjectOf('participant:42'), { type: 'participant', id: '42' });
    assert.equal(subjectOf('candidate:jane'), null);
    assert.equal(subjectOf('membership:'), null);
  });
});

describe('import', () => {
  test('strings and objects; multi-line strings split; every field of the memory', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const data = await add(
      c,
      'candidate:jane@example.com',
      [
        'Prefers morning interviews.',
        '- Has 6 years of React experience\n* Lives in Lisbon\n\n1. Speaks Portuguese\n2) Owns a dog',
        { content: 'Asked about remote work.', external_id: 'crm-991', created_at: '2026-01-02T09:30:00Z' },
        { content: 'Plays chess' },
      ],
      { scenario_id: scenarioId },
    );
    assert.deepEqual(
      data.created.map((m) => m.content),
      [
        'Prefers morning interviews.',
        'Has 6 years of React experience',
        'Lives in Lisbon',
        'Speaks Portuguese',
        'Owns a dog',
        'Asked about remote work.',
        'Plays chess',
      ],
    );
    assert.deepEqual(data.skipped, []);
    const first = data.created[0]!;
    assert.deepEqual(Object.keys(first).sort(), [
      'content',
      'created_at',
      'external_id',
      'id',
      'scenario_id',
      'source',
      'source_meeting_id',
      'source_scenario_id',
      'updated_at',
      'user_memory_tag',
    ]);
    assert.equal(first.user_memory_tag, 'candidate:jane@example.com');
    assert.equal(first.external_id, null);
    assert.equal(first.scenario_id, scenarioId);
    assert.equal(first.source, 'api');
    assert.equal(first.source_meeting_id, null);
    assert.equal(first.source_scenario_id, null);
    const imported = data.created[5]!;
    assert.equal(imported.external_id, 'crm-991');
    assert.equal(imported.created_at, '2026-01-02T09:30:00.000Z');

    const got = await c.call('GET', `/memories/${imported.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json().data, imported);
  });

  test('duplicates in the container and in the request are skipped (case, spacing, bullets, full stop)', async () => {
    const c = await t.workspace();
    await add(c, 'dedupe', ['Likes green tea.', 'Works at Acme']);
    const data = await add(c, 'dedupe', [
      '- likes   GREEN tea',
      'works at acme.',
      'Has a cat',
      '* has a CAT.',
      { content: '1. Has a cat' },
      'New fact',
    ]);
    assert.deepEqual(
      data.created.map((m) => m.content),
      ['Has a cat', 'New fact'],
    );
    assert.deepEqual(data.skipped, [
      { content: 'likes GREEN tea', reason: 'duplicate' },
      { content: 'works at acme.', reason: 'duplicate' },
      { content: 'has a CAT.', reason: 'duplicate_in_request' },
      { content: 'Has a cat', reason: 'duplicate_in_request' },
    ]);
    const other = await add(c, 'other-tag', ['Likes green tea']);
    assert.equal(other.created.length, 1, 'dedupe is per container');
  });

  test('limits: tag 128 characters and its charset, 500 entries, fact 1,000, external_id 255', async () => {
    const c = await t.workspace();
    const post = (body: Record<string, unknown>) =>
      c.call('POST', '/memories', { user_memory_tag: 'limits', memories: ['x'], ...body });
    const special = 'Aa0._:@+-/|=';
    assert.equal((await post({ user_memory_tag: special })).statusCode, 201);
    assert.equal((await post({ user_memory_tag: 't'.repeat(128) })).statusCode, 201);
    for (const tag of ['t'.repeat(129), '', 'has space', 'hash#', 'ümlaut', 'semi;colon', 'quote"']) {
      const response = await post({ user_memory_tag: tag });
      assert.equal(response.statusCode, 400, tag);
      assert.equal(response.json().error.param, 'user_memory_tag', tag);
    }
    const missing = await c.call('POST', '/memories', { memories: ['x'] });
    assert.equal(missing.json().error.param, 'user_memory_tag');

    const many = Array.from({ length: 500 }, (_, i) => `fact ${i}`);
    const ok = await post({ user_memory_tag: 'five-hundred', memories: many });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().data.created.length, 500);
    const tooMany = await post({ memories: [...many, 'one more'] });
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().error.param, 'memories');
    const none = await post({ memories: [] });
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().error.param, 'memories');

    assert.equal((await post({ memories: ['f'.repeat(1000)] })).statusCode, 201);
    const long = await post({ memories: ['ok', 'f'.repeat(1001)] });
    assert.equal(long.statusCode, 400);
    assert.equal(long.json().error.param, 'memories[1]');
    const longLine = await post({ memories: [`short\n${'g'.repeat(1001)}`] });
    assert.equal(longLine.json().error.param, 'memories[0]');
    const longObject = await post({ memories: [{ content: 'h'.repeat(1001) }] });
    assert.equal(longObject.json().error.param, 'memories[0].content');
    assert.equal(
      (await post({ memories: [{ content: 'i', external_id: 'e'.repeat(255) }] })).statusCode,
      201,
    );
    const longId = await post({ memories: [{ content: 'j', external_id: 'e'.repeat(256) }] });
    assert.equal(longId.statusCode, 400);
    assert.equal(longId.json().error.param, 'memories[0].external_id');
    const badDate = await post({ memories: [{ content: 'k', created_at: 'yesterday' }] });
    assert.equal(badDate.json().error.param, 'memories[0].created_at');
    const future = await post({ memories: [{ content: 'k', created_at: '2999-01-01T00:00:00Z' }] });
    assert.equal(future.json().error.param, 'memories[0].created_at');
    const blank = await post({ memories: ['  \n - \n'] });
    assert.equal(blank.statusCode, 400);
    assert.equal(blank.json().error.param, 'memories[0]');
    const wrongType = await post({ memories: [42] });
    assert.equal(wrongType.statusCode, 400);
    const unknown = await post({ memories: [{ content: 'x', colour: 'red' }] });
    assert.equal(unknown.statusCode, 400);

    const all = await post({ memories: ['f'.repeat(1001), { content: 'ok', external_id: 'e'.repeat(256) }] });
    assert.deepEqual(
      all.json().errors.map((e: { param: string }) => e.param),
      ['memories[0]', 'memories[1].external_id'],
    );
    const stored = (await c.call('GET', '/memories?user_memory_tag=limits&limit=1000')).json().data;
    assert.ok(
      !stored.some((m: { content: string }) => m.content === 'ok'),
      'a refused request stores nothing',
    );
  });

  test('a scenario_id of another workspace (or none) is not found', async () => {
    const c = await t.workspace();
    const other = await t.workspace();
    const foreign = await insertScenario(t.deps, other.accountId);
    for (const scenario_id of [foreign, 'not-a-uuid']) {
      const response = await c.call('POST', '/memories', {
        user_memory_tag: 'x',
        scenario_id,
        memories: ['a'],
      });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().error.param, 'scenario_id');
    }
  });
});
