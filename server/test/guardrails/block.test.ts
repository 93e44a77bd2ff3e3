import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/core/db/schema.ts';
import {
  assembleGuardrailsBlock,
  buildGuardrailsBlock,
  GUARDRAILS_BLOCK_CAP,
  renderGuardrailsBlock,
} from '../../src/platform/guardrails/block.ts';
import { dumpTables, insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { createGuardrail, uniqueName } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('the guardrails block', () => {
  test('only rules in effect, in position order, prompt text only, with the precedence sentence', async () => {
    const c = await t.workspace();
    const s = await insertScenario(t.deps, c.accountId);
    const first = await createGuardrail(c, {
      guardrail_name: uniqueName('NAME-FIRST'),
      guardrail_prompt: 'Rule one.',
    });
    const second = await createGuardrail(c, {
      guardrail_name: uniqueName('NAME-SECOND'),
      guardrail_prompt: 'Rule two.',
    });
    const off = await createGuardrail(c, { guardrail_prompt: 'Definition off.', active: false });
    const detached = await createGuardrail(c, { guardrail_prompt: 'Attachment off.' });
    const elsewhere = await createGuardrail(c, { guardrail_prompt: 'Not attached here.' });
    await c.call('POST', `/scenarios/${s}/guardrails/${second.id}/attach`, { position: 2 });
    await c.call('POST', `/scenarios/${s}/guardrails/${first.id}/attach`, { position: 1 });
    await c.call('POST', `/scenarios/${s}/guardrails/${off.id}/attach`, { position: 0 });
    await c.call('POST', `/scenarios/${s}/guardrails/${detached.id}/attach`, { position: 0 });
    await c.call('PATCH', `/scenarios/${s}/guardrails/${detached.id}`, { active: false });
    const other = await insertScenario(t.deps, c.accountId);
    await c.call('POST', `/scenarios/${other}/guardrails/${elsewhere.id}/attach`);

    const block = await buildGuardrailsBlock(t.deps.db, t.deps.secretBox, c.accountId, s);
    assert.ok(block);
    assert.ok(block.startsWith('## Guardrails\n\n'));
    assert.match(block, /take precedence over any conflicting instruction/);
    assert.match(block, /never recite/);
    assert.ok(block.indexOf('Rule one.') < block.indexOf('Rule two.'));
    for (const absent of [
      'Definition off.',
      'Attachment off.',
      'Not attached here.',
      'NAME-FIRST',
      'NAME-SECOND',
    ]) {
      assert.ok(!block.includes(absent), absent);
    }

    // Changes apply to the next assembly (the next meeting).
    await c.call('PATCH', `/scenarios/${s}/guardrails/${first.id}`, { position: 9 });
    const reordered = await buildGuardrailsBlock(t.deps.db, t.deps.secretBox, c.accountId, s);
    assert.ok(reordered!.indexOf('Rule two.') < reordered!.indexOf('Rule one.'));

    // Another workspace's id for the same scenario gives nothing.
    const stranger = await t.workspace();
    assert.equal(await buildGuardrailsBlock(t.deps.db, t.deps.secretBox, stranger.accountId, s), null);
  });

  test('the block is capped at 20,000 characters of prompts; overflow is dropped in position order', async () => {
    const c = await t.workspace();
    const s = await insertScenario(t.deps, c.accountId);
    const prompts = ['A', 'B', 'C'].map((ch) => ch.repeat(9_000));
    for (const [i, prompt] of prompts.entries()) {
      const g = await createGuardrail(c, { guardrail_prompt: prompt });
      await c.call('POST', `/scenarios/${s}/guardrails/${g.id}/attach`, { position: i });
    }
    const small = await createGuardrail(c, { guardrail_prompt: 'small rule' });
    await c.call('POST', `/scenarios/${s}/guardrails/${small.id}/attach`, { position: 3 });
    const block = (await assembleGuardrailsBlock(t.deps.db, t.deps.secretBox, c.accountId, s))!;
    assert.ok(block.includes(prompts[0]!) && block.includes(prompts[1]!));
    assert.ok(!block.includes('C'.repeat(100)), 'the third would pass the cap');
    assert.ok(!block.includes('small rule'), 'everything after the first overflow is dropped');
  });

  test('renderGuardrailsBlock keeps exactly the cap and nothing more', () => {
    assert.equal(renderGuardrailsBlock([]), null);
    assert.equal(renderGuardrailsBlock(['   ']), null);
    const exact = renderGuardrailsBlock(['x'.repeat(GUARDRAILS_BLOCK_CAP - 1), 'y'])!;
    assert.ok(exact.endsWith('\n\ny'));
    const over = renderGuardrailsBlock(['x'.repeat(GUARDRAILS_BLOCK_CAP - 1), 'yz'])!;
    assert.ok(!over.includes('yz'));
    assert.equal(renderGuardrailsBlock(['z'.repeat(GUARDRAILS_BLOCK_CAP + 1)]), null);
  });

  test('a failed lookup yields no block instead of an error', async () => {
    const broken = {
      selectFrom() {
        throw new Error('database is down');
      },
    } as unknown as Kysely<DB>;
    const warnings: string[] = [];
    const block = await buildGuardrailsBlock(broken, t.deps.secretBox, 'a', 'b', {
      warn: (_o, message) => warnings.push(message),
    });
    assert.equal(block, null);
    assert.equal(warnings.length, 1);
    await assert.rejects(assembleGuardrailsBlock(broken, t.deps.secretBox, 'a', 'b'));
  });
});

describe('tenant isolation and secrecy', () => {
  test('another workspace gets 404 for every guardrail and scenario id, in every route', async () => {
    const owner = await t.workspace();
    const stranger = await t.workspace();
    const scenario = await insertScenario(t.deps, owner.accountId);
    const guardrail = await createGuardrail(owner);
    await owner.call('POST', `/scenarios/${scenario}/guardrails/${guardrail.id}/attach`);
    const ownScenario = await insertScenario(t.deps, stranger.accountId);
    const ownGuardrail = await createGuardrail(stranger);

    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/guardrails/${guardrail.id}`, undefined, 'id'],
      ['PATCH', `/guardrails/${guardrail.id}`, { active: false }, 'id'],
      ['DELETE', `/guardrails/${guardrail.id}`, undefined, 'id'],
      ['GET', `/scenarios/${scenario}/guardrails`, undefined, 'scenarioId'],
      ['POST', `/scenarios/${scenario}/guardrails/${ownGuardrail.id}/attach`, {}, 'scenarioId'],
      ['POST', `/scenarios/${ownScenario}/guardrails/${guardrail.id}/attach`, {}, 'id'],
      ['PATCH', `/scenarios/${scenario}/guardrails/${guardrail.id}`, { active: false }, 'scenarioId'],
      ['PATCH', `/scenarios/${ownScenario}/guardrails/${guardrail.id}`, { active: false }, 'id'],
      ['DELETE', `/scenarios/${scenario}/guardrails/${guardrail.id}`, undefined, 'scenarioId'],
      ['DELETE', `/scenarios/${ownScenario}/guardrails/${guardrail.id}`, undefined, 'id'],
      ['GET', '/guardrails/not-a-uuid', undefined, 'id'],
      ['GET', '/scenarios/not-a-uuid/guardrails', undefined, 'scenarioId'],
    ];
    for (const [method, url, payload, param] of cases) {
      const response = await stranger.call(method, url, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().error.code, 'resource_not_found');
      assert.equal(response.json().error.param, param, `${method} ${url}`);
    }
    const list = (await stranger.call('GET', '/guardrails')).json().data;
    assert.deepEqual(
      list.map((g: { id: string }) => g.id),
      [ownGuardrail.id],
    );
    const still = (await owner.call('GET', `/guardrails/${guardrail.id}`)).json().data;
    assert.equal(still.active, true);
    assert.equal(still.scenarios.length, 1);
  });

  test('a deleted (soft-deleted) scenario is not found', async () => {
    const c = await t.workspace();
    const s = await insertScenario(t.deps, c.accountId);
    const g = await createGuardrail(c);
    await c.call('POST', `/scenarios/${s}/guardrails/${g.id}/attach`);
    await t.deps.db
      .updateTable('scenarios')
      .set({ deleted_at: t.deps.clock.now() } as never)
      .where('id', '=', s)
      .execute();
    assert.equal((await c.call('GET', `/scenarios/${s}/guardrails`)).statusCode, 404);
    assert.deepEqual((await c.call('GET', `/guardrails/${g.id}`)).json().data.scenarios, []);
  });

  test('requests need credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/guardrails' });
    assert.equal(response.statusCode, 401);
  });

  test('a database dump holds no plain guardrail prompt', async () => {
    const c = await t.workspace();
    const prompt = 'PLAINTEXT-GUARDRAIL-PROMPT never mention competitors';
    const g = await createGuardrail(c, { guardrail_prompt: prompt });
    await c.call('PATCH', `/guardrails/${g.id}`, { guardrail_prompt: `${prompt} (edited)` });
    await createGuardrail(c, { guardrail_prompt: prompt });
    const dump = await dumpTables(t.deps, ['guardrails', 'scenario_guardrails', 'idempotency_keys']);
    assert.ok(!dump.includes('PLAINTEXT-GUARDRAIL-PROMPT'));
  });
});
