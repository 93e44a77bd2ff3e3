import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import bcrypt from 'bcryptjs';
import { sha256Hex } from '../../src/core/crypto/hashing.ts';
import { ApiKeyVerifier } from '../../src/platform/api-secrets/key-verifier.ts';
import { bearer, startPlatform, type TestPlatform } from '../harness.ts';

describe('API keys', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform();
  });
  after(() => t.close());

  const get = (token: string, url = '/v1/api-secrets') =>
    t.app.inject({ method: 'GET', url, headers: bearer(token) });

  test('create returns the secret once, in the documented format, with a warning', async () => {
    const ws = await t.signup();
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: { name: 'backend' },
    });
    assert.equal(response.statusCode, 201);
    const { status, message, data } = response.json();
    assert.equal(status, 'success');
    assert.equal(typeof message, 'string');
    assert.match(data.secret, /^svc_[0-9a-f]{64}$/);
    assert.equal(data.secret.length, 68);
    assert.equal(data.secret_prefix, data.secret.slice(0, 12));
    assert.equal(data.is_active, true);
    assert.equal(data.last_used_at, null);
    assert.equal(typeof data.warning, 'string');
    assert.equal(Number.isInteger(data.id), true);

    const listed = get(ws.token);
    const one = get(ws.token, `/v1/api-secrets/${data.id}`);
    for (const read of await Promise.all([listed, one])) {
      assert.equal(read.statusCode, 200);
      assert.ok(!read.body.includes(data.secret), 'the plain secret never appears again');
      assert.ok(!read.body.includes('secret_hash'));
    }
    const row = await t.deps.db
      .selectFrom('api_secrets')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.secret_hash.startsWith('$2'), 'bcrypt hash at rest');
    assert.ok(await bcrypt.compare(data.secret, row.secret_hash));
  });

  test('key ids are random safe integers that reveal no count; a 16-digit id is read back', async () => {
    const ws = await t.signup();
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await t.createApiKey(ws, { name: `k${i}` })).id);
    for (const id of ids) {
      assert.ok(Number.isSafeInteger(id) && id > 0, `${id} is a positive safe integer`);
      const read = await get(ws.token, `/v1/api-secrets/${id}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().data.id, id, 'exact through JSON');
    }
    assert.notEqual(Math.abs(ids[1]! - ids[0]!), 1, 'consecutive keys do not get consecutive ids');
    assert.notEqual(Math.abs(ids[2]! - ids[1]!), 1, 'consecutive keys do not get consecutive ids');
    for (const bad of ['9007199254740993', '12345678901234567', '1e3', '-1']) {
      assert.equal((await get(ws.token, `/v1/api-secrets/${bad}`)).statusCode, 404, bad);
    }
  });

  test('the key authenticates, and last_used_at is kept without a write per request', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const before = await get(ws.token, `/v1/api-secrets/${key.id}`);
    assert.equal(before.json().data.last_used_at, null);
    // Any /v1 route other than /api-secrets accepts the key: the 404 (not 401) proves it authenticated.
    const used = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: bearer(key.secret) });
    assert.equal(used.statusCode, 404);
    const afterUse = await get(ws.token, `/v1/api-secrets/${key.id}`);
    assert.notEqual(afterUse.json().data.last_used_at, null, 'visible at once on this instance');
    const row = await t.deps.db
      .selectFrom('api_secrets')
      .select('last_used_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.last_used_at, null, 'not yet written');
    await t.deps.apiKeys.flushUsage();
    const flushed = await t.deps.db
      .selectFrom('api_secrets')
      .select('last_used_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(flushed.last_used_at, null);
  });

  test('an API key on /api-secrets gets a clear 403', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const response = await get(key.secret);
    assert.equal(response.statusCode, 403);
    assert.equal(response.json().error.code, 'user_token_required');
  });

  test('revoke → 401, reactivate → the same secret works, delete → never again', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const probe = () => t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: bearer(key.secret) });
    assert.equal((await probe()).statusCode, 404);

    const revoked = await t.app.inject({
      method: 'POST',
      url: `/v1/api-secrets/${key.id}/revoke`,
      headers: bearer(ws.token),
    });
    assert.equal(revoked.statusCode, 200);
    assert.deepEqual(revoked.json().data, { id: key.id, name: 'test key', is_active: false });
    assert.equal((await probe()).statusCode, 401, 'revocation is immediate on this instance');

    const reactivated = await t.app.inject({
      method: 'POST',
      url: `/v1/api-secrets/${key.id}/reactivate`,
      headers: bearer(ws.token),
    });
    assert.equal(reactivated.json().data.is_active, true);
    assert.equal((await probe()).statusCode, 404);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/api-secrets/${key.id}`,
      headers: bearer(ws.token),
    });
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.json().status, 'success');
    assert.equal((await probe()).statusCode, 401);
    const gone = await t.app.inject({
      method: 'POST',
      url: `/v1/api-secrets/${key.id}/reactivate`,
      headers: bearer(ws.token),
    });
    assert.equal(gone.statusCode, 404);
  });

  test('another workspace can neither see nor change a key (404)', async () => {
    const owner = await t.signup();
    const stranger = await t.signup();
    const key = await t.createApiKey(owner);
    for (const [method, url] of [
      ['GET', `/v1/api-secrets/${key.id}`],
      ['POST', `/v1/api-secrets/${key.id}/revoke`],
      ['POST', `/v1/api-secrets/${key.id}/reactivate`],
      ['DELETE', `/v1/api-secrets/${key.id}`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: bearer(stranger.token) });
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      assert.equal(response.json().error.code, 'resource_not_found');
    }
    assert.deepEqual((await get(stranger.token)).json().data, []);
    const stillThere = await get(owner.token, `/v1/api-secrets/${key.id}`);
    assert.equal(stillThere.json().data.is_active, true);
  });

  test('scopes: a scoped key is recorded; invalid scopes name the param', async () => {
    const ws = await t.signup();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: { name: 'memory reader', scopes: ['memories:read'] },
    });
    assert.deepEqual(created.json().data.scopes, ['memories:read']);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: { name: 'x', scopes: ['everything'] },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.param, 'scopes[0]');
    const missingName = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: {},
    });
    assert.equal(missingName.statusCode, 400);
    assert.equal(missingName.json().error.param, 'name');
  });

  test('scopes: the list is what the routes ask for, and a scope outside it is refused by name', async () => {
    const ws = await t.signup();
    const listed = await get(ws.token, '/v1/api-secrets/scopes');
    assert.equal(listed.statusCode, 200, listed.body);
    const entries = listed.json().data as Array<{ scope: string; operations: number }>;
    const scopes = entries.map((entry) => entry.scope);
    for (const scope of [
      'meetings:read',
      'meetings:write',
      'memories:read',
      'scenarios:write',
      'webhooks:read',
      'mailbox:write',
    ]) {
      assert.ok(scopes.includes(scope), `${scope} is listed`);
    }
    assert.deepEqual(scopes, [...scopes].sort(), 'sorted');
    assert.ok(entries.every((entry) => /^[a-z_]+:(read|write)$/.test(entry.scope)));
    assert.ok(entries.find((entry) => entry.scope === 'meetings:read')!.operations > 1);
    // API keys are managed with a signed-in user's token only: no key scope reaches them.
    assert.ok(!scopes.includes('api_secrets:read') && !scopes.includes('api_secrets:write'));
    // Nor to the public routes (sign-up, sign-in), which ask no credential at all.
    assert.ok(!scopes.some((scope) => scope.startsWith('auth:')));

    // Every listed scope is accepted; one no operation asks for is refused, naming its position.
    const all = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: { name: 'every scope', scopes: scopes.slice(0, 20) },
    });
    assert.equal(all.statusCode, 201, all.body);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(ws.token),
      payload: { name: 'typo', scopes: ['meetings:read', 'meeting:read'] },
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().error.code, 'parameter_invalid');
    assert.equal(unknown.json().error.param, 'scopes[1]');
    assert.match(unknown.json().error.message, /meeting:read is not a scope/);
    // A key made with the listed scope works for the operation that asks for it.
    const key = await t.createApiKey(ws, { name: 'meetings reader', scopes: ['meetings:read'] });
    assert.equal((await get(key.secret, '/v1/meetings')).statusCode, 200);
    assert.equal((await get(key.secret, '/v1/personas')).statusCode, 403);
  });

  test('a scoped key gets 403 outside its scopes, also on routes that declare none', async () => {
    const ws = await t.signup();
    const call = (secret: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: bearer(secret), ...(payload ? { payload } : {}) });
    const memories = await t.createApiKey(ws, { name: 'memories', scopes: ['memories:read'] });
    for (const [method, url, scope] of [
      ['GET', '/v1/scenarios', 'scenarios:read'],
      ['GET', '/v1/custom-functions', 'custom_functions:read'],
      ['POST', '/v1/goals', 'goals:write'],
    ] as const) {
      const denied = await call(memories.secret, method, url, method === 'POST' ? { name: 'g' } : undefined);
      assert.equal(denied.statusCode, 403, `${method} ${url}`);
      assert.equal(denied.json().error.code, 'insufficient_scope');
      assert.equal(denied.json().error.param, 'scope');
      assert.match(denied.json().error.message, new RegExp(scope));
    }
    // Without a declared scope, a route needs `<first path segment>:read|write`.
    const goals = await t.createApiKey(ws, { name: 'goals reader', scopes: ['goals:read'] });
    assert.equal((await call(goals.secret, 'GET', '/v1/goals')).statusCode, 200);
    assert.equal((await call(goals.secret, 'POST', '/v1/goals', { name: 'g' })).statusCode, 403);
    assert.equal((await call(goals.secret, 'GET', '/v1/nothing-here')).statusCode, 404, 'unknown paths 404');
    const unscoped = await t.createApiKey(ws, { name: 'full' });
    assert.equal((await call(unscoped.secret, 'GET', '/v1/scenarios')).statusCode, 200);
    // An import creates more than a scenario: scenarios:write alone does not reach it.
    const exported = (await call(unscoped.secret, 'GET', '/v1/scenarios')).json().data[0];
    const bundle = (await call(unscoped.secret, 'GET', `/v1/scenarios/${exported.id}/export`)).json();
    const scenariosOnly = await t.createApiKey(ws, { name: 'scenarios', scopes: ['scenarios:write'] });
    const narrow = await call(scenariosOnly.secret, 'POST', '/v1/scenarios/import', bundle);
    assert.equal(narrow.statusCode, 403, narrow.body);
    assert.match(narrow.json().error.message, /personas:write/);
    const importer = await t.createApiKey(ws, {
      name: 'importer',
      scopes: [
        'scenarios:write',
        'personas:write',
        'goals:write',
        'guardrails:write',
        'custom_functions:write',
      ],
    });
    const imported = await call(importer.secret, 'POST', '/v1/scenarios/import', bundle);
    assert.equal(imported.statusCode, 201, imported.body);
  });

  test('verified keys are cached by SHA-256: no bcrypt or lookup per request, eviction on change', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const verifier = new ApiKeyVerifier(t.deps.db, t.clock);
    assert.ok(await verifier.verify(key.secret));
    // Change the row behind the cache's back: a cached key does not touch the database.
    await t.deps.db.updateTable('api_secrets').set({ is_active: false }).where('id', '=', key.id).execute();
    assert.ok(await verifier.verify(key.secret), 'served from cache');
    verifier.evict(sha256Hex(key.secret));
    assert.equal(await verifier.verify(key.secret), null);
    await t.deps.db.updateTable('api_secrets').set({ is_active: true }).where('id', '=', key.id).execute();
    assert.ok(await verifier.verify(key.secret));
    await t.deps.db.updateTable('api_secrets').set({ is_active: false }).where('id', '=', key.id).execute();
    t.clock.advance(31_000);
    assert.equal(await verifier.verify(key.secret), null, 'the cache lifetime bounds staleness');
  });

  test('a burst with one key shares one verification; an expired entry is re-read, not re-hashed', async (context) => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const verifier = new ApiKeyVerifier(t.deps.db, t.clock);
    const compare = context.mock.method(bcrypt, 'compare');
    const burst = await Promise.all(Array.from({ length: 20 }, () => verifier.verify(key.secret)));
    assert.equal(new Set(burst).size, 1, 'one verification served all twenty requests');
    assert.ok(burst[0]);
    assert.equal(compare.mock.callCount(), 1, 'bcrypt ran once for the burst');
    t.clock.advance(31_000);
    const revalidated = await verifier.verify(key.secret);
    assert.equal(revalidated?.apiKeyId, key.id, 'still active, same hash: valid again');
    assert.equal(compare.mock.callCount(), 1, 'revalidated without bcrypt');
    // A different stored hash (the secret no longer matches it) is checked with bcrypt and refused.
    await t.deps.db
      .updateTable('api_secrets')
      .set({ secret_hash: await bcrypt.hash('another secret', 4) })
      .where('id', '=', key.id)
      .execute();
    t.clock.advance(31_000);
    assert.equal(await verifier.verify(key.secret), null);
    assert.equal(compare.mock.callCount(), 2, 'a changed hash is checked with bcrypt');
  });

  test('a revocation drops a verification already under way: later requests do not share it', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const verifier = new ApiKeyVerifier(t.deps.db, t.clock);
    const early = verifier.verify(key.secret);
    await t.deps.db.updateTable('api_secrets').set({ is_active: false }).where('id', '=', key.id).execute();
    verifier.evict(sha256Hex(key.secret));
    const late = verifier.verify(key.secret);
    await early; // raced the revocation: either answer is right for it
    assert.equal(await late, null, 'a request after it is checked afresh');
    assert.equal(await verifier.verify(key.secret), null, 'and nothing stale was cached');
  });

  test('a revocation on one instance reaches another instance through NOTIFY', async () => {
    const ws = await t.signup();
    const key = await t.createApiKey(ws);
    const other = new ApiKeyVerifier(t.deps.db, t.clock);
    const unlisten = await t.deps.database.listen('api_secret_changed', (hash) => other.evict(hash));
    try {
      assert.ok(await other.verify(key.secret));
      await t.app.inject({
        method: 'POST',
        url: `/v1/api-secrets/${key.id}/revoke`,
        headers: bearer(ws.token),
      });
      let verified = await other.verify(key.secret);
      for (let i = 0; verified && i < 50; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        verified = await other.verify(key.secret);
      }
      assert.equal(verified, null);
    } finally {
      await unlisten();
    }
  });

  test('malformed keys and unknown keys get 401 without touching bcrypt', async () => {
    for (const token of ['svc_123', `svc_${'0'.repeat(64)}`, `SVC_${'a'.repeat(64)}`]) {
      const response = await get(token, '/v1/nothing');
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error.type, 'authentication_error');
    }
  });
});
