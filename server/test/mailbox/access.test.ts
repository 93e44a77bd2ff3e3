import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestMailbox } from './app.ts';
import { startWithPrincipals } from './principals.ts';

/**
 * Every principal against every route: missing and unknown tokens, the admin key, platform keys
 * (owner, teammate, another workspace), scoped keys (all inboxes, one inbox, one pod, revoked),
 * including the probing and widening cases.
 */
describe('principals against every route: 401s and no probing', () => {
  let t: TestMailbox;
  const keys: Record<string, string> = {};
  let mine: { inbox_id: string };
  let theirs: { inbox_id: string };
  let podInbox: { inbox_id: string };
  let messageId: string;
  let threadId: string;
  let draftId: string;

  before(async () => {
    ({ t, mine, theirs, podInbox } = await startWithPrincipals().then((p) => {
      Object.assign(keys, p.keys);
      return p;
    }));

    await t.sendSmtp({
      from: 'alice@example.com',
      to: mine.inbox_id,
      subject: 'Hi',
      text: 'Hello',
      attachments: [{ filename: 'a.txt', content: 'a' }],
    });
    const messages = await t.request('GET', `/v0/inboxes/${mine.inbox_id}/messages`, keys.owner);
    messageId = encodeURIComponent(messages.body.messages[0].message_id);
    threadId = messages.body.messages[0].thread_id;
    const draft = await t.request('POST', `/v0/inboxes/${mine.inbox_id}/drafts`, keys.owner, {
      subject: 'd',
    });
    draftId = draft.body.draft_id;
  });
  after(() => t.close());

  /** Inbox-scoped routes: `{inbox}` is substituted. Writes that would change state use harmless bodies. */
  const inboxRoutes = (inbox: string) =>
    [
      ['GET', `/v0/inboxes/${inbox}`],
      ['PATCH', `/v0/inboxes/${inbox}`, { display_name: 'x' }],
      ['GET', `/v0/inboxes/${inbox}/messages`],
      ['GET', `/v0/inboxes/${inbox}/messages/${messageId}`],
      ['PATCH', `/v0/inboxes/${inbox}/messages/${messageId}`, { add_labels: ['x'] }],
      ['GET', `/v0/inboxes/${inbox}/messages/${messageId}/raw`],
      ['GET', `/v0/inboxes/${inbox}/messages/${messageId}/attachments/att_x`],
      ['POST', `/v0/inboxes/${inbox}/messages/send`, { to: 'x@example.com', text: 'x' }],
      ['POST', `/v0/inboxes/${inbox}/messages/${messageId}/reply`, { text: 'x' }],
      ['POST', `/v0/inboxes/${inbox}/messages/${messageId}/forward`, { to: 'x@example.com' }],
      ['GET', `/v0/inboxes/${inbox}/threads`],
      ['GET', `/v0/inboxes/${inbox}/threads/${threadId}`],
      ['POST', `/v0/inboxes/${inbox}/drafts`, { subject: 'x' }],
      ['GET', `/v0/inboxes/${inbox}/drafts`],
      ['GET', `/v0/inboxes/${inbox}/drafts/${draftId}`],
      ['PATCH', `/v0/inboxes/${inbox}/drafts/${draftId}`, { subject: 'x' }],
      ['DELETE', `/v0/inboxes/${inbox}/drafts/${draftId}`],
      ['POST', `/v0/inboxes/${inbox}/drafts/${draftId}/send`],
      ['GET', `/v0/inboxes/${inbox}/block-list`],
      ['POST', `/v0/inboxes/${inbox}/block-list`, { value: 'x.example' }],
      ['DELETE', `/v0/inboxes/${inbox}/block-list/blk_x`],
      ['GET', `/v0/inboxes/${inbox}/events`],
      ['DELETE', `/v0/inboxes/${inbox}`],
    ] as Array<[string, string, unknown?]>;

  const globalRoutes: Array<[string, string, unknown?]> = [
    ['GET', '/v0/inboxes'],
    ['POST', '/v0/inboxes', { username: 'nobody-here' }],
    ['GET', '/v0/pods'],
    ['POST', '/v0/pods', { name: 'p' }],
    ['GET', '/v0/pods/pod_x'],
    ['GET', '/v0/domains'],
    ['POST', '/v0/domains', { domain: 'x.example.com' }],
    ['GET', '/v0/domains/x.example.com'],
    ['POST', '/v0/domains/x.example.com/verify'],
    ['GET', '/v0/block-list'],
    ['POST', '/v0/block-list', { value: 'x.example' }],
    ['DELETE', '/v0/block-list/blk_x'],
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

  test('every route answers 401 unauthorized without a token, with an unknown token and with a revoked key', async () => {
    for (const [method, url, payload] of [...globalRoutes, ...inboxRoutes(mine.inbox_id)]) {
      for (const token of ['', 'aik_unknown', 'svc_'.padEnd(68, '0'), 'garbage', keys.revoked]) {
        const response = await t.request(method, url, token!, payload);
        assert.equal(response.status, 401, `${method} ${url} with ${token ? token.slice(0, 8) : 'no token'}`);
        assert.equal(response.body.error.code, 'unauthorized');
      }
    }
  });

  test('the WebSocket routes refuse the upgrade with 401 for a missing, unknown or revoked key', async () => {
    for (const path of ['/v0/ws', `/v0/inboxes/${mine.inbox_id}/ws`]) {
      for (const token of ['', 'aik_unknown', keys.revoked!]) {
        const who = token ? token.slice(0, 8) : 'no token';
        await assert.rejects(t.openSocket(path, token), /401/, `${path} with ${who}`);
        if (token) await assert.rejects(t.openSocket(path, token, true), /401/, `${path}?api_key=${who}`);
      }
    }
  });

  test('an inbox out of reach answers exactly like an absent one (no probing)', async () => {
    const absent = `absent-${Date.now()}@${t.mailDomain}`;
    const cases: Array<[string, string]> = [
      ['stranger', mine.inbox_id],
      ['scopedMine', theirs.inbox_id],
      ['scopedMine', podInbox.inbox_id],
      ['scopedPod', mine.inbox_id],
      ['owner', podInbox.inbox_id],
    ];
    for (const [who, target] of cases) {
      const routes = inboxRoutes(target);
      const absentRoutes = inboxRoutes(absent);
      for (let i = 0; i < routes.length; i++) {
        const [method, url, payload] = routes[i]!;
        const hidden = await t.request(method, url, keys[who]!, payload);
        const missing = await t.request(method, absentRoutes[i]![1], keys[who]!, payload);
        assert.equal(hidden.status, 404, `${who} ${method} ${url}`);
        assert.equal(hidden.body.error.code, 'not_found');
        assert.deepEqual(
          { ...hidden.body, request_id: null },
          { ...missing.body, request_id: null },
          `${who} ${method} ${url}: same body as an absent inbox`,
        );
      }
      // The per-inbox socket answers before the upgrade, with the same status as for an absent inbox.
      await assert.rejects(t.openSocket(`/v0/inboxes/${target}/ws`, keys[who]!), /404/, `${who} ws`);
      await assert.rejects(t.openSocket(`/v0/inboxes/${absent}/ws`, keys[who]!), /404/, `${who} ws absent`);
    }
  });

  test('principals that cover the inbox reach every inbox route', async () => {
    for (const who of ['owner', 'teammate', 'admin', 'scopedMine']) {
      for (const [method, url] of inboxRoutes(mine.inbox_id).filter(
        ([m, u]) => m === 'GET' && !u.includes('att_x'),
      )) {
        const response = await t.request(method, url, keys[who]!);
        assert.equal(
          response.status,
          200,
          `${who} ${method} ${url}: ${JSON.stringify(response.body).slice(0, 200)}`,
        );
      }
    }
    const pod = await t.request('GET', `/v0/inboxes/${podInbox.inbox_id}/messages`, keys.scopedPod!);
    assert.equal(pod.status, 200);
  });
});
