// The mailbox's list tools over MCP (docs/mailbox.md, "MCP"): an agent blocks a recipient for its
// inbox, a send to it then fails with the API's recipient_not_allowed, and unblocking lets it go.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';
import { connectMcp, toolError, toolResult } from './client.ts';

describe('mailbox MCP: list tools', () => {
  let t: TestMailbox;
  let agent: Client;
  let inbox: { inbox_id: string };

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const key = (await t.platform.createApiKey(await t.platform.signup())).secret;
    inbox = await t.createInbox(key);
    agent = await connectMcp(t.baseUrl, key);
  });
  after(async () => {
    await agent?.close().catch(() => {});
    await t?.close();
  });

  test('tools/list: block and unblock write, the lists read; allow lists cannot be changed here', async () => {
    const byName = new Map((await agent.listTools()).tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get('block_address')?.annotations?.readOnlyHint, false);
    assert.equal(byName.get('unblock_address')?.annotations?.destructiveHint, true);
    assert.equal(byName.get('list_blocked')?.annotations?.readOnlyHint, true);
    assert.equal(byName.get('list_allowed')?.annotations?.readOnlyHint, true);
    assert.ok(byName.get('block_address')?.inputSchema.properties?.direction, 'direction is an input');
    assert.ok(![...byName.keys()].some((name) => /^(allow|unallow)_/.test(name)));
  });

  test('block a recipient, see the send refused naming it, unblock it', async () => {
    const entry = toolResult(
      await agent.callTool({
        name: 'block_address',
        arguments: { inbox_id: inbox.inbox_id, value: 'noreply.example', direction: 'send' },
      }),
    );
    assert.equal(entry.direction, 'send');
    assert.equal(entry.scope, 'inbox');
    const listed = toolResult(
      await agent.callTool({ name: 'list_blocked', arguments: { inbox_id: inbox.inbox_id } }),
    );
    assert.deepEqual(
      listed.entries.map((e: { entry_id: string }) => e.entry_id),
      [entry.entry_id],
    );
    const refused = toolError(
      await agent.callTool({
        name: 'send_message',
        arguments: { inbox_id: inbox.inbox_id, to: 'bot@mail.noreply.example', text: 'x' },
      }),
    ).error;
    assert.equal(refused.code, 'recipient_not_allowed');
    assert.equal(refused.param, 'to[0]');
    toolResult(
      await agent.callTool({
        name: 'unblock_address',
        arguments: { inbox_id: inbox.inbox_id, entry_id: entry.entry_id },
      }),
    );
    const allowed = toolResult(
      await agent.callTool({ name: 'list_allowed', arguments: { inbox_id: inbox.inbox_id } }),
    );
    assert.equal(allowed.count, 0);
    const sent = await agent.callTool({
      name: 'send_message',
      arguments: { inbox_id: inbox.inbox_id, to: 'bot@mail.noreply.example', text: 'x' },
    });
    assert.notEqual(sent.isError, true, JSON.stringify(sent.content));
  });
});
