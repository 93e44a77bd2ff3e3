// Allow and block lists (docs/mailbox.md, "Allow and block lists"): entries at namespace, pod and
// inbox level, who may manage them, and what they do to mail received over SMTP and sent over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

describe('allow and block lists', () => {
  let t: TestMailbox;
  /** A platform key of a workspace of its own: its namespace's lists touch no other test's mail. */
  let owner: string;
  let podId: string;
  let otherPodId: string;
  let podInbox: { inbox_id: string };
  let lone: { inbox_id: string };

  before(async () => {
    t = await startMailbox();
    await t.listen();
    owner = (await t.platform.createApiKey(await t.platform.signup())).secret;
    podId = (await t.request('POST', '/v0/pods', owner, { name: 'customer' })).body.pod_id;
    otherPodId = (await t.request('POST', '/v0/pods', owner, { name: 'other customer' })).body.pod_id;
    podInbox = await t.createInbox(owner, { pod_id: podId });
    lone = await t.createInbox(owner);
  });
  after(() => t.close());

  const post = (url: string, body: Record<string, unknown>, key = owner) => t.request('POST', url, key, body);
  const remove = async (url: string, key = owner) =>
    assert.equal((await t.request('DELETE', url, key)).status, 204);

  /** The events of an inbox, oldest first, as [event_type, subject, blocked_by]. */
  async function eventsOf(inboxId: string) {
    const response = await t.request('GET', `/v0/inboxes/${inboxId}/events`, owner);
    return response.body.events.map(
      (e: { event_type: string; message?: { subject: string }; blocked_by?: unknown }) => [
        e.event_type,
        e.message?.subject ?? null,
        e.blocked_by ?? null,
      ],
    );
  }

  test('entries at every level: receive by default, filtered by direction, each list keeping its own', async () => {
    const block = await post('/v0/block-list', { value: ' Spam.Example ', reason: 'bulk' });
    assert.equal(block.status, 201, JSON.stringify(block.body));
    assert.match(block.body.entry_id, /^blk_/);
    assert.deepEqual(
      { ...block.body, entry_id: undefined, created_at: undefined },
      {
        entry_id: undefined,
        list: 'block',
        direction: 'receive',
        scope: 'namespace',
        pod_id: null,
        inbox_id: null,
        kind: 'domain',
        value: 'spam.example',
        reason: 'bulk',
        created_at: undefined,
      },
    );
    const allow = await post(`/v0/pods/${podId}/allow-list`, {
      value: 'boss@partner.example',
      direction: 'send',
    });
    assert.equal(allow.status, 201, JSON.stringify(allow.body));
    assert.match(allow.body.entry_id, /^alw_/);
    assert.equal(allow.body.scope, 'pod');
    assert.equal(allow.body.pod_id, podId);
    assert.equal(allow.body.kind, 'address');
    const inboxEntry = await post(`/v0/inboxes/${podInbox.inbox_id}/allow-list`, {
      value: 'partner.example',
    });
    assert.equal(inboxEntry.body.scope, 'inbox');
    assert.equal(inboxEntry.body.inbox_id, podInbox.inbox_id);
    assert.equal(inboxEntry.body.pod_id, null);

    const podAllow = `/v0/pods/${podId}/allow-list`;
    assert.equal((await t.request('GET', `${podAllow}?direction=send`, owner)).body.count, 1);
    assert.equal((await t.request('GET', `${podAllow}?direction=receive`, owner)).body.count, 0);
    assert.equal((await t.request('GET', podAllow, owner)).body.count, 1);
    assert.equal(
      (await t.request('GET', `/v0/pods/${podId}/block-list`, owner)).body.count,
      0,
      'lists apart',
    );
    assert.equal(
      (await t.request('GET', `/v0/pods/${otherPodId}/allow-list`, owner)).body.count,
      0,
      'pods apart',
    );
    assert.equal((await t.request('GET', '/v0/allow-list', owner)).body.count, 0, 'levels apart');

    const badDirection = await t.request('GET', `${podAllow}?direction=sideways`, owner);
    assert.equal(badDirection.status, 400);
    assert.equal(badDirection.body.error.param, 'direction');
    assert.equal(
      (await t.request('GET', `${podAllow}?colour=red`, owner)).status,
      400,
      'unknown query refused',
    );
    const badValue = await post(podAllow, { value: 'not a domain' });
    assert.equal(badValue.status, 400);
    assert.equal(badValue.body.error.param, 'value');
    const twice = await post(podAllow, { value: 'BOSS@partner.example', direction: 'send' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.param, 'value');
    assert.equal((await post(podAllow, { value: 'boss@partner.example' })).status, 201, 'other direction');
    assert.equal((await post(`/v0/pods/${podId}/block-list`, { value: 'boss@partner.example' })).status, 201);

    // An entry is removed through its own list and level only.
    const wrongList = await t.request('DELETE', `/v0/pods/${podId}/block-list/${allow.body.entry_id}`, owner);
    assert.equal(wrongList.status, 404);
    assert.equal(wrongList.body.error.param, 'entry_id');
    const wrongPod = await t.request(
      'DELETE',
      `/v0/pods/${otherPodId}/allow-list/${allow.body.entry_id}`,
      owner,
    );
    assert.equal(wrongPod.status, 404);
    for (const [base, entries] of [
      ['/v0/block-list', [block.body]],
      [podAllow, (await t.request('GET', podAllow, owner)).body.entries],
      [
        `/v0/pods/${podId}/block-list`,
        (await t.request('GET', `/v0/pods/${podId}/block-list`, owner)).body.entries,
      ],
      [`/v0/inboxes/${podInbox.inbox_id}/allow-list`, [inboxEntry.body]],
    ] as const) {
      for (const entry of entries) await remove(`${base}/${entry.entry_id}`);
    }
    assert.equal((await t.request('GET', podAllow, owner)).body.count, 0);
  });

  test('a level is managed by keys that reach all of it', async () => {
    const podKey = (await t.createScopedKey({ name: 'pod', pod_id: podId })).api_key;
    const inboxKey = (await t.createScopedKey({ name: 'inbox', inbox_ids: [podInbox.inbox_id] })).api_key;
    const stranger = (await t.platform.createApiKey(await t.platform.signup())).secret;

    const own = await post(`/v0/pods/${podId}/block-list`, { value: 'pest.example' }, podKey);
    assert.equal(own.status, 201, 'a pod key manages its pod');
    assert.equal((await t.request('GET', `/v0/pods/${podId}/block-list`, podKey)).body.count, 1);
    const namespace = await post('/v0/allow-list', { value: 'x.example' }, podKey);
    assert.equal(namespace.status, 403);
    assert.equal(namespace.body.error.code, 'permission_denied');
    assert.equal((await t.request('GET', '/v0/block-list', inboxKey)).status, 403);
    for (const [key, url] of [
      [podKey, `/v0/pods/${otherPodId}/block-list`],
      [inboxKey, `/v0/pods/${podId}/block-list`],
      [stranger, `/v0/pods/${podId}/block-list`],
      [stranger, `/v0/inboxes/${podInbox.inbox_id}/allow-list`],
      [podKey, `/v0/inboxes/${lone.inbox_id}/allow-list`],
    ] as const) {
      const response = await post(url, { value: 'x.example' }, key);
      assert.equal(response.status, 404, `${url}: ${JSON.stringify(response.body)}`);
      assert.equal((await t.request('GET', url, key)).status, 404, url);
    }
    const mine = await post(`/v0/inboxes/${podInbox.inbox_id}/block-list`, { value: 'x.example' }, inboxKey);
    assert.equal(mine.status, 201, 'a key restricted to an inbox manages its block list');
    // An allow entry would override the pod's and workspace's blocks: inbox keys only narrow.
    const widen = await post(`/v0/inboxes/${podInbox.inbox_id}/allow-list`, { value: 'x.example' }, inboxKey);
    assert.equal(widen.status, 403, JSON.stringify(widen.body));
    assert.equal(widen.body.error.code, 'permission_denied');
    assert.match(widen.body.error.message, /allow list/);
    const podAllow = await post(
      `/v0/inboxes/${podInbox.inbox_id}/allow-list`,
      { value: 'y.example' },
      podKey,
    );
    assert.equal(podAllow.status, 201, 'a pod key still adds allow entries to its inboxes');
    const unallow = await t.request(
      'DELETE',
      `/v0/inboxes/${podInbox.inbox_id}/allow-list/${podAllow.body.entry_id}`,
      inboxKey,
    );
    assert.equal(unallow.status, 403, 'nor removes them');
    assert.equal(
      (await t.request('GET', `/v0/inboxes/${podInbox.inbox_id}/allow-list`, inboxKey)).status,
      200,
    );
    const notTheirs = await t.request(
      'DELETE',
      `/v0/pods/${podId}/block-list/${own.body.entry_id}`,
      inboxKey,
    );
    assert.equal(notTheirs.status, 404);
    await remove(`/v0/pods/${podId}/block-list/${own.body.entry_id}`, podKey);
    await remove(`/v0/inboxes/${podInbox.inbox_id}/block-list/${mine.body.entry_id}`, inboxKey);
    await remove(`/v0/inboxes/${podInbox.inbox_id}/allow-list/${podAllow.body.entry_id}`, podKey);
  });

  test('receive over SMTP: allow lists admit only their senders, block wins, the narrower level decides', async () => {
    const created: string[] = [];
    const add = async (url: string, body: Record<string, unknown>) => {
      const response = await post(url, body);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      created.push(`${url}/${response.body.entry_id}`);
      return response.body;
    };
    const mail = (from: string, to: string, subject: string) => t.sendSmtp({ from, to, subject, text: 'x' });
    try {
      // Workspace: only friends.example may write in. A send allow list is no receive allow list.
      await add('/v0/allow-list', { value: 'friends.example' });
      await add('/v0/allow-list', { value: 'anyone.example', direction: 'send' });
      await mail('someone@anyone.example', lone.inbox_id, 'R1 stranger');
      await mail('Ann <ann@mail.friends.example>', lone.inbox_id, 'R2 friend');
      // The pod blocks one friend: the pod's inbox refuses her, the inbox outside the pod does not.
      const podBlock = await add(`/v0/pods/${podId}/block-list`, { value: 'ann@mail.friends.example' });
      await mail('ann@mail.friends.example', podInbox.inbox_id, 'R3 blocked in pod');
      await mail('ann@mail.friends.example', lone.inbox_id, 'R4 outside the pod');
      // The pod's inbox makes an exception for her: the narrower level decides.
      await add(`/v0/inboxes/${podInbox.inbox_id}/allow-list`, { value: 'ann@mail.friends.example' });
      await mail('ann@mail.friends.example', podInbox.inbox_id, 'R5 inbox exception');
      // ... and its allow list now admits only her, whatever the workspace allows.
      await mail('bob@friends.example', podInbox.inbox_id, 'R6 not on the inbox allow list');

      const notOnAllowList = (scope: string) => ({
        list: 'allow',
        scope,
        entry_id: null,
        kind: null,
        value: null,
      });
      assert.deepEqual(await eventsOf(lone.inbox_id), [
        ['message.received.blocked', 'R1 stranger', notOnAllowList('namespace')],
        ['message.received', 'R2 friend', null],
        ['message.received', 'R4 outside the pod', null],
      ]);
      assert.deepEqual(await eventsOf(podInbox.inbox_id), [
        [
          'message.received.blocked',
          'R3 blocked in pod',
          {
            list: 'block',
            scope: 'pod',
            entry_id: podBlock.entry_id,
            kind: 'address',
            value: 'ann@mail.friends.example',
          },
        ],
        ['message.received', 'R5 inbox exception', null],
        ['message.received.blocked', 'R6 not on the inbox allow list', notOnAllowList('inbox')],
      ]);
      const blocked = await t.request(
        'GET',
        `/v0/inboxes/${podInbox.inbox_id}/messages?labels=blocked`,
        owner,
      );
      assert.deepEqual(
        blocked.body.messages.map((m: { status: string; thread_id: string | null }) => [
          m.status,
          m.thread_id,
        ]),
        [
          ['blocked', null],
          ['blocked', null],
        ],
      );
    } finally {
      for (const url of created) await remove(url);
    }
  });

  test('send: a refused recipient fails send, reply and draft send with 400 naming it, and nothing is stored', async () => {
    const created: string[] = [];
    const add = async (url: string, body: Record<string, unknown>) => {
      const response = await post(url, { direction: 'send', ...body });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      created.push(`${url}/${response.body.entry_id}`);
      return response.body;
    };
    const sendFrom = (inboxId: string, body: Record<string, unknown>) =>
      post(`/v0/inboxes/${inboxId}/messages/send`, { subject: 'Offer', text: 'x', ...body });
    try {
      // Mail from a sender the workspace will not write to, so there is something to reply to.
      await t.sendSmtp({ from: 'eve@rival.example', to: podInbox.inbox_id, subject: 'Hello', text: 'x' });
      await add('/v0/block-list', { value: 'rival.example' });
      await add(`/v0/pods/${podId}/allow-list`, { value: 'partner.example' });
      const inboxBlock = await add(`/v0/inboxes/${podInbox.inbox_id}/block-list`, {
        value: 'intern@partner.example',
      });

      const refused = await sendFrom(podInbox.inbox_id, {
        to: ['Boss <boss@partner.example>', 'intern@partner.example'],
        cc: 'someone@elsewhere.example',
        bcc: [lone.inbox_id],
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'recipient_not_allowed');
      assert.equal(refused.body.error.param, 'to[1]');
      assert.match(
        refused.body.error.message,
        /intern@partner\.example is blocked by the inbox's send block list/,
      );
      assert.match(refused.body.error.message, new RegExp(inboxBlock.entry_id));
      assert.deepEqual(
        refused.body.errors.map((e: { param: string; code: string }) => [e.param, e.code]),
        [
          ['to[1]', 'recipient_not_allowed'],
          ['cc[0]', 'recipient_not_allowed'],
          ['bcc[0]', 'recipient_not_allowed'],
        ],
        "every refused recipient; the pod's allow list excludes even an inbox of this service",
      );
      assert.match(refused.body.errors[1].message, /not on the pod's send allow list/);

      // Outside the pod only the workspace's block list applies.
      const rival = await sendFrom(lone.inbox_id, {
        to: 'partner@elsewhere.example',
        cc: 'eve@rival.example',
      });
      assert.equal(rival.status, 400);
      assert.equal(rival.body.error.param, 'cc[0]');
      assert.match(rival.body.error.message, /blocked by the workspace's send block list \(rival\.example/);

      // A reply goes to the original sender: refused the same way.
      const received = (
        await t.request('GET', `/v0/inboxes/${podInbox.inbox_id}/messages`, owner)
      ).body.messages.find((m: { subject: string }) => m.subject === 'Hello');
      const reply = await post(
        `/v0/inboxes/${podInbox.inbox_id}/messages/${encodeURIComponent(received.message_id)}/reply`,
        { text: 'No thanks' },
      );
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'recipient_not_allowed');
      assert.equal(reply.body.error.param, 'to[0]');

      // A draft is saved (lists may change before it goes) and checked when sent; it stays a draft.
      const draft = await post(`/v0/inboxes/${podInbox.inbox_id}/drafts`, {
        to: 'x@elsewhere.example',
        text: 'x',
      });
      assert.equal(draft.status, 201);
      const sentDraft = await post(`/v0/inboxes/${podInbox.inbox_id}/drafts/${draft.body.draft_id}/send`, {});
      assert.equal(sentDraft.status, 400);
      assert.equal(sentDraft.body.error.param, 'to[0]');
      const kept = await t.request(
        'GET',
        `/v0/inboxes/${podInbox.inbox_id}/drafts/${draft.body.draft_id}`,
        owner,
      );
      assert.equal(kept.status, 200);

      // Nothing refused was stored or evented: the pod's inbox holds only the mail it received.
      const events = await eventsOf(podInbox.inbox_id);
      assert.ok(
        events.every(([type]: [string]) => !['message.sent', 'message.rejected'].includes(type)),
        JSON.stringify(events),
      );
      const messages = await t.request('GET', `/v0/inboxes/${podInbox.inbox_id}/messages`, owner);
      assert.ok(messages.body.messages.length > 0);
      for (const message of messages.body.messages)
        assert.deepEqual(message.labels.slice(0, 1), ['received']);

      // An admitted recipient still goes out.
      const admitted = await sendFrom(podInbox.inbox_id, { to: 'boss@partner.example' });
      assert.equal(admitted.status, 200, JSON.stringify(admitted.body));
      assert.deepEqual(admitted.body.to, ['boss@partner.example']);
    } finally {
      for (const url of created) await remove(url);
    }
  });
});
