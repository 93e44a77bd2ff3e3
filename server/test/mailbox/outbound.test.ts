import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type MailRelay, SmtpRelay } from '../../src/mailbox/messages/transport.ts';
import { startTestRelay } from '../../src/mailbox/testing/relay.ts';
import { startMailbox, type TestMailbox } from './app.ts';

describe('outbound mail: relay, internal delivery, replies and drafts', () => {
  let t: TestMailbox;
  let accepting: Awaited<ReturnType<typeof startTestRelay>>;
  let refusing: Awaited<ReturnType<typeof startTestRelay>>;
  let current: MailRelay;
  let inbox: { inbox_id: string };
  let peer: { inbox_id: string };
  const relay: MailRelay = {
    configured: true,
    send: (raw, envelope, dkim) => current.send(raw, envelope, dkim),
    close() {},
  };

  before(async () => {
    accepting = await startTestRelay('accept');
    refusing = await startTestRelay('refuse');
    current = new SmtpRelay(accepting.url);
    t = await startMailbox({ overrides: { relay } });
    await t.listen();
    inbox = await t.createInbox(t.adminKey, { display_name: 'Sales Agent' });
    peer = await t.createInbox(t.adminKey);
  });
  after(async () => {
    await t.close();
    await accepting.close();
    await refusing.close();
  });

  test('a send accepted by the relay is stored as sent and fires message.sent', async () => {
    const ws = await t.openSocket(`/v0/inboxes/${inbox.inbox_id}/ws`);
    await ws.next((f) => f.type === 'subscribed');
    const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      to: ['Customer <customer@example.com>'],
      bcc: 'audit@example.org',
      subject: 'Your quote',
      text: 'Here it is.',
      attachments: [
        {
          filename: 'quote.txt',
          content_type: 'text/plain',
          content: Buffer.from('42 EUR').toString('base64'),
        },
      ],
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.status, 'sent');
    assert.deepEqual(response.body.labels, ['sent']);
    assert.equal(response.body.matched_by, 'new');
    assert.equal(response.body.attachments[0].filename, 'quote.txt');
    const relayed = accepting.received.at(-1)!;
    assert.deepEqual(relayed.to.sort(), ['audit@example.org', 'customer@example.com']);
    assert.equal(relayed.from, inbox.inbox_id);
    assert.match(relayed.raw, /Subject: Your quote/);
    assert.doesNotMatch(relayed.raw, /^Bcc:/im, 'Bcc stays out of the headers');
    assert.match(relayed.raw, /From: Sales Agent </);
    const frame = await ws.next((f) => f.type === 'event');
    assert.equal(frame.event_type, 'message.sent');
    assert.equal(frame.message.message_id, response.body.message_id);
    ws.socket.close();
  });

  test('a send refused by the relay is stored as rejected and fires message.rejected with the reason', async () => {
    current = new SmtpRelay(refusing.url);
    try {
      const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
        to: 'someone@example.net',
        subject: 'Will bounce',
        text: 'x',
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.status, 'rejected');
      assert.match(response.body.rejection_reason, /Relay access denied/);
      const events = await t.request(
        'GET',
        `/v0/inboxes/${inbox.inbox_id}/events?event_types=message.rejected`,
        t.adminKey,
      );
      assert.equal(events.body.events.at(-1).event_type, 'message.rejected');
      assert.match(events.body.events.at(-1).reason, /Relay access denied/);
    } finally {
      current = new SmtpRelay(accepting.url);
    }
  });

  test('mail to an inbox of this service is delivered internally, without the relay', async () => {
    const before = accepting.received.length;
    const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      to: peer.inbox_id,
      subject: 'Internal hello',
      text: 'Between agents.',
    });
    assert.equal(response.body.status, 'sent');
    assert.equal(accepting.received.length, before, 'the relay saw nothing');
    const received = await t.request('GET', `/v0/inboxes/${peer.inbox_id}/messages`, t.adminKey);
    assert.equal(received.body.messages[0].subject, 'Internal hello');
    assert.equal(received.body.messages[0].message_id, response.body.message_id);

    // The peer replies; the reply threads with the original in both inboxes.
    const reply = await t.request(
      'POST',
      `/v0/inboxes/${peer.inbox_id}/messages/${encodeURIComponent(response.body.message_id)}/reply`,
      t.adminKey,
      { text: 'Hello back.' },
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.subject, 'Re: Internal hello');
    assert.equal(reply.body.in_reply_to, response.body.message_id);
    assert.deepEqual(reply.body.to, [`Sales Agent <${inbox.inbox_id}>`]);
    const original = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(reply.body.message_id)}`,
      t.adminKey,
    );
    assert.equal(original.body.thread_id, response.body.thread_id);
    assert.equal(original.body.matched_by, 'in_reply_to');
  });

  test('drafts fire draft.created and send as a message', async () => {
    const created = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/drafts`, t.adminKey, {
      to: ['lead@example.com'],
      subject: 'Follow-up',
      text: 'Draft text',
    });
    assert.equal(created.status, 201);
    assert.match(created.body.draft_id, /^drf_/);
    const listed = await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/drafts`, t.adminKey);
    assert.ok(listed.body.drafts.some((d: { draft_id: string }) => d.draft_id === created.body.draft_id));
    const events = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/events?event_types=draft.created`,
      t.adminKey,
    );
    assert.equal(events.body.events.at(-1).draft.draft_id, created.body.draft_id);
    const sent = await t.request(
      'POST',
      `/v0/inboxes/${inbox.inbox_id}/drafts/${created.body.draft_id}/send`,
      t.adminKey,
    );
    assert.equal(sent.status, 200);
    assert.equal(sent.body.status, 'sent');
    assert.equal(sent.body.subject, 'Follow-up');
    const gone = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/drafts/${created.body.draft_id}`,
      t.adminKey,
    );
    assert.equal(gone.status, 404);
  });

  test('invalid recipients are refused before anything is sent', async () => {
    const none = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      subject: 'x',
      text: 'x',
    });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.param, 'to');
    const bad = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      to: ['not an address'],
      text: 'x',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'to[0]');
  });
});
