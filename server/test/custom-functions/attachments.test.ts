import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadCustomFunctionsForCall } from '../../src/platform/custom-functions/queries.ts';
import { dumpTables, insertScenario } from '../fixtures/rows.ts';
import { startPlatform, type TestPlatform } from '../harness.ts';
import { createFunction } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('attachments', () => {
  test('attach is idempotent; list in attach order; detach', async () => {
    const c = await t.workspace();
    const s = await insertScenario(t.deps, c.accountId, 'Support line');
    const a = await createFunction(c);
    const b = await createFunction(c);
    const first = await c.call('POST', `/scenarios/${s}/custom-functions/${a.id}/attach`);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.id, a.id);
    assert.ok(first.json().data.attached_at);
    assert.equal(first.json().data.webhook_secret, undefined);
    t.clock.advance(100);
    const again = await c.call('POST', `/scenarios/${s}/custom-functions/${a.id}/attach`);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().data.attached_at, first.json().data.attached_at);
    await c.call('POST', `/scenarios/${s}/custom-functions/${b.id}/attach`);

    const listed = (await c.call('GET', `/scenarios/${s}/custom-functions`)).json().data;
    assert.deepEqual(
      listed.map((f: { id: string }) => f.id),
      [a.id, b.id],
    );
    const paged = (await c.call('GET', `/scenarios/${s}/custom-functions?limit=1`)).json();
    assert.equal(paged.has_more, true);
    const rest = (
      await c.call(
        'GET',
        `/scenarios/${s}/custom-functions?limit=1&cursor=${encodeURIComponent(paged.next_cursor)}`,
      )
    ).json();
    assert.deepEqual(
      [...paged.data, ...rest.data].map((f: { id: string }) => f.id),
      [a.id, b.id],
    );

    const single = (await c.call('GET', `/custom-functions/${a.id}`)).json().data;
    assert.deepEqual(
      single.scenarios.map((x: { id: string; name: string }) => [x.id, x.name]),
      [[s, 'Support line']],
    );

    assert.equal((await c.call('DELETE', `/scenarios/${s}/custom-functions/${a.id}`)).statusCode, 204);
    const gone = await c.call('DELETE', `/scenarios/${s}/custom-functions/${a.id}`);
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().error.param, 'functionId');
    assert.deepEqual(
      (await c.call('GET', `/scenarios/${s}/custom-functions`)).json().data.map((f: { id: string }) => f.id),
      [b.id],
    );
  });

  test('another workspace gets 404 for every id, in every route', async () => {
    const owner = await t.workspace();
    const stranger = await t.workspace();
    const scenario = await insertScenario(t.deps, owner.accountId);
    const fn = await createFunction(owner);
    await owner.call('POST', `/scenarios/${scenario}/custom-functions/${fn.id}/attach`);
    const ownScenario = await insertScenario(t.deps, stranger.accountId);
    const ownFn = await createFunction(stranger);

    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/custom-functions/${fn.id}`, undefined, 'id'],
      ['PATCH', `/custom-functions/${fn.id}`, { timeout_ms: 200 }, 'id'],
      ['POST', `/custom-functions/${fn.id}/rotate-secret`, undefined, 'id'],
      ['DELETE', `/custom-functions/${fn.id}`, undefined, 'id'],
      ['GET', `/scenarios/${scenario}/custom-functions`, undefined, 'scenarioId'],
      ['POST', `/scenarios/${scenario}/custom-functions/${ownFn.id}/attach`, undefined, 'scenarioId'],
      ['POST', `/scenarios/${ownScenario}/custom-functions/${fn.id}/attach`, undefined, 'functionId'],
      ['DELETE', `/scenarios/${scenario}/custom-functions/${fn.id}`, undefined, 'scenarioId'],
      ['DELETE', `/scenarios/${ownScenario}/custom-functions/${fn.id}`, undefined, 'functionId'],
      ['GET', '/custom-functions/123', undefined, 'id'],
    ];
    for (const [method, url, payload, param] of cases) {
      const response = await stranger.call(method, url, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().error.param, param, `${method} ${url}`);
    }
    assert.deepEqual(
      (await stranger.call('GET', '/custom-functions')).json().data.map((f: { id: string }) => f.id),
      [ownFn.id],
    );
    assert.deepEqual(
      await loadCustomFunctionsForCall(t.deps.db, t.deps.secretBox, stranger.accountId, scenario),
      [],
    );
    const still = (await owner.call('GET', `/custom-functions/${fn.id}`)).json().data;
    assert.equal(still.timeout_ms, fn.timeout_ms);
    assert.equal(still.scenarios.length, 1);
  });

  test('a database dump holds no function secret', async () => {
    const c = await t.workspace();
    const generated = await createFunction(c);
    const chosen = await createFunction(c, { webhook_secret: 'PLAIN-FUNCTION-SECRET-0001' });
    await c.call('PATCH', `/custom-functions/${chosen.id}`, { webhook_secret: 'PLAIN-FUNCTION-SECRET-0002' });
    const rotated = (await c.call('POST', `/custom-functions/${generated.id}/rotate-secret`)).json().data;
    const dump = await dumpTables(t.deps, [
      'custom_functions',
      'scenario_custom_functions',
      'idempotency_keys',
    ]);
    for (const secret of [generated.webhook_secret, rotated.webhook_secret, 'PLAIN-FUNCTION-SECRET']) {
      assert.ok(!dump.includes(secret), secret);
    }
  });
});
