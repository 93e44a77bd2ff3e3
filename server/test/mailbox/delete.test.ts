import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

/** Trash, restore and permanent deletion of messages and threads. */
describe('deleting messages and threads', () => {
  let t: TestMailbox;
  let key: string;
  let inbox: string;
  let chain = 0;

  const call = async (method: string, path: string, body?: unknown, status = 200) => {
    const response = await t.request(method, path, key, body);
    assert.equal(response.status, status, `${method} ${path}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const enc = encodeURIComponent;
  const messagePath = (id: string) => `/v0/inboxes/${inbox}/messages/${enc(id)}`;
  const listed = async (path: string) => {
    const body = await call('GET', path);
    return (body.messages ?? body.threads).map((item: any) => item.message_id ?? item.thread_id);
  };

  /** A thread of `count` received messages, each replying to the one before; their Message-IDs. */
  async function thread(
    count: number,
    subject = 'Quarterly report',
  ): Promise<{ ids: string[]; threadId: string }> {
    chain += 1;
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const id = `<c${chain}-${n}-${t.unique('m')}@example.com>`;
      t.clock.advance(1_000);
      await t.sendSmtp({
        from: `sender${n}@example.com`,
        to: inbox,
        subject: n ? `Re: ${subject}` : subject,
        text: `part ${n} of ${subject}`,
        messageId: id,
        ...(n ? { inReplyTo: ids[n - 1], references: ids.join(' ') } : {}),
        ...(n === 0 ? { attachments: [{ filename: 'report.txt', content: 'numbers' }] } : {}),
      });
      ids.push(id);
    }
    const first = await call('GET', messagePath(ids[0]!));
    return { ids, threadId: first.thread_id };
  }

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    key = (await t.platform.createApiKey(workspace)).secret;
    inbox = (await t.createInbox(key)).inbox_id;
  });
  after(() => t.close());

  test('DELETE moves a message to the trash: hidden from lists and search, shown with labels=trash, restored', async () => {
    const { ids, threadId } = await thread(2, 'Trash me');
    const [first, second] = ids as [string, string];
    const deleted = await call('DELETE', messagePath(second));
    assert.deepEqual(deleted, { inbox_id: inbox, message_id: second, thread_id: threadId, permanent: false });
    const again = await call('DELETE', messagePath(second));
    assert.equal(again.permanent, false, 'a second DELETE is a no-op, never a permanent deletion');
    assert.ok((await call('GET', messagePath(second))).labels.includes('trash'), 'still readable');

    const messages = await listed(`/v0/inboxes/${inbox}/messages?q=trash`);
    assert.deepEqual(messages, [first], 'hidden from lists and search');
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/messages?labels=trash&q=trash`), [second]);
    assert.deepEqual(await listed('/v0/messages?labels=trash&q=trash'), [second], 'and across the workspace');
    const th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.ok(!th.labels.includes('trash'), 'a thread is in the trash only when all its messages are');
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/threads?q=trash`), [threadId]);
    assert.equal(th.message_count, 2, 'trashed messages stay in their thread until deleted for good');

    const patched = await t.request('PATCH', messagePath(first), key, { add_labels: ['trash'] });
    assert.equal(patched.status, 400);
    assert.equal(patched.body.error.param, 'add_labels[0]', 'one way into the trash: DELETE');

    const restored = await call('POST', `${messagePath(second)}/restore`);
    assert.ok(!restored.labels.includes('trash'));
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/messages?q=trash`), [second, first]);
  });

  test('DELETE of a thread trashes all its messages; new mail in it takes it out; restore', async () => {
    const { ids, threadId } = await thread(2, 'Old news');
    assert.equal((await call('DELETE', `/v0/inboxes/${inbox}/threads/${threadId}`)).permanent, false);
    const th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.ok(th.labels.includes('trash'));
    assert.ok(th.messages.every((m: any) => m.labels.includes('trash')));
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/threads?q=news`), []);
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/threads?labels=trash&q=news`), [threadId]);
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/messages?q=news`), []);

    await call('POST', `/v0/inboxes/${inbox}/threads/${threadId}/restore`);
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/threads?q=news`), [threadId]);

    await call('DELETE', `/v0/inboxes/${inbox}/threads/${threadId}`);
    await t.sendSmtp({
      from: 'late@example.com',
      to: inbox,
      subject: 'Re: Old news',
      text: 'one more thing',
      inReplyTo: ids[1],
      references: ids.join(' '),
    });
    const revived = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.equal(revived.message_count, 3);
    assert.ok(!revived.labels.includes('trash'), 'a new message takes the thread out of the trash');
    assert.deepEqual(await listed(`/v0/inboxes/${inbox}/threads?q=news`), [threadId]);
  });

  test('permanent=true deletes a message for good: bytes, attachments, thread aggregates, event', async () => {
    const { ids, threadId } = await thread(3, 'Forever');
    const [first, second, third] = ids as [string, string, string];
    const firstRow = await t.deps.db
      .selectFrom('mailbox_messages')
      .select(['raw_key', 'id'])
      .where('message_id', '=', first)
      .executeTakeFirstOrThrow();
    const attachment = await t.deps.db
      .selectFrom('mailbox_attachments')
      .select('storage_key')
      .where('message_row_id', '=', firstRow.id)
      .executeTakeFirstOrThrow();
    assert.ok(await t.deps.storage.get(firstRow.raw_key!));

    const deleted = await call('DELETE', `${messagePath(first)}?permanent=true`);
    assert.equal(deleted.permanent, true);
    await call('GET', messagePath(first), undefined, 404);
    assert.equal(await t.deps.storage.get(firstRow.raw_key!), null, 'the raw MIME is gone');
    assert.equal(await t.deps.storage.get(attachment.storage_key), null, 'and the attachment');

    let th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.equal(th.message_count, 2);
    assert.deepEqual(th.senders, ['sender1@example.com', 'sender2@example.com']);
    assert.equal(th.last_message_id, third);
    assert.equal(th.subject, 'Forever', 'the thread keeps its subject');

    // The newest one: the thread's last message, preview and time step back.
    await call('DELETE', `${messagePath(third)}?permanent=true`);
    th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.equal(th.last_message_id, second);
    assert.equal(th.timestamp, th.messages[0].timestamp);
    assert.equal(th.preview, 'part 1 of Forever');

    await call('DELETE', `${messagePath(second)}?permanent=true`);
    await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`, undefined, 404);

    const events = await call('GET', `/v0/inboxes/${inbox}/events?event_types=message.deleted&limit=100`);
    const mine = events.events.filter((e: any) => ids.includes(e.message_id));
    assert.deepEqual(
      mine.map((e: any) => e.message_id),
      [first, third, second],
    );
    assert.equal(mine[0].thread.message_count, 2, 'the thread as it is after the deletion');
    assert.equal(mine[2].thread, null, 'the thread went with its last message');
  });

  test('recomputed thread labels: trash only while every message left is in the trash', async () => {
    const { ids, threadId } = await thread(3, 'Mixed');
    await call('DELETE', messagePath(ids[2]!));
    await call('DELETE', `${messagePath(ids[1]!)}?permanent=true`);
    let th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.ok(!th.labels.includes('trash'), JSON.stringify(th.labels));
    await call('DELETE', `${messagePath(ids[0]!)}?permanent=true`);
    th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.ok(th.labels.includes('trash'), 'its one message left is in the trash');
    assert.equal(th.message_count, 1);
  });

  test('permanent=true deletes a thread with every message, once', async () => {
    const { ids, threadId } = await thread(2, 'Shred');
    const deleted = await call('DELETE', `/v0/inboxes/${inbox}/threads/${threadId}?permanent=true`);
    assert.deepEqual(deleted, { inbox_id: inbox, thread_id: threadId, permanent: true });
    await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`, undefined, 404);
    for (const id of ids) await call('GET', messagePath(id), undefined, 404);
    await call('DELETE', `/v0/inboxes/${inbox}/threads/${threadId}?permanent=true`, undefined, 404);
    const events = await call('GET', `/v0/inboxes/${inbox}/events?event_types=thread.deleted&limit=100`);
    const mine = events.events.filter((e: any) => e.thread_id === threadId);
    assert.equal(mine.length, 1);
    assert.deepEqual(mine[0].message_ids, ids);
  });

  test('a permanent delete racing replies into the same thread leaves its aggregates exact', async () => {
    const { ids, threadId } = await thread(3, 'Busy');
    const replies = Array.from({ length: 6 }, (_, n) =>
      t.sendSmtp({
        from: `racer${n}@example.com`,
        to: inbox,
        subject: 'Re: Busy',
        text: `racing ${n}`,
        inReplyTo: ids[2],
        references: ids.join(' '),
      }),
    );
    const deletions = [ids[0]!, ids[1]!].map((id) => call('DELETE', `${messagePath(id)}?permanent=true`));
    await Promise.all([...replies, ...deletions]);
    const th = await call('GET', `/v0/inboxes/${inbox}/threads/${threadId}`);
    assert.equal(th.message_count, th.messages.length);
    assert.equal(th.message_count, 7);
    assert.equal(
      th.size,
      th.messages.reduce((sum: number, m: any) => sum + m.size, 0),
    );
    assert.ok(!th.senders.includes('sender0@example.com'));
  });

  test('label changes racing a move to the trash are all kept', async () => {
    const { ids } = await thread(1, 'Race labels');
    const id = ids[0]!;
    await Promise.all([
      call('PATCH', messagePath(id), { remove_labels: ['unread'] }),
      call('PATCH', messagePath(id), { add_labels: ['billing'] }),
      call('DELETE', messagePath(id)),
      call('PATCH', messagePath(id), { add_labels: ['later'] }),
    ]);
    const message = await call('GET', messagePath(id));
    assert.deepEqual([...message.labels].sort(), ['billing', 'later', 'received', 'trash']);
  });

  test('two permanent deletions of one message at once: one succeeds, one 404, one event', async () => {
    const { ids } = await thread(2, 'Twice');
    const id = ids[1]!;
    const answers = await Promise.all(
      [1, 2].map(() => t.request('DELETE', `${messagePath(id)}?permanent=true`, key)),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404]);
    const events = await call('GET', `/v0/inboxes/${inbox}/events?event_types=message.deleted&limit=100`);
    assert.equal(events.events.filter((e: any) => e.message_id === id).length, 1);
  });

  test('bad input and reach', async () => {
    const { ids, threadId } = await thread(1, 'Edge');
    const bad = await t.request('DELETE', `${messagePath(ids[0]!)}?permanent=perhaps`, key);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'permanent');
    const unknown = await t.request('DELETE', `/v0/inboxes/${inbox}/threads/${threadId}?force=1`, key);
    assert.equal(unknown.status, 400);
    await call('DELETE', messagePath('<nothing@example.com>'), undefined, 404);
    await call('POST', `/v0/inboxes/${inbox}/threads/thr_nothing/restore`, undefined, 404);
    const stranger = await t.platform.signup();
    const strangerKey = (await t.platform.createApiKey(stranger)).secret;
    const response = await t.request('DELETE', `${messagePath(ids[0]!)}?permanent=true`, strangerKey);
    assert.equal(response.status, 404);
    await call('GET', messagePath(ids[0]!));
  });
});
