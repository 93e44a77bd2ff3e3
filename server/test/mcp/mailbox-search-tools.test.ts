import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';
import { connectMcp, toolResult } from './client.ts';

/** The search and trash tools of the mailbox's MCP server, called as an agent would. */
describe('mailbox MCP: search and delete tools', () => {
  let t: TestMailbox;
  let client: Client;
  let sender: string;
  let receiver: string;

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    const key = (await t.platform.createApiKey(workspace)).secret;
    sender = (await t.createInbox(key)).inbox_id;
    receiver = (await t.createInbox(key)).inbox_id;
    client = await connectMcp(t.baseUrl, key);
    for (const subject of ['Shipping delay on order 77', 'Weekly digest']) {
      const sent = await t.request('POST', `/v0/inboxes/${sender}/messages/send`, key, {
        to: receiver,
        subject,
        text: `About: ${subject}`,
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      t.clock.advance(1_000);
    }
  });
  after(async () => {
    await client?.close().catch(() => {});
    await t?.close();
  });

  test('tools/list: search tools read, delete tools destroy, restore is idempotent', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['search_messages', 'search_threads']) {
      const tool = byName.get(name)!;
      assert.equal(tool.annotations?.readOnlyHint, true, name);
      assert.ok(tool.inputSchema.properties?.q && tool.inputSchema.properties.has_attachments, name);
      assert.equal(tool.inputSchema.required, undefined, `${name} needs no inbox`);
    }
    for (const name of ['delete_message', 'delete_thread']) {
      const tool = byName.get(name)!;
      assert.equal(tool.annotations?.destructiveHint, true, name);
      assert.ok(tool.inputSchema.properties?.permanent, name);
    }
    for (const name of ['restore_message', 'restore_thread']) {
      const tool = byName.get(name)!;
      assert.equal(tool.annotations?.destructiveHint, false, name);
      assert.equal(tool.annotations?.idempotentHint, true, name);
    }
    assert.ok(byName.get('list_messages')?.inputSchema.properties?.q, 'the per-inbox lists search too');
  });

  test('search, trash, restore and delete for good', async () => {
    const found = toolResult(
      await client.callTool({ name: 'search_messages', arguments: { q: 'shipping 77' } }),
    );
    assert.deepEqual(found.messages.map((m: any) => m.inbox_id).sort(), [sender, receiver].sort());
    const received = found.messages.find((m: any) => m.inbox_id === receiver);

    const threads = toolResult(
      await client.callTool({ name: 'search_threads', arguments: { q: 'digest', to: receiver } }),
    );
    assert.deepEqual(
      threads.threads.map((th: any) => th.subject),
      ['Weekly digest', 'Weekly digest'],
    );

    const trashed = toolResult(
      await client.callTool({
        name: 'delete_message',
        arguments: { inbox_id: receiver, message_id: received.message_id },
      }),
    );
    assert.equal(trashed.permanent, false);
    const hidden = toolResult(
      await client.callTool({ name: 'list_messages', arguments: { inbox_id: receiver, q: 'shipping' } }),
    );
    assert.equal(hidden.count, 0);
    const restored = toolResult(
      await client.callTool({
        name: 'restore_message',
        arguments: { inbox_id: receiver, message_id: received.message_id },
      }),
    );
    assert.ok(!restored.labels.includes('trash'));

    const gone = toolResult(
      await client.callTool({
        name: 'delete_thread',
        arguments: { inbox_id: receiver, thread_id: received.thread_id, permanent: true },
      }),
    );
    assert.equal(gone.permanent, true);
    const after = await client.callTool({
      name: 'get_thread',
      arguments: { inbox_id: receiver, thread_id: received.thread_id },
    });
    assert.equal(after.isError, true);
  });

  test('a bad filter is a tool error naming the parameter', async () => {
    const result = await client.callTool({ name: 'search_messages', arguments: { after: 'last week' } });
    assert.equal(result.isError, true);
    const text = (result.content as { text: string }[])[0]!.text;
    assert.equal(JSON.parse(text).error.param, 'after');
  });
});
