import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';
import { startWithPrincipals } from './principals.ts';

/**
 * Every principal against every route: missing and unknown tokens, the admin key, platform keys
 * (owner, teammate, another workspace), scoped keys (all inboxes, one inbox, one pod, revoked),
 * including the probing and widening cases.
 */
describe('principals: visibility, key management, widening, revocation, rate limit', () => {
  let t: TestMailbox;
  const keys: Record<string, string> = {};
  let mine: { inbox_id: string };
  let theirs: { inbox_id: string };
  let podInbox: { inbox_id: string };
  let podId: string;

  before(async () => {
    ({ t, mine, theirs, podInbox, podId } = await startWithPrincipals().then((p) => {
      Object.assign(keys, p.keys);
      return p;
    }));
  });
  after(() => t.close());

  const globalRoutes: Array<[string, string, unknown?]> = [
    ['GET', '/v0/inboxes'],
    ['POST', '/v0/inboxes', { username: 'nobody-here' }],
    ['GET', '/v0/pods'],
    ['POST', '/v0/pods', { name: 'p' }],
    ['GET', '/v0/domains'],
    ['POST', '/v0/domains', { domain: 'x.example.com' }],
    ['POST', '/v0/domains/x.example.com/verify'],
    ['GET', '/v0/block-list'],
    ['POST', '/v0/api-keys', { name: 'k' }],
    ['GET', '/v0/api-keys'],
    ['DELETE', '/v0/api-keys/key_x'],
    ['POST', '/v0/webhooks', { url: 'https://example.com/h', event_types: ['message.received'] }],
    ['GET', '/v0/webhooks'],
    ['GET', '/v0/webhooks/whk_x'],
    ['PATCH', '/v0/webhooks/whk_x', { enabled: false }],
    ['DELETE', '/v0/webhooks/whk_x'],
    ['GET', '/v0/webhooks/whk_x/deliveries'],
    ['POST', '/v0/webhooks/deliveries/00000000-0000-0000-0000-000000000000/retry'],
  ];

  test('teammates share inboxes; other workspaces and scoped keys see only their own', async () => {
    const ids = async (key: string) =>
      (await t.request('GET', '/v0/inboxes?limit=100', key)).body.inboxes.map(
        (i: { inbox_id: string }) => i.inbox_id,
      );
    assert.deepEqual(await ids(keys.owner!), [mine.inbox_id]);
    assert.deepEqual(await ids(keys.teammate!), [mine.inbox_id]);
    assert.deepEqual(await ids(keys.stranger!), [theirs.inbox_id]);
    assert.deepEqual(await ids(keys.scopedMine!), [mine.inbox_id]);
    assert.deepEqual(await ids(keys.scopedPod!), [podInbox.inbox_id]);
    const all = await ids(keys.admin!);
    for (const id of [mine.inbox_id, theirs.inbox_id, podInbox.inbox_id])
      assert.ok(all.includes(id), `admin sees ${id}`);
  });

  test('only the admin key manages API keys', async () => {
    for (const who of ['owner', 'scopedMine', 'scopedPod']) {
      for (const [method, url, payload] of globalRoutes.filter(([, u]) => u.startsWith('/v0/api-keys'))) {
        const response = await t.request(method, url, keys[who]!, payload);
        assert.equal(response.status, 403, `${who} ${method} ${url}`);
        assert.equal(response.body.error.code, 'permission_denied');
      }
    }
    const listed = await t.request('GET', '/v0/api-keys?limit=100', keys.admin!);
    assert.equal(listed.status, 200);
    assert.ok(
      listed.body.api_keys.every((k: Record<string, unknown>) => !('api_key' in k)),
      'metadata only',
    );
    assert.ok(listed.body.api_keys.every((k: { key_id: string }) => k.key_id.startsWith('key_')));
    const aliased = await t.createScopedKey({ name: 'alias', permissions: ['inboxes.read'] });
    assert.deepEqual((aliased as unknown as { scopes: string[] }).scopes, ['inboxes.read']);
    assert.match(aliased.api_key, /^aik_/);
    // Stored as a hash: no column of the row holds the secret.
    const stored = await t.deps.db
      .selectFrom('mailbox_api_keys')
      .selectAll()
      .where('id', '=', aliased.key_id)
      .executeTakeFirstOrThrow();
    assert.ok(
      Object.values(stored).every((value) => !JSON.stringify(value ?? null).includes(aliased.api_key)),
      'the secret is not stored',
    );
    assert.equal(stored.lookup_hash, createHash('sha256').update(aliased.api_key).digest('hex'));

    const lastUsed = async () =>
      (await t.request('GET', '/v0/api-keys?limit=100', keys.admin!)).body.api_keys.find(
        (k: { key_id: string }) => k.key_id === aliased.key_id,
      ).last_used_at;
    assert.equal(await lastUsed(), null, 'never used yet');
    assert.equal((await t.request('GET', '/v0/inboxes', aliased.api_key)).status, 200);
    assert.equal(await lastUsed(), t.clock.now().toISOString());
  });

  test('restricted keys cannot create namespace-level resources', async () => {
    for (const [method, url, payload] of [
      ['POST', '/v0/inboxes', { username: 'x' }],
      ['POST', '/v0/pods', { name: 'x' }],
      ['POST', '/v0/domains', { domain: 'y.example.com' }],
      ['GET', '/v0/block-list'],
    ] as Array<[string, string, unknown?]>) {
      const response = await t.request(method, url, keys.scopedMine!, payload);
      assert.equal(response.status, 403, `${method} ${url}`);
    }
    const podKeyInbox = await t.request('POST', '/v0/inboxes', keys.scopedPod!, { username: t.unique() });
    assert.equal(podKeyInbox.status, 201);
    assert.equal(podKeyInbox.body.pod_id, podId, 'a pod key creates inside its pod');
  });

  test('a pod is visible only to the keys that reach it, exactly like an absent one otherwise', async () => {
    for (const who of ['admin', 'scopedPod']) {
      const pod = await t.request('GET', `/v0/pods/${podId}`, keys[who]!);
      assert.equal(pod.status, 200, who);
      assert.equal(pod.body.pod_id, podId);
    }
    const absent = await t.request('GET', '/v0/pods/pod_absent', keys.admin!);
    for (const who of ['owner', 'stranger', 'scopedMine']) {
      const hidden = await t.request('GET', `/v0/pods/${podId}`, keys[who]!);
      assert.equal(hidden.status, 404, who);
      assert.deepEqual({ ...hidden.body, request_id: null }, { ...absent.body, request_id: null }, who);
      const listed = await t.request('GET', '/v0/pods', keys[who]!);
      assert.ok(
        listed.body.pods.every((p: { pod_id: string }) => p.pod_id !== podId),
        `${who} list`,
      );
    }
  });

  test('a scoped key cannot widen itself through webhooks or WebSocket subscriptions', async () => {
    const widened = await t.request('POST', '/v0/webhooks', keys.scopedMine!, {
      url: 'https://hooks.example.com/x',
      event_types: ['message.received'],
      inbox_ids: [theirs.inbox_id],
    });
    assert.equal(widened.status, 404);
    assert.equal(widened.body.error.code, 'not_found');
    const narrowed = await t.request('POST', '/v0/webhooks', keys.scopedMine!, {
      url: 'https://hooks.example.com/x',
      event_types: ['message.received'],
    });
    assert.equal(narrowed.status, 201);
    assert.deepEqual(narrowed.body.inbox_ids, [mine.inbox_id]);
    assert.match(narrowed.body.secret, /^whsec_/);
    const hidden = await t.request('GET', `/v0/webhooks/${narrowed.body.webhook_id}`, keys.stranger!);
    assert.equal(hidden.status, 404);
    const owner = await t.request('GET', `/v0/webhooks/${narrowed.body.webhook_id}`, keys.owner!);
    assert.equal(owner.status, 200, 'the workspace that owns the inbox sees webhooks on it');

    const ws = await t.openSocket('/v0/ws', keys.scopedMine!);
    ws.socket.send(JSON.stringify({ type: 'subscribe', inbox_ids: [theirs.inbox_id] }));
    const error = await ws.next((f) => f.type === 'error');
    assert.equal(error.code, 'not_found');
    ws.socket.send(JSON.stringify({ type: 'subscribe' }));
    const subscribed = await ws.next((f) => f.type === 'subscribed');
    assert.deepEqual(subscribed.inbox_ids, [mine.inbox_id]);
    ws.socket.close();

    await assert.rejects(t.openSocket(`/v0/inboxes/${theirs.inbox_id}/ws`, keys.scopedMine!), /404/);
  });

  test('a scoped key\u2019s account-wide socket carries only its own inboxes, even within its namespace', async () => {
    // The sibling shares the namespace of the key's inbox but is not among its inbox_ids.
    const sibling = await t.createInbox(keys.owner!);
    const ws = await t.openSocket('/v0/ws', keys.scopedMine!);
    ws.socket.send(JSON.stringify({ type: 'subscribe' }));
    await ws.next((f) => f.type === 'subscribed');
    await t.sendSmtp({ from: 'x@example.com', to: sibling.inbox_id, subject: 'not yours', text: 'x' });
    await t.sendSmtp({ from: 'x@example.com', to: mine.inbox_id, subject: 'yours', text: 'x' });
    // Events are fanned out in commit order, so a leaked sibling event would arrive first.
    const event = await ws.next((f) => f.type === 'event');
    assert.equal(event.inbox_id, mine.inbox_id);
    assert.equal(event.message.subject, 'yours');
    assert.ok(ws.frames.every((f) => f.type !== 'event' || f.inbox_id === mine.inbox_id));
    ws.socket.close();
    const owner = await t.request('GET', `/v0/inboxes/${sibling.inbox_id}/messages`, keys.owner!);
    assert.equal(owner.body.messages[0].subject, 'not yours', 'the sibling did receive it');
  });

  test('the api_key query parameter works on WebSocket routes only', async () => {
    const ws = await t.openSocket('/v0/ws', keys.owner!, true);
    ws.socket.send(JSON.stringify({ type: 'ping' }));
    assert.equal((await ws.next((f) => f.type === 'pong')).type, 'pong');
    ws.socket.close();
    const http = await t.request('GET', `/v0/inboxes?api_key=${keys.owner}`, '');
    assert.equal(http.status, 401);
  });

  test('a scoped key revoked is refused on the very next request', async () => {
    const key = await t.createScopedKey({ name: 'short-lived' });
    assert.equal((await t.request('GET', '/v0/inboxes', key.api_key)).status, 200);
    await t.request('DELETE', `/v0/api-keys/${key.key_id}`, keys.admin!);
    assert.equal((await t.request('GET', '/v0/inboxes', key.api_key)).status, 401);
  });

  test('a revoked platform key stops working within a minute', async () => {
    const workspace = await t.platform.signup();
    const key = await t.platform.createApiKey(workspace);
    assert.equal((await t.request('GET', '/v0/inboxes', key.secret)).status, 200);
    const revoke = await t.platform.app.inject({
      method: 'DELETE',
      url: `/v1/api-secrets/${key.id}`,
      headers: { authorization: `Bearer ${workspace.token}` },
    });
    assert.ok(revoke.statusCode < 300, revoke.body);
    t.clock.advance(61_000);
    assert.equal((await t.request('GET', '/v0/inboxes', key.secret)).status, 401);
  });

  test('a platform key gets a namespace on first use; its resolved identity is cached at most 60 s', async () => {
    const workspace = await t.platform.signup();
    const key = await t.platform.createApiKey(workspace);
    const namespaces = () =>
      t.deps.db
        .selectFrom('mailbox_namespaces')
        .select('id')
        .where('account_id', '=', workspace.accountId)
        .execute();
    assert.equal((await namespaces()).length, 0, 'nothing before the first request');
    assert.equal((await t.request('GET', '/v0/inboxes', key.secret)).status, 200);
    assert.equal((await namespaces()).length, 1, 'created on first use');
    // Revoked behind the verifier's back, as on an instance that missed the NOTIFY: only the
    // cache lifetime bounds how long the key keeps working.
    await t.platform.deps.db
      .updateTable('api_secrets')
      .set({ is_active: false })
      .where('id', '=', key.id)
      .execute();
    t.clock.advance(59_000);
    assert.equal((await t.request('GET', '/v0/inboxes', key.secret)).status, 200, 'still cached');
    t.clock.advance(1_000);
    const refused = await t.request('GET', '/v0/inboxes', key.secret);
    assert.equal(refused.status, 401, 'refused once 60 s have passed');
    assert.equal(refused.body.error.code, 'unauthorized');
  });

  test('a scoped platform key needs mailbox:read or mailbox:write; its other scopes give nothing here', async () => {
    const workspace = await t.platform.signup();
    const memoriesOnly = await t.platform.createApiKey(workspace, { name: 'm', scopes: ['memories:read'] });
    const refused = await t.request('GET', '/v0/inboxes', memoriesOnly.secret);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'insufficient_scope');
    const reader = await t.platform.createApiKey(workspace, { name: 'r', scopes: ['mailbox:read'] });
    assert.equal((await t.request('GET', '/v0/inboxes', reader.secret)).status, 200);
    assert.equal(
      (await t.request('POST', '/v0/inboxes', reader.secret, { username: t.unique() })).status,
      403,
      'reading is not writing',
    );
    const writer = await t.platform.createApiKey(workspace, {
      name: 'w',
      scopes: ['mailbox:read', 'mailbox:write'],
    });
    assert.equal(
      (await t.request('POST', '/v0/inboxes', writer.secret, { username: t.unique() })).status,
      201,
    );
    const full = await t.platform.createApiKey(workspace);
    assert.equal((await t.request('GET', '/v0/inboxes', full.secret)).status, 200, 'no scopes: full access');
  });

  test('300 requests per 60 s per key, then 429 rate_limited with Retry-After: 60', async () => {
    const key = await t.createScopedKey({ name: 'busy' });
    for (let i = 0; i < 300; i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/v0/pods',
        headers: { authorization: `Bearer ${key.api_key}` },
      });
      assert.equal(response.statusCode, 200, `request ${i + 1}`);
    }
    const limited = await t.request('GET', '/v0/pods', key.api_key);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'rate_limited');
    assert.equal(limited.headers['retry-after'], '60');
    assert.equal((await t.request('GET', '/v0/pods', keys.owner!)).status, 200, 'budgets are per key');
  });
});

describe('the request budget is a setting', () => {
  test('MAILBOX_RATE_LIMIT requests per MAILBOX_RATE_WINDOW_SECONDS, then 429 with that Retry-After', async () => {
    const t = await startMailbox({ env: { MAILBOX_RATE_LIMIT: '3', MAILBOX_RATE_WINDOW_SECONDS: '10' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', '/v0/pods', t.adminKey)).status, 200);
      const limited = await t.request('GET', '/v0/pods', t.adminKey);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.equal(limited.headers['retry-after'], '10');
      assert.match(limited.body.error.message, /3 per 10 s/);
    } finally {
      await t.close();
    }
  });
});
