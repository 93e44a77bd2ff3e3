// The composing tools of the mailbox's MCP server: forward_message and update_draft.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';
import { connectMcp, toolError, toolResult } from './client.ts';

describe('mailbox MCP: forward_message and update_draft', () => {
  let t: TestMailbox;
  let client: Client;
  let inbox: { inbox_id: string };

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    const key = (await t.platform.createApiKey(workspace)).secret;
    client = await connectMcp(t.baseUrl, key);
    inbox = toolResult(
      await client.callTool({ name: 'create_inbox', arguments: { username: t.unique() } }),
    ) as any;
  });
  after(async () => {
    await client?.close().catch(() => {});
    await t?.close();
  });

  test('both are listed, described, with inputs from their routes and fitting annotations', async () => {
    const { tools } = await client.listTools();
    const forward = tools.find((tool) => tool.name === 'forward_message');
    const update = tools.find((tool) => tool.name === 'update_draft');
    assert.ok(forward && update);
    assert.deepEqual([...(forward.inputSchema.required ?? [])].sort(), ['inbox_id', 'message_id']);
    assert.ok(forward.inputSchema.properties?.include_attachments && forward.inputSchema.properties.headers);
    assert.equal(forward.annotations?.openWorldHint, true);
    assert.deepEqual([...(update.inputSchema.required ?? [])].sort(), ['draft_id', 'inbox_id']);
    assert.equal(update.annotations?.idempotentHint, true);
    assert.ok((forward.description?.length ?? 0) > 60 && (update.description?.length ?? 0) > 60);
  });

  test('forward_message forwards a received message with a note', async () => {
    const messageId = `<${t.unique('orig')}@example.com>`;
    await t.sendSmtp({
      from: 'alice@example.com',
      to: inbox.inbox_id,
      subject: 'Invoice',
      text: 'Due Friday.',
      messageId,
    });
    const forwarded = toolResult(
      await client.callTool({
        name: 'forward_message',
        arguments: {
          inbox_id: inbox.inbox_id,
          message_id: messageId,
          to: 'books@example.com',
          text: 'For you.',
        },
      }),
    );
    assert.equal(forwarded.subject, 'Fwd: Invoice');
    assert.match(
      forwarded.text,
      /^For you\.\n\n---------- Forwarded message ---------\nFrom: alice@example.com\n/,
    );
    assert.match(forwarded.text, /\n\nDue Friday\.\n?$/);
  });

  test('update_draft changes the fields given; a refused header is a tool error naming it', async () => {
    const draft = toolResult(
      await client.callTool({
        name: 'create_draft',
        arguments: { inbox_id: inbox.inbox_id, to: 'lead@example.com', cc: 'x@example.com', subject: 'v1' },
      }),
    );
    const updated = toolResult(
      await client.callTool({
        name: 'update_draft',
        arguments: { inbox_id: inbox.inbox_id, draft_id: draft.draft_id, subject: 'v2', cc: null },
      }),
    );
    assert.equal(updated.subject, 'v2');
    assert.deepEqual(updated.cc, []);
    assert.deepEqual(updated.to, ['lead@example.com']);
    const refused = await client.callTool({
      name: 'update_draft',
      arguments: { inbox_id: inbox.inbox_id, draft_id: draft.draft_id, headers: { From: 'ceo@example.com' } },
    });
    assert.deepEqual(
      { ...toolError(refused).error },
      { ...toolError(refused).error, code: 'parameter_invalid', param: 'headers.From' },
    );
  });
});
