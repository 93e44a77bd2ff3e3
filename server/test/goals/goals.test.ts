import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { personaBody } from '../fixtures/bodies.ts';
import { type ApiClient, expectError, ok, startPlatform } from '../harness.ts';

const t = await startPlatform();
after(() => t.close());
// Shared workspaces keep the file fast; every assertion is relative to what its test created.
const a = await t.workspace();
const b = await t.workspace();

async function scenarioOf(a: ApiClient, goals: string[] = []) {
  const persona = ok(await a.call('POST', '/personas', personaBody()), 201);
  return ok(
    await a.call('POST', '/scenarios', { name: 'S', type: 'roleplay', persona_id: persona.id, goals }),
    201,
  );
}

const goalBody = {
  name: 'Discovery questions',
  description: 'Did the participant uncover the pain points?',
  instructions: 'Score 1-10. 9-10: open questions with follow-ups.',
  metrics: { weight: 2, tags: ['discovery'] },
};

describe('goals', () => {
  test('create round-trips every field; active defaults to true; 100-character names pass, 101 fail', async () => {
    const goal = ok(await a.call('POST', '/goals', goalBody), 201);
    for (const [field, value] of Object.entries(goalBody)) assert.deepEqual(goal[field], value, field);
    assert.equal(goal.active, true);
    assert.equal(goal.scenario_id, null);
    assert.deepEqual(goal.scenarios, []);
    assert.ok(goal.membership_id && goal.created_at && goal.updated_at);
    assert.deepEqual(ok(await a.call('GET', `/goals/${goal.id}`)), goal);

    ok(await a.call('POST', '/goals', { name: 'n'.repeat(100) }), 201);
    expectError(await a.call('POST', '/goals', { name: 'n'.repeat(101) }), 400, 'name');
    expectError(await a.call('POST', '/goals', { description: 'no name' }), 400, 'name');
    expectError(await a.call('POST', '/goals', { name: '   ' }), 400, 'name');
    expectError(
      await a.call('POST', '/goals', { name: 'x', membership_id: crypto.randomUUID() }),
      400,
      'membership_id',
    );
    expectError(await a.call('POST', '/goals', { name: 'x', metrics: 'high' }), 400, 'metrics');
    expectError(
      await a.call('POST', '/goals', { name: 'x', metrics: { blob: 'x'.repeat(10_001) } }),
      400,
      'metrics',
    );
    ok(await a.call('POST', '/goals', { name: 'x', description: 'd'.repeat(5000) }), 201);
    expectError(
      await a.call('POST', '/goals', { name: 'x', description: 'd'.repeat(5001) }),
      400,
      'description',
    );
    ok(await a.call('POST', '/goals', { name: 'x', instructions: 'i'.repeat(10_000) }), 201);
    expectError(
      await a.call('POST', '/goals', { name: 'x', instructions: 'i'.repeat(10_001) }),
      400,
      'instructions',
    );
    const inactive = ok(await a.call('POST', '/goals', { name: 'x', active: false, metrics: null }), 201);
    assert.equal(inactive.active, false);
    assert.equal(inactive.metrics, null);
  });

  test('legacy scenarios array and scenario_id link the goal; foreign ids are refused by index', async () => {
    const s1 = await scenarioOf(a);
    const s2 = await scenarioOf(a);
    const foreign = await scenarioOf(b);

    const goal = ok(await a.call('POST', '/goals', { name: 'Linked', scenarios: [s1.id, s2.id] }), 201);
    assert.deepEqual(goal.scenarios.sort(), [s1.id, s2.id].sort());
    const direct = ok(await a.call('POST', '/goals', { name: 'Direct', scenario_id: s1.id }), 201);
    assert.equal(direct.scenario_id, s1.id);
    assert.deepEqual(direct.scenarios, [s1.id]);
    const read = ok(await a.call('GET', `/scenarios/${s1.id}`));
    assert.deepEqual(read.goals.sort(), [goal.id, direct.id].sort());
    assert.deepEqual(read.Goals.map((g: { id: string }) => g.id).sort(), [goal.id, direct.id].sort());

    expectError(
      await a.call('POST', '/goals', { name: 'x', scenarios: [s1.id, foreign.id] }),
      400,
      'scenarios[1]',
    );
    expectError(await a.call('POST', '/goals', { name: 'x', scenarios: ['nope'] }), 400, 'scenarios[0]');
    expectError(await a.call('POST', '/goals', { name: 'x', scenario_id: foreign.id }), 400, 'scenario_id');

    // Moving the direct link moves its association; filtering by scenario lists the goals.
    const moved = ok(await a.call('PUT', `/goals/${direct.id}`, { scenario_id: s2.id }));
    assert.equal(moved.scenario_id, s2.id);
    assert.deepEqual(moved.scenarios, [s2.id]);
    const ofS2 = ok<{ id: string }[]>(await a.call('GET', `/goals?scenario_id=${s2.id}`));
    assert.deepEqual(ofS2.map((g) => g.id).sort(), [goal.id, direct.id].sort());
    const replaced = ok(await a.call('PUT', `/goals/${goal.id}`, { scenarios: [s1.id] }));
    assert.deepEqual(replaced.scenarios, [s1.id]);
  });

  test('PUT is partial and answers with the whole goal', async () => {
    const goal = ok(await a.call('POST', '/goals', goalBody), 201);
    t.clock.advance(1000);
    const updated = ok(await a.call('PUT', `/goals/${goal.id}`, { active: false, metrics: null }));
    assert.equal(updated.active, false);
    assert.equal(updated.metrics, null);
    assert.equal(updated.name, goal.name);
    assert.equal(updated.instructions, goal.instructions);
    assert.notEqual(updated.updated_at, goal.updated_at);
    expectError(await a.call('PUT', `/goals/${goal.id}`, { name: 'n'.repeat(101) }), 400, 'name');
    expectError(await a.call('PUT', `/goals/${goal.id}`, { membership_id: 'x' }), 400, 'membership_id');
  });

  test('delete detaches the goal from every scenario', async () => {
    const goal = ok(await a.call('POST', '/goals', { name: 'Doomed' }), 201);
    const keep = ok(await a.call('POST', '/goals', { name: 'Kept' }), 201);
    const s1 = await scenarioOf(a, [goal.id, keep.id]);
    const s2 = await scenarioOf(a, [goal.id]);
    assert.deepEqual(ok(await a.call('DELETE', `/goals/${goal.id}`)), {
      id: goal.id,
      object: 'goal',
      deleted: true,
    });
    assert.deepEqual(ok(await a.call('GET', `/scenarios/${s1.id}`)).goals, [keep.id]);
    assert.deepEqual(ok(await a.call('GET', `/scenarios/${s2.id}`)).Goals, []);
    expectError(await a.call('GET', `/goals/${goal.id}`), 404, 'id');
    expectError(await a.call('DELETE', `/goals/${goal.id}`), 404, 'id');
  });

  test('bulk create: up to 100, all or nothing, errors named goals[i].field', async () => {
    const s = await scenarioOf(a);
    const before = ok<unknown[]>(await a.call('GET', '/goals')).length;
    const created = ok(
      await a.call('POST', '/goals/bulk', {
        goals: [goalBody, { name: 'Second', scenarios: [s.id], active: false }],
      }),
      201,
    );
    assert.equal(created.data.length, 2);
    assert.equal(created.data[0].name, goalBody.name);
    assert.deepEqual(created.data[1].scenarios, [s.id]);
    assert.equal(created.data[1].active, false);

    const hundred = Array.from({ length: 100 }, (_, i) => ({ name: `G${i}` }));
    assert.equal(ok(await a.call('POST', '/goals/bulk', { goals: hundred }), 201).data.length, 100);
    expectError(
      await a.call('POST', '/goals/bulk', { goals: [...hundred, { name: 'one too many' }] }),
      400,
      'goals',
    );
    expectError(await a.call('POST', '/goals/bulk', { goals: [] }), 400, 'goals');

    const countBefore = ok<unknown[]>(await a.call('GET', '/goals')).length;
    assert.equal(countBefore, before + 102);
    expectError(
      await a.call('POST', '/goals/bulk', { goals: [{ name: 'ok' }, { name: 'n'.repeat(101) }] }),
      400,
      'goals[1].name',
    );
    expectError(
      await a.call('POST', '/goals/bulk', {
        goals: [{ name: 'ok' }, { name: 'bad link', scenarios: [crypto.randomUUID()] }],
      }),
      400,
      'goals[1].scenarios[0]',
    );
    assert.equal(ok<unknown[]>(await a.call('GET', '/goals')).length, countBefore);
  });

  test('list: array by default, page envelope on request', async () => {
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      ok(await a.call('POST', '/goals', { name: `L${i}` }), 201);
    }
    const all = ok<{ id: string; name: string }[]>(await a.call('GET', '/goals'));
    assert.ok(Array.isArray(all));
    assert.equal(all[0]!.name, 'L2');
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null; object: string } = ok(
        await a.call('GET', `/goals?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      assert.equal(page.object, 'list');
      ids.push(...page.data.map((g) => g.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(
      ids,
      all.map((g) => g.id),
    );
    expectError(await a.call('GET', '/goals?limit=0'), 400, 'limit');
  });

  test('idempotent create replays the stored response', async () => {
    const first = await a.call('POST', '/goals', { name: 'Once' }, { 'idempotency-key': 'goal-once' });
    const again = await a.call('POST', '/goals', { name: 'Once' }, { 'idempotency-key': 'goal-once' });
    assert.equal(again.headers['idempotency-replayed'], 'true');
    assert.equal(again.json().id, first.json().id);
  });

  test('another workspace gets 404 for every goal route and cannot link foreign goals', async () => {
    const goal = ok(await a.call('POST', '/goals', { name: 'Private' }), 201);
    expectError(await b.call('GET', `/goals/${goal.id}`), 404, 'id');
    expectError(await b.call('PUT', `/goals/${goal.id}`, { name: 'x' }), 404, 'id');
    expectError(await b.call('DELETE', `/goals/${goal.id}`), 404, 'id');
    assert.ok(!ok<{ id: string }[]>(await b.call('GET', '/goals')).some((g) => g.id === goal.id));
    // A scenario of another workspace links nothing and filters to nothing.
    const foreign = await scenarioOf(a, [goal.id]);
    const own = ok(await b.call('POST', '/goals', { name: 'Mine' }), 201);
    expectError(await b.call('PUT', `/goals/${own.id}`, { scenario_id: foreign.id }), 400, 'scenario_id');
    expectError(await b.call('PUT', `/goals/${own.id}`, { scenarios: [foreign.id] }), 400, 'scenarios[0]');
    assert.deepEqual(ok(await b.call('GET', `/goals?scenario_id=${foreign.id}`)), []);
    const persona = ok(await b.call('POST', '/personas', personaBody()), 201);
    expectError(
      await b.call('POST', '/scenarios', {
        name: 'S',
        type: 'roleplay',
        persona_id: persona.id,
        goals: [goal.id],
      }),
      400,
      'goals[0]',
    );
  });
});
