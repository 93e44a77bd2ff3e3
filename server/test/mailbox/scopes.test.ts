// Scopes of scoped keys (docs/mailbox.md, "Scopes"): the closed set, its implications, the
// refusal of unknown names at creation, names stored before the set existed, and WebSockets.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

describe('scopes of scoped keys', () => {
  let t: TestMailbox;
  let inbox: { inbox_id: string };
  const key = async (scopes: string[] | undefined, field = 'scopes') =>
    (
      await t.createScopedKey({
        name: `k ${scopes?.join(' ')}`,
        inbox_ids: [inbox.inbox_id],
        ...(scopes ? { [field]: scopes } : {}),
      })
    ).api_key;
  const status = async (token: string, method: string, url: string, payload?: unknown) =>
    (await t.request(method, url, token, payload)).status;

  before(async () => {
    t = await startMailbox();
    await t.listen();
    inbox = await t.createInbox(t.adminKey);
    await t.sendSmtp({ from: 'alice@example.com', to: inbox.inbox_id, subject: 'hello', text: 'x' });
  });
  after(() => t.close());

  const messages = () => `/v0/inboxes/${inbox.inbox_id}/messages`;
  const send = () => [`/v0/inboxes/${inbox.inbox_id}/messages/send`, { to: 'bob@example.com', text: 'x' }];

  test('a name outside the set is refused at creation, naming the field and its index', async () => {
    for (const field of ['scopes', 'permissions']) {
      const refused = await t.request('POST', '/v0/api-keys', t.adminKey, {
        name: 'typo',
        [field]: ['messages.read', 'messages.reed'],
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, 'parameter_invalid');
      assert.equal(refused.body.error.param, `${field}[1]`);
      assert.match(refused.body.error.message, /messages\.reed/);
    }
    for (const name of ['mailbox:read', 'messages', 'nothing.*', '**']) {
      const refused = await t.request('POST', '/v0/api-keys', t.adminKey, { name: 'x', scopes: [name] });
      assert.equal(refused.status, 400, name);
    }
  });

  test('x.write implies x.read; messages.send does not read; messages.* and * grant the lot', async () => {
    const writer = await key(['messages.write']);
    assert.equal(await status(writer, 'GET', messages()), 200, 'write implies read');
    assert.equal(await status(writer, 'POST', ...(send() as [string, unknown])), 403, 'write is not send');
    assert.equal(await status(writer, 'GET', `/v0/inboxes/${inbox.inbox_id}`), 403, 'nor inboxes.read');

    const sender = await key(['messages.send']);
    assert.equal(await status(sender, 'GET', messages()), 403, 'send does not read');
    assert.equal(await status(sender, 'POST', ...(send() as [string, unknown])), 200);

    const all = await key(['messages.*']);
    assert.equal(await status(all, 'GET', messages()), 200);
    assert.equal(await status(all, 'POST', ...(send() as [string, unknown])), 200);
    assert.equal(await status(all, 'GET', `/v0/inboxes/${inbox.inbox_id}/drafts`), 403, 'not drafts');

    for (const everything of [await key(['*']), await key(undefined), await key([])]) {
      assert.equal(await status(everything, 'GET', messages()), 200);
      assert.equal(await status(everything, 'GET', `/v0/inboxes/${inbox.inbox_id}/drafts`), 200);
      assert.equal(await status(everything, 'POST', ...(send() as [string, unknown])), 200);
    }
  });

  test('forward also needs messages.read: it answers and sends the original content', async () => {
    const listed = await t.request('GET', messages(), t.adminKey);
    const original = listed.body.messages[0].message_id as string;
    const url = `${messages()}/${encodeURIComponent(original)}/forward`;
    const sender = await key(['messages.send']);
    const refused = await t.request('POST', url, sender, { to: 'bob@example.com' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'insufficient_scope');
    assert.equal(refused.body.error.param, 'messages.read');
    const reader = await key(['messages.send', 'messages.read']);
    assert.equal(await status(reader, 'POST', url, { to: 'bob@example.com' }), 200);
  });

  test('permissions is an alias of scopes, and GET /api-keys shows what was stored', async () => {
    const created = await t.request('POST', '/v0/api-keys', t.adminKey, {
      name: 'alias',
      inbox_ids: [inbox.inbox_id],
      permissions: ['drafts.write'],
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.scopes, ['drafts.write']);
    assert.equal(await status(created.body.api_key, 'GET', `/v0/inboxes/${inbox.inbox_id}/drafts`), 200);
    assert.equal(await status(created.body.api_key, 'GET', messages()), 403);
  });

  test('keys.manage does not make a scoped key an admin: key management stays admin-only', async () => {
    const manager = await key(['keys.manage']);
    const refused = await t.request('GET', '/v0/api-keys', manager);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'permission_denied');
  });

  test('names stored before the set was enforced grant nothing; the valid ones still work', async () => {
    const legacy = await t.createScopedKey({ name: 'legacy', inbox_ids: [inbox.inbox_id] });
    await t.deps.db
      .updateTable('mailbox_api_keys')
      .set({ scopes: JSON.stringify(['mail:read', 'messages.read']) as never })
      .where('id', '=', legacy.key_id)
      .execute();
    assert.equal(await status(legacy.api_key, 'GET', messages()), 200, 'messages.read holds');
    const refused = await t.request('GET', `/v0/inboxes/${inbox.inbox_id}`, legacy.api_key);
    assert.equal(refused.status, 403, 'the unknown name is not "everything"');
    assert.equal(refused.body.error.param, 'inboxes.read');

    const onlyUnknown = await t.createScopedKey({ name: 'legacy 2', inbox_ids: [inbox.inbox_id] });
    await t.deps.db
      .updateTable('mailbox_api_keys')
      .set({ scopes: JSON.stringify(['mail:read']) as never })
      .where('id', '=', onlyUnknown.key_id)
      .execute();
    assert.equal(await status(onlyUnknown.api_key, 'GET', messages()), 403, 'nothing at all');
  });

  test('WebSockets need messages.read: the upgrade is refused with 403 without it', async () => {
    const drafter = await key(['drafts.read']);
    await assert.rejects(t.openSocket('/v0/ws', drafter), /403/);
    await assert.rejects(t.openSocket(`/v0/inboxes/${inbox.inbox_id}/ws`, drafter), /403/);
    const reader = await key(['messages.read']);
    const ws = await t.openSocket(`/v0/inboxes/${inbox.inbox_id}/ws`, reader);
    assert.equal((await ws.next((f) => f.type === 'subscribed')).inbox_ids[0], inbox.inbox_id);
    ws.socket.close();
  });
});
