import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  customFunctionsForScenario,
  loadCustomFunctionsForCall,
} from '../../src/platform/custom-functions/queries.ts';
import { CustomFunctionService, webhookUrlProblem } from '../../src/platform/custom-functions/service.ts';
import { insertScenario } from '../fixtures/rows.ts';
import { startPlatform, type TestPlatform } from '../harness.ts';
import { createFunction } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('custom function changes', () => {
  test('http is refused in production', async () => {
    const c = await t.workspace();
    const production = new CustomFunctionService({
      ...t.deps,
      config: { appEnv: 'production', outboundAllowCidrs: '' },
    });
    const principal = {
      kind: 'api_key' as const,
      accountId: c.accountId,
      membershipId: c.membershipId,
      role: 'owner' as const,
      userId: null,
      apiKeyId: c.keyId,
      scopes: null,
      subject: 'test',
    };
    await assert.rejects(
      production.create(principal, { name: 'plain', webhook_url: 'http://tools.example.com/' }),
      (error: { param?: string; message: string }) =>
        error.param === 'webhook_url' && /https/.test(error.message),
    );
    const secure = await production.create(principal, {
      name: 'secure',
      webhook_url: 'https://tools.example.com/',
    });
    assert.equal(secure.webhook_url, 'https://tools.example.com/');
    const policy = { requireHttps: true, allowCidrs: [] };
    assert.match(webhookUrlProblem('http://tools.example.com/', policy)!, /https in production/);
    assert.match(webhookUrlProblem('https://localhost/', policy)!, /non-public/);
    assert.equal(webhookUrlProblem('https://tools.example.com/', policy), null);
  });

  test('names are unique per account (409 duplicate); another account may reuse one', async () => {
    const c = await t.workspace();
    const first = await createFunction(c, { name: 'shared_name' });
    const again = await c.call('POST', '/custom-functions', {
      name: 'shared_name',
      webhook_url: 'https://a.example.com',
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.code, 'duplicate');
    assert.equal(again.json().error.param, 'name');
    const second = await createFunction(c);
    const rename = await c.call('PATCH', `/custom-functions/${second.id}`, { name: 'shared_name' });
    assert.equal(rename.statusCode, 409);
    assert.equal(rename.json().error.param, 'name');
    assert.equal(
      (await c.call('PATCH', `/custom-functions/${first.id}`, { name: 'shared_name' })).statusCode,
      200,
    );
    const other = await t.workspace();
    assert.equal((await createFunction(other, { name: 'shared_name' })).name, 'shared_name');
  });

  test('update, rotate-secret and delete; changes reach every attached scenario at once', async () => {
    const c = await t.workspace();
    const s1 = await insertScenario(t.deps, c.accountId, 'One');
    const s2 = await insertScenario(t.deps, c.accountId, 'Two');
    const fn = await createFunction(c);
    for (const s of [s1, s2]) {
      assert.equal(
        (await c.call('POST', `/scenarios/${s}/custom-functions/${fn.id}/attach`)).statusCode,
        200,
      );
    }
    for (const s of [s1, s2]) {
      const [loaded] = await loadCustomFunctionsForCall(t.deps.db, t.deps.secretBox, c.accountId, s);
      assert.equal(loaded!.webhook_secret, fn.webhook_secret);
    }

    t.clock.advance(1000);
    const newSchema = { type: 'object', properties: { sku: { type: 'string' } } };
    const patched = await c.call('PATCH', `/custom-functions/${fn.id}`, {
      description: 'Finds a product.',
      parameters_schema: newSchema,
      webhook_url: 'https://tools.example.com/v2',
      timeout_ms: 12_000,
      webhook_secret: 'rotated-by-hand-0123456789',
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const p = patched.json().data;
    assert.equal(p.description, 'Finds a product.');
    assert.deepEqual(p.parameters_schema, newSchema);
    assert.equal(p.webhook_url, 'https://tools.example.com/v2');
    assert.equal(p.timeout_ms, 12_000);
    assert.equal(p.webhook_secret_last4, '6789');
    assert.equal(p.webhook_secret, undefined, 'a PATCH never echoes the secret');
    assert.notEqual(p.updated_at, fn.updated_at);
    for (const s of [s1, s2]) {
      const [loaded] = await loadCustomFunctionsForCall(t.deps.db, t.deps.secretBox, c.accountId, s);
      assert.deepEqual(loaded, {
        id: fn.id,
        name: fn.name,
        description: 'Finds a product.',
        parameters_schema: newSchema,
        execution_mode: 'webhook',
        webhook_url: 'https://tools.example.com/v2',
        webhook_secret: 'rotated-by-hand-0123456789',
        timeout_ms: 12_000,
      });
    }
    const badPatch = await c.call('PATCH', `/custom-functions/${fn.id}`, {
      parameters_schema: { type: 'nope' },
    });
    assert.equal(badPatch.statusCode, 400);
    assert.equal(badPatch.json().error.param, 'parameters_schema');

    const rotated = await c.call('POST', `/custom-functions/${fn.id}/rotate-secret`);
    assert.equal(rotated.statusCode, 200, rotated.body);
    const secret = rotated.json().data.webhook_secret;
    assert.match(secret, /^whsec_/);
    const [afterRotate] = await loadCustomFunctionsForCall(t.deps.db, t.deps.secretBox, c.accountId, s2);
    assert.equal(afterRotate!.webhook_secret, secret);

    const summary = await customFunctionsForScenario(t.deps.db, c.accountId, s1);
    assert.equal(summary.length, 1);
    assert.equal(summary[0]!.id, fn.id);
    assert.ok(!JSON.stringify(summary).includes(secret));
    assert.ok(!('webhook_secret' in summary[0]!));

    assert.equal((await c.call('DELETE', `/custom-functions/${fn.id}`)).statusCode, 204);
    assert.equal((await c.call('GET', `/custom-functions/${fn.id}`)).statusCode, 404);
    for (const s of [s1, s2]) {
      assert.deepEqual((await c.call('GET', `/scenarios/${s}/custom-functions`)).json().data, []);
      assert.deepEqual(await loadCustomFunctionsForCall(t.deps.db, t.deps.secretBox, c.accountId, s), []);
    }
  });

  test('the list is cursor-paginated on request', async () => {
    const c = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.unshift((await createFunction(c)).id);
      t.clock.advance(5);
    }
    const first = (await c.call('GET', '/custom-functions?limit=2')).json();
    assert.equal(first.object, 'list');
    assert.equal(first.has_more, true);
    const second = (
      await c.call('GET', `/custom-functions?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
    ).json();
    assert.deepEqual(
      [...first.data, ...second.data].map((f: { id: string }) => f.id),
      ids,
    );
    assert.equal(second.has_more, false);
  });
});
