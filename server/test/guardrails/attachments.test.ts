import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildGuardrailsBlock } from '../../src/platform/guardrails/block.ts';
import { guardrailsForScenario } from '../../src/platform/guardrails/queries.ts';
import { insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { createGuardrail, uniqueName } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('attachments', () => {
  test('attach appends, is idempotent, re-activates, moves; patch and detach', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId, 'Sales call');
    const a = await createGuardrail(c);
    const b = await createGuardrail(c);
    const g = await createGuardrail(c);

    const first = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${a.id}/attach`);
    assert.equal(first.statusCode, 200, first.body);
    const att = first.json().data;
    assert.equal(att.id, a.id);
    assert.equal(att.guardrail_prompt, a.guardrail_prompt);
    assert.deepEqual(
      { ...att.attachment, attached_at: undefined, updated_at: undefined },
      { scenario_id: scenarioId, active: true, position: 0, attached_at: undefined, updated_at: undefined },
    );
    assert.equal(att.in_effect, true);

    t.clock.advance(10);
    const second = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${b.id}/attach`, {});
    assert.equal(second.json().data.attachment.position, 1, 'appended after the last one');
    t.clock.advance(10);
    const third = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${g.id}/attach`, { position: 0 });
    assert.equal(third.json().data.attachment.position, 0);

    t.clock.advance(500);
    const again = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${a.id}/attach`);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().data.attachment.attached_at, att.attachment.attached_at, 'idempotent');
    assert.equal(again.json().data.attachment.position, 0, 'position kept when not given');

    const listed = (await c.call('GET', `/scenarios/${scenarioId}/guardrails`)).json();
    assert.deepEqual(
      listed.data.map((x: { id: string }) => x.id),
      [a.id, g.id, b.id],
      'position, then attach time',
    );

    const disabled = await c.call('PATCH', `/scenarios/${scenarioId}/guardrails/${a.id}`, {
      active: false,
      position: 5,
    });
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.equal(disabled.json().data.attachment.active, false);
    assert.equal(disabled.json().data.attachment.position, 5);
    assert.equal(disabled.json().data.in_effect, false);

    const reattached = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${a.id}/attach`);
    assert.equal(reattached.json().data.attachment.active, true, 're-attach re-activates');
    assert.equal(reattached.json().data.attachment.position, 5);
    const moved = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${a.id}/attach`, { position: 3 });
    assert.equal(moved.json().data.attachment.position, 3);

    const single = (await c.call('GET', `/guardrails/${a.id}`)).json().data;
    assert.equal(single.scenarios.length, 1);
    assert.equal(single.scenarios[0].id, scenarioId);
    assert.equal(single.scenarios[0].name, 'Sales call');
    assert.equal(single.scenarios[0].active, true);
    assert.equal(single.scenarios[0].position, 3);

    const detach = await c.call('DELETE', `/scenarios/${scenarioId}/guardrails/${a.id}`);
    assert.equal(detach.statusCode, 204);
    assert.equal((await c.call('DELETE', `/scenarios/${scenarioId}/guardrails/${a.id}`)).statusCode, 404);
    assert.equal(
      (await c.call('PATCH', `/scenarios/${scenarioId}/guardrails/${a.id}`, { active: true })).statusCode,
      404,
    );
    assert.deepEqual((await c.call('GET', `/guardrails/${a.id}`)).json().data.scenarios, []);
  });

  test('attachment payloads are validated', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const g = await createGuardrail(c);
    for (const position of [-1, 1.5, 'first', 1_000_001]) {
      const response = await c.call('POST', `/scenarios/${scenarioId}/guardrails/${g.id}/attach`, {
        position,
      });
      assert.equal(response.statusCode, 400, String(position));
      assert.equal(response.json().error.param, 'position');
    }
    await c.call('POST', `/scenarios/${scenarioId}/guardrails/${g.id}/attach`);
    const bad = await c.call('PATCH', `/scenarios/${scenarioId}/guardrails/${g.id}`, {
      active: 'no',
      extra: 1,
    });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(
      bad
        .json()
        .errors.map((e: { param: string }) => e.param)
        .sort(),
      ['active', 'extra'],
    );
  });

  test('the scenario list pages in block order', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const g = await createGuardrail(c);
      await c.call('POST', `/scenarios/${scenarioId}/guardrails/${g.id}/attach`, { position: 10 - i });
      ids.unshift(g.id);
    }
    const seen: string[] = [];
    let url = `/scenarios/${scenarioId}/guardrails?limit=2`;
    for (;;) {
      const page = (await c.call('GET', url)).json();
      seen.push(...page.data.map((x: { id: string }) => x.id));
      if (!page.has_more) break;
      url = `/scenarios/${scenarioId}/guardrails?limit=2&cursor=${encodeURIComponent(page.next_cursor)}`;
    }
    assert.deepEqual(seen, ids);
  });

  test('deleting a guardrail detaches it everywhere; a definition switched off leaves every scenario', async () => {
    const c = await t.workspace();
    const s1 = await insertScenario(t.deps, c.accountId);
    const s2 = await insertScenario(t.deps, c.accountId);
    const g = await createGuardrail(c);
    await c.call('POST', `/scenarios/${s1}/guardrails/${g.id}/attach`);
    await c.call('POST', `/scenarios/${s2}/guardrails/${g.id}/attach`);
    assert.equal((await c.call('GET', `/guardrails/${g.id}`)).json().data.scenarios.length, 2);

    await c.call('PATCH', `/guardrails/${g.id}`, { active: false });
    for (const s of [s1, s2]) {
      assert.equal(await buildGuardrailsBlock(t.deps.db, t.deps.secretBox, c.accountId, s), null);
      const listed = (await c.call('GET', `/scenarios/${s}/guardrails`)).json().data;
      assert.equal(listed[0].in_effect, false);
      assert.equal(listed[0].attachment.active, true);
    }

    await c.call('DELETE', `/guardrails/${g.id}`);
    for (const s of [s1, s2]) {
      assert.deepEqual((await c.call('GET', `/scenarios/${s}/guardrails`)).json().data, []);
    }
    const rows = await t.deps.db
      .selectFrom('scenario_guardrails')
      .selectAll()
      .where('guardrail_id', '=', g.id)
      .execute();
    assert.equal(rows.length, 0);
  });

  test('guardrailsForScenario gives names and switches, never the prompt', async () => {
    const c = await t.workspace();
    const s = await insertScenario(t.deps, c.accountId);
    const a = await createGuardrail(c, { guardrail_prompt: 'SECRET-RULE-TEXT' });
    const b = await createGuardrail(c, { active: false });
    await c.call('POST', `/scenarios/${s}/guardrails/${a.id}/attach`, { position: 2 });
    await c.call('POST', `/scenarios/${s}/guardrails/${b.id}/attach`, { position: 1 });
    await c.call('PATCH', `/scenarios/${s}/guardrails/${a.id}`, { active: false });
    const summary = await guardrailsForScenario(t.deps.db, c.accountId, s);
    assert.deepEqual(summary, [
      { id: b.id, guardrail_name: b.guardrail_name, active: false, attachment_active: true, position: 1 },
      { id: a.id, guardrail_name: a.guardrail_name, active: true, attachment_active: false, position: 2 },
    ]);
    assert.ok(!JSON.stringify(summary).includes('SECRET-RULE-TEXT'));
    const other = await t.workspace();
    assert.deepEqual(await guardrailsForScenario(t.deps.db, other.accountId, s), []);
  });
});
