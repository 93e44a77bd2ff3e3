import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';
import { connectMcp, postMcp } from './client.ts';

type Result = Awaited<ReturnType<Client['callTool']>>;
const body = (result: Result) => result.structuredContent as Record<string, any>;
const errorOf = (result: Result) => {
  assert.equal(result.isError, true, JSON.stringify(result.content));
  // The API's error travels as JSON text (structuredContent is checked against the success schema).
  assert.equal(result.structuredContent, undefined);
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return JSON.parse(text).error as { code: string; message: string };
};
const success = (result: Result) => {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return body(result);
};

describe('mailbox MCP server at /mcp', () => {
  let t: TestMailbox;
  let ownerKey: string;
  let sender: { inbox_id: string };
  let receiver: { inbox_id: string };
  let owner: Client;
  const clients: Client[] = [];
  const connect = async (key: string) => {
    const client = await connectMcp(t.baseUrl, key);
    clients.push(client);
    return client;
  };

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    ownerKey = (await t.platform.createApiKey(workspace)).secret;
    owner = await connect(ownerKey);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await t?.close();
  });

  test('initialise names the mailbox server and announces tools and resources', () => {
    assert.equal(owner.getServerVersion()?.name, 'understudy-mailbox');
    const capabilities = owner.getServerCapabilities();
    assert.ok(capabilities?.tools && capabilities.resources);
    assert.match(owner.getInstructions() ?? '', /next_page_token/);
  });

  test('tools/list: inputs from the routes, annotations per operation', async () => {
    const { tools } = await owner.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'list_inboxes',
      'create_inbox',
      'list_threads',
      'get_thread',
      'list_messages',
      'get_message',
      'send_message',
      'reply_to_message',
      'create_draft',
      'list_drafts',
      'send_draft',
      'cancel_scheduled_message',
    ]) {
      const tool = byName.get(name);
      assert.ok(tool, `${name} is listed`);
      assert.ok(tool.description && tool.description.length > 60, `${name} is described for a model`);
      assert.equal(tool.inputSchema.type, 'object');
    }
    const send = byName.get('send_message')!;
    assert.deepEqual(send.inputSchema.required, ['inbox_id']);
    assert.ok(
      send.inputSchema.properties?.to && send.inputSchema.properties.subject,
      'body fields are inputs',
    );
    assert.deepEqual(
      { ...send.annotations, title: undefined },
      {
        title: undefined,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    );
    const read = byName.get('get_thread')!;
    assert.deepEqual([...(read.inputSchema.required ?? [])].sort(), ['inbox_id', 'thread_id']);
    assert.equal(read.annotations?.readOnlyHint, true);
    assert.equal(read.outputSchema?.type, 'object');
    assert.equal(byName.get('delete_draft')?.annotations?.destructiveHint, true);
  });

  test('create inboxes, list them a page at a time', async () => {
    sender = success(
      await owner.callTool({
        name: 'create_inbox',
        arguments: { username: t.unique('sender'), display_name: 'Sender' },
      }),
    ) as { inbox_id: string };
    receiver = success(
      await owner.callTool({ name: 'create_inbox', arguments: { username: t.unique('receiver') } }),
    ) as { inbox_id: string };
    assert.match(sender.inbox_id, new RegExp(`@${t.mailDomain}$`));

    const first = success(await owner.callTool({ name: 'list_inboxes', arguments: { limit: 1 } }));
    assert.equal(first.count, 1);
    assert.ok(first.next_page_token);
    const second = success(
      await owner.callTool({
        name: 'list_inboxes',
        arguments: { limit: 1, page_token: first.next_page_token },
      }),
    );
    assert.equal(second.next_page_token, null);
    assert.deepEqual(
      [first.inboxes[0].inbox_id, second.inboxes[0].inbox_id].sort(),
      [sender.inbox_id, receiver.inbox_id].sort(),
      'two pages, each inbox once',
    );
    // The same list REST answers for the same key.
    const rest = await t.request('GET', '/v0/inboxes?limit=25', ownerKey);
    const all = success(await owner.callTool({ name: 'list_inboxes', arguments: {} }));
    assert.deepEqual(all, rest.body);
  });

  test('send between two inboxes, read it back through threads and messages, reply in the thread', async () => {
    const sent = success(
      await owner.callTool({
        name: 'send_message',
        arguments: {
          inbox_id: sender.inbox_id,
          to: receiver.inbox_id,
          subject: 'Hello over MCP',
          text: 'Ping.',
        },
      }),
    );
    assert.equal(sent.status, 'sent');

    const threads = success(
      await owner.callTool({ name: 'list_threads', arguments: { inbox_id: receiver.inbox_id } }),
    );
    assert.equal(threads.threads.length, 1);
    assert.equal(threads.threads[0].subject, 'Hello over MCP');
    const thread = success(
      await owner.callTool({
        name: 'get_thread',
        arguments: { inbox_id: receiver.inbox_id, thread_id: threads.threads[0].thread_id },
      }),
    );
    assert.equal(thread.messages.length, 1);
    assert.equal(thread.messages[0].message_id, sent.message_id);
    assert.equal(thread.messages[0].text.trim(), 'Ping.');
    assert.ok(thread.messages[0].labels.includes('unread'));

    const unread = success(
      await owner.callTool({
        name: 'list_messages',
        arguments: { inbox_id: receiver.inbox_id, labels: ['unread'] },
      }),
    );
    assert.deepEqual(
      unread.messages.map((m: { message_id: string }) => m.message_id),
      [sent.message_id],
    );
    // A Message-ID carries `<`, `@` and `>`: it travels encoded in the path.
    const message = success(
      await owner.callTool({
        name: 'get_message',
        arguments: { inbox_id: receiver.inbox_id, message_id: sent.message_id },
      }),
    );
    assert.equal(message.from, sent.from);
    const marked = success(
      await owner.callTool({
        name: 'update_message_labels',
        arguments: { inbox_id: receiver.inbox_id, message_id: sent.message_id, remove_labels: ['unread'] },
      }),
    );
    assert.ok(!marked.labels.includes('unread'));

    const reply = success(
      await owner.callTool({
        name: 'reply_to_message',
        arguments: { inbox_id: receiver.inbox_id, message_id: sent.message_id, text: 'Pong.' },
      }),
    );
    assert.equal(reply.subject, 'Re: Hello over MCP');
    const back = success(
      await owner.callTool({
        name: 'get_message',
        arguments: { inbox_id: sender.inbox_id, message_id: reply.message_id },
      }),
    );
    assert.equal(back.thread_id, sent.thread_id, 'the reply joins the sender’s thread');

    // The same thread as a resource.
    const uri = `mailbox://inboxes/${receiver.inbox_id}/threads/${threads.threads[0].thread_id}`;
    const resource = await owner.readResource({ uri });
    const read = JSON.parse((resource.contents[0] as { text: string }).text);
    assert.equal(read.messages.length, 2);
  });

  test('drafts: create, list, send', async () => {
    const draft = success(
      await owner.callTool({
        name: 'create_draft',
        arguments: {
          inbox_id: sender.inbox_id,
          to: [receiver.inbox_id],
          subject: 'Reviewed later',
          text: 'Draft body.',
        },
      }),
    );
    const listed = success(
      await owner.callTool({ name: 'list_drafts', arguments: { inbox_id: sender.inbox_id } }),
    );
    assert.deepEqual(
      listed.drafts.map((d: { draft_id: string }) => d.draft_id),
      [draft.draft_id],
    );
    const sent = success(
      await owner.callTool({
        name: 'send_draft',
        arguments: { inbox_id: sender.inbox_id, draft_id: draft.draft_id },
      }),
    );
    assert.equal(sent.subject, 'Reviewed later');
    const again = await owner.callTool({
      name: 'send_draft',
      arguments: { inbox_id: sender.inbox_id, draft_id: draft.draft_id },
    });
    assert.equal(errorOf(again).code, 'not_found', 'a sent draft is gone');
    const inbox = success(
      await owner.callTool({ name: 'list_messages', arguments: { inbox_id: receiver.inbox_id } }),
    );
    const delivered = inbox.messages.find((m: { message_id: string }) => m.message_id === sent.message_id);
    assert.equal(delivered?.subject, 'Reviewed later', 'the draft reached the other inbox');
  });

  test('a scheduled send is cancelled with cancel_scheduled_message, once', async () => {
    const scheduled = success(
      await owner.callTool({
        name: 'send_message',
        arguments: {
          inbox_id: sender.inbox_id,
          to: [receiver.inbox_id],
          subject: 'Tomorrow',
          text: 'Later.',
          send_at: new Date(t.clock.now().getTime() + 24 * 3_600_000).toISOString(),
        },
      }),
    );
    assert.equal(scheduled.status, 'scheduled');
    const args = { inbox_id: sender.inbox_id, message_id: scheduled.message_id };
    const cancelled = success(await owner.callTool({ name: 'cancel_scheduled_message', arguments: args }));
    assert.equal(cancelled.status, 'cancelled');
    const again = await owner.callTool({ name: 'cancel_scheduled_message', arguments: args });
    assert.equal(errorOf(again).code, 'resource_conflict');
  });

  test('bad input is a tool error with the API’s code, never a crash', async () => {
    const result = await owner.callTool({
      name: 'send_message',
      arguments: { inbox_id: sender.inbox_id, to: 'not an address', text: 'x' },
    });
    const error = errorOf(result);
    assert.ok(error.code.length > 0 && error.code !== 'upstream_error', error.code);
  });

  test('an aik_ key narrowed to one inbox sees only it and cannot read another', async () => {
    const { api_key } = await t.createScopedKey({ name: 'sender only', inbox_ids: [sender.inbox_id] });
    assert.ok(api_key.startsWith('aik_'));
    const scoped = await connect(api_key);
    const visible = success(await scoped.callTool({ name: 'list_inboxes', arguments: {} }));
    assert.deepEqual(
      visible.inboxes.map((i: { inbox_id: string }) => i.inbox_id),
      [sender.inbox_id],
    );
    assert.ok(
      success(await scoped.callTool({ name: 'list_threads', arguments: { inbox_id: sender.inbox_id } }))
        .threads,
    );

    for (const [name, args] of [
      ['list_messages', { inbox_id: receiver.inbox_id }],
      ['list_threads', { inbox_id: receiver.inbox_id }],
      ['send_message', { inbox_id: receiver.inbox_id, to: sender.inbox_id, text: 'spoofed' }],
    ] as const) {
      const rest = await t.request('GET', `/v0/inboxes/${receiver.inbox_id}/messages`, api_key);
      const error = errorOf(await scoped.callTool({ name, arguments: args }));
      assert.equal(error.code, rest.body.error.code, `${name}: the same refusal as REST`);
      assert.equal(error.code, 'not_found', `${name}: out-of-reach inboxes look absent`);
    }
    await assert.rejects(
      scoped.readResource({ uri: `mailbox://inboxes/${receiver.inbox_id}/threads/thr_x` }),
      /not_found/,
    );
  });

  test('a platform key scoped to mailbox:read can read but not send', async () => {
    const workspace = await t.platform.signup();
    const readOnly = (await t.platform.createApiKey(workspace, { name: 'reader', scopes: ['mailbox:read'] }))
      .secret;
    const reader = await connect(readOnly);
    assert.ok(success(await reader.callTool({ name: 'list_inboxes', arguments: {} })).inboxes);
    const refused = errorOf(await reader.callTool({ name: 'create_inbox', arguments: {} }));
    assert.equal(refused.code, 'insufficient_scope');
  });

  test('a scoped key’s scopes hold on tools: messages.read reads mail but cannot send it', async () => {
    const { api_key } = await t.createScopedKey({
      name: 'reader',
      inbox_ids: [receiver.inbox_id],
      scopes: ['messages.read'],
    });
    const reader = await connect(api_key);
    assert.ok(
      success(await reader.callTool({ name: 'list_threads', arguments: { inbox_id: receiver.inbox_id } }))
        .threads,
    );
    const refused = errorOf(
      await reader.callTool({
        name: 'send_message',
        arguments: { inbox_id: receiver.inbox_id, to: sender.inbox_id, text: 'not allowed' },
      }),
    ) as { code: string; param: string; message: string };
    assert.equal(refused.code, 'insufficient_scope');
    assert.equal(refused.param, 'messages.send');
    assert.match(refused.message, /messages\.send/);
    // Not even a draft: drafts.write is a scope of its own.
    const draft = errorOf(
      await reader.callTool({ name: 'create_draft', arguments: { inbox_id: receiver.inbox_id, text: 'x' } }),
    );
    assert.equal(draft.code, 'insufficient_scope');
  });

  test('a tool call spends the key’s REST rate-limit budget, as the /v0 call it is', async () => {
    const { api_key } = await t.createScopedKey({ name: 'budget', inbox_ids: [sender.inbox_id] });
    const remaining = async () =>
      Number((await t.request('GET', '/v0/inboxes', api_key)).headers['ratelimit-remaining']);
    const before = await remaining();
    const client = await connect(api_key);
    for (let i = 0; i < 3; i += 1) success(await client.callTool({ name: 'list_inboxes', arguments: {} }));
    // Three tool calls and the second REST call: four requests of the same budget.
    assert.equal(await remaining(), before - 4);
  });

  test('401 with WWW-Authenticate without a key or with a bad one; 403 from a foreign Origin', async () => {
    const missing = await postMcp(t.baseUrl, {});
    assert.equal(missing.status, 401);
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer realm="understudy-mailbox"/);
    assert.equal((await missing.json()).error.code, 'unauthorized');

    const bad = await postMcp(t.baseUrl, { authorization: 'Bearer aik_not-a-real-key' });
    assert.equal(bad.status, 401);
    assert.match(bad.headers.get('www-authenticate') ?? '', /invalid_token/);

    const foreign = await postMcp(t.baseUrl, {
      authorization: `Bearer ${ownerKey}`,
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);

    const fine = await postMcp(t.baseUrl, { authorization: `Bearer ${ownerKey}` });
    assert.equal(fine.status, 200);
  });
});
