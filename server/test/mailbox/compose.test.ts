// Composing over /v0: custom headers, attachments by URL, forward, reply-all and draft update.
// Content is checked on the stored bytes (`/raw`), which are exactly what is relayed.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type MailRelay, SmtpRelay } from '../../src/mailbox/messages/transport.ts';
import { startTestRelay } from '../../src/mailbox/testing/relay.ts';
import { startMailbox, type TestMailbox } from './app.ts';

describe('composing: headers, attachments by URL, forward, reply-all, draft update', () => {
  let t: TestMailbox;
  let relayServer: Awaited<ReturnType<typeof startTestRelay>>;
  let files: Server;
  let filesUrl: string;
  let fetches = 0;
  let inbox: { inbox_id: string };
  let relay: MailRelay;

  const path = (suffix: string) => `/v0/inboxes/${inbox.inbox_id}${suffix}`;
  const call = (method: string, suffix: string, body?: unknown) =>
    t.request(method, path(suffix), t.adminKey, body);
  const messagePath = (messageId: string, suffix = '') =>
    `/messages/${encodeURIComponent(messageId)}${suffix}`;
  const rawOf = async (messageId: string) =>
    (await call('GET', messagePath(messageId, '/raw'))).body as string;
  const refused = (response: { status: number; body: any }, param: string) => {
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal(response.body.error.param, param, JSON.stringify(response.body));
  };
  /** Mail that arrives over SMTP, as from the outside; answers the stored message. */
  const receive = async (mail: Parameters<TestMailbox['sendSmtp']>[0]) => {
    const messageId = `<${t.unique('in')}@example.com>`;
    await t.sendSmtp({ ...mail, messageId });
    const stored = await call('GET', messagePath(messageId));
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    return stored.body;
  };

  before(async () => {
    relayServer = await startTestRelay('accept');
    const smtp = new SmtpRelay(relayServer.url);
    relay = { configured: true, send: (raw, envelope, dkim) => smtp.send(raw, envelope, dkim), close() {} };
    files = createServer((request, response) => {
      fetches += 1;
      if (request.url === '/files/price%20list.pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(Buffer.from('%PDF price list'));
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    // The test harness allows loopback (OUTBOUND_ALLOW_CIDRS=127.0.0.0/8), as a deployment may.
    t = await startMailbox({ overrides: { relay } });
    await t.listen();
    inbox = await t.createInbox(t.adminKey, { display_name: 'Desk' });
  });
  after(async () => {
    await t.close();
    await relayServer.close();
    files.closeAllConnections();
    await new Promise((resolve) => files.close(resolve));
  });

  test('custom headers are written on the mail and shown on the message; structural ones are refused', async () => {
    const sent = await call('POST', '/messages/send', {
      to: 'customer@example.com',
      subject: 'Spring offer',
      text: 'Hello',
      headers: {
        'X-Campaign': 'spring-2026',
        'list-unsubscribe': '<mailto:unsubscribe@mail.test>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.headers['x-campaign'], 'spring-2026');
    const raw = await rawOf(sent.body.message_id);
    assert.match(raw, /^X-Campaign: spring-2026\r$/m);
    assert.match(raw, /^List-Unsubscribe: <mailto:unsubscribe@mail.test>\r$/m);
    assert.match(raw, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);

    for (const name of [
      'From',
      'Subject',
      'Message-ID',
      'References',
      'Content-Type',
      'DKIM-Signature',
      'Bcc',
    ]) {
      refused(
        await call('POST', '/messages/send', { to: 'a@example.com', headers: { [name]: 'x' } }),
        `headers.${name}`,
      );
    }
    refused(
      await call('POST', '/messages/send', {
        to: 'a@example.com',
        headers: { 'X-Note': 'a\r\nBcc: b@example.com' },
      }),
      'headers.X-Note',
    );
  });

  test('an attachment by URL is fetched (type and name from the response and the URL); a blocked or failing URL is a 400', async () => {
    const sent = await call('POST', '/messages/send', {
      to: 'customer@example.com',
      subject: 'Prices',
      text: 'Attached.',
      attachments: [{ url: `${filesUrl}/files/price%20list.pdf` }],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(
      sent.body.attachments.map((a: any) => [a.filename, a.content_type, a.size]),
      [['price list.pdf', 'application/pdf', 15]],
    );
    const download = await call(
      'GET',
      messagePath(sent.body.message_id, `/attachments/${sent.body.attachments[0].attachment_id}`),
    );
    assert.equal(download.body, '%PDF price list');

    const metadata = await call('POST', '/messages/send', {
      to: 'customer@example.com',
      attachments: [{ content: 'aGk=' }, { url: 'http://169.254.169.254/latest/meta-data/' }],
    });
    refused(metadata, 'attachments[1].url');
    assert.match(metadata.body.error.message, /blocked range/);
    const missing = await call('POST', '/messages/send', {
      to: 'customer@example.com',
      attachments: [{ url: `${filesUrl}/files/nothing.pdf` }],
    });
    refused(missing, 'attachments[0].url');
    assert.match(missing.body.error.message, /HTTP 404/);
    refused(
      await call('POST', '/messages/send', { to: 'c@example.com', attachments: [{ filename: 'a' }] }),
      'attachments[0]',
    );
  });

  test('forward: Fwd: subject, the original quoted below the note, its attachments along, in its thread', async () => {
    const original = await receive({
      from: 'Alice <alice@example.com>',
      to: inbox.inbox_id,
      subject: 'Contract',
      text: 'Please sign the attached contract.',
      headers: { Cc: 'bob@example.com' },
      attachments: [{ filename: 'contract.txt', content: 'terms and conditions' }],
    });
    const forwarded = await call('POST', messagePath(original.message_id, '/forward'), {
      to: 'Legal <legal@example.com>',
      text: 'Can you check this?',
      attachments: [{ filename: 'notes.txt', content: Buffer.from('my notes').toString('base64') }],
      headers: { 'X-Ticket': '42' },
    });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.body));
    assert.equal(forwarded.body.subject, 'Fwd: Contract');
    assert.deepEqual(forwarded.body.to, ['Legal <legal@example.com>']);
    assert.deepEqual(
      forwarded.body.attachments.map((a: any) => a.filename),
      ['contract.txt', 'notes.txt'],
    );
    assert.equal(forwarded.body.in_reply_to, null, 'a forward answers no one');
    assert.ok(forwarded.body.references.includes(original.message_id));
    assert.equal(forwarded.body.thread_id, original.thread_id, 'References keep it in the thread');
    assert.match(
      forwarded.body.text,
      /^Can you check this\?\n\n---------- Forwarded message ---------\nFrom: Alice <alice@example.com>\nDate: .+\nSubject: Contract\nTo: .+\nCc: bob@example.com\n\nPlease sign the attached contract\./,
    );
    const raw = await rawOf(forwarded.body.message_id);
    assert.match(raw, /^X-Ticket: 42\r$/m);
    assert.match(raw, /^References: .*<[^>]+@example\.com>/m);
    const attachment = forwarded.body.attachments[0];
    const bytes = await call(
      'GET',
      messagePath(forwarded.body.message_id, `/attachments/${attachment.attachment_id}`),
    );
    assert.equal(bytes.body, 'terms and conditions');

    // Forwarding the forward does not double the prefix; attachments can be left behind.
    const again = await call('POST', messagePath(forwarded.body.message_id, '/forward'), {
      to: 'boss@example.com',
      include_attachments: false,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.subject, 'Fwd: Contract');
    assert.deepEqual(again.body.attachments, []);

    refused(await call('POST', messagePath(original.message_id, '/forward'), { text: 'no one' }), 'to');
    const unknown = await call('POST', messagePath('<nope@example.com>', '/forward'), {
      to: 'a@example.com',
    });
    assert.equal(unknown.status, 404);
  });

  test('forward of an HTML message quotes it as HTML too', async () => {
    const sent = await call('POST', '/messages/send', {
      to: 'customer@example.com',
      subject: 'Newsletter',
      html: '<html><body><h1>News</h1><p>Spring is here.</p></body></html>',
    });
    const forwarded = await call('POST', messagePath(sent.body.message_id, '/forward'), {
      to: 'friend@example.com',
      html: '<p>Look at <b>this</b></p>',
    });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.body));
    assert.match(forwarded.body.html, /^<p>Look at <b>this<\/b><\/p><br>/);
    assert.match(forwarded.body.html, /---------- Forwarded message ---------<br>\nFrom: Desk &lt;/);
    assert.match(forwarded.body.html, /<h1>News<\/h1><p>Spring is here\.<\/p>/);
    assert.match(
      forwarded.body.text,
      // html-to-text writes a heading in capitals, as mailparser does for received mail.
      /Subject: Newsletter\nTo: customer@example.com\n\nNEWS\n\nSpring is here\./,
    );
  });

  test('reply-all: Reply-To and the sender on To, the original To and Cc on Cc, without the inbox or duplicates', async () => {
    const original = await receive({
      from: 'Alice <alice@example.com>',
      to: [inbox.inbox_id, 'bob@example.com'],
      subject: 'Planning',
      text: 'Thoughts?',
      headers: { Cc: 'Carol <carol@example.com>, Bob <BOB@example.com>', 'Reply-To': 'team@example.com' },
    });
    const reply = await call('POST', messagePath(original.message_id, '/reply'), {
      text: 'Agreed.',
      reply_all: true,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.to, ['team@example.com', 'Alice <alice@example.com>']);
    assert.deepEqual(reply.body.cc, ['bob@example.com', 'Carol <carol@example.com>']);
    const plain = await call('POST', messagePath(original.message_id, '/reply'), { text: 'Only you.' });
    assert.deepEqual(plain.body.to, ['team@example.com']);
    assert.deepEqual(plain.body.cc, []);
  });

  test('draft update: the fields given change, null clears, draft.updated fires, the sent mail has it all', async () => {
    const created = await call('POST', '/drafts', {
      to: 'lead@example.com',
      cc: 'assistant@example.com',
      subject: 'Offer',
      text: 'First version',
      attachments: [{ filename: 'old.txt', content: Buffer.from('old').toString('base64') }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const draftPath = `/drafts/${created.body.draft_id}`;
    const updated = await call('PATCH', draftPath, {
      subject: 'Revised offer',
      cc: null,
      headers: { 'X-Offer': 'v2' },
      attachments: [{ url: `${filesUrl}/files/price%20list.pdf` }],
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.subject, 'Revised offer');
    assert.deepEqual(updated.body.to, ['lead@example.com'], 'untouched');
    assert.equal(updated.body.text, 'First version', 'untouched');
    assert.deepEqual(updated.body.cc, []);
    assert.deepEqual(updated.body.headers, { 'X-Offer': 'v2' });
    assert.deepEqual(
      updated.body.attachments.map((a: any) => a.filename),
      ['price list.pdf'],
    );
    const events = await call('GET', '/events?event_types=draft.updated');
    assert.equal(events.body.events.at(-1).draft.subject, 'Revised offer');
    assert.equal((await call('GET', draftPath)).body.subject, 'Revised offer');

    const answering = await call('PATCH', draftPath, { in_reply_to: 'earlier@example.com' });
    assert.equal(answering.body.in_reply_to, '<earlier@example.com>');
    assert.deepEqual(answering.body.references, ['<earlier@example.com>'], 'References follow as on create');
    const standalone = await call('PATCH', draftPath, { in_reply_to: null });
    assert.deepEqual([standalone.body.in_reply_to, standalone.body.references], [null, []]);

    refused(await call('PATCH', draftPath, { to: ['not an address'] }), 'to[0]');
    refused(await call('PATCH', draftPath, { headers: { 'Reply-To': 'x@example.com' } }), 'headers.Reply-To');
    const empty = await call('PATCH', draftPath, {});
    assert.deepEqual([empty.status, empty.body], [200, standalone.body], 'an empty update changes nothing');
    assert.equal((await call('PATCH', draftPath, { client_id: 'x' })).status, 400);
    assert.equal((await call('PATCH', '/drafts/drf_missing', { subject: 'x' })).status, 404);

    const sent = await call('POST', `${draftPath}/send`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.subject, 'Revised offer');
    assert.deepEqual(sent.body.cc, []);
    assert.deepEqual(sent.body.headers, { 'x-offer': 'v2' });
    assert.match(await rawOf(sent.body.message_id), /^X-Offer: v2\r$/m);
    assert.equal((await call('PATCH', draftPath, { subject: 'late' })).status, 404);
  });

  test("the service's own labels (received, sent, trash…) are refused on send, reply, forward and drafts", async () => {
    const original = await receive({
      from: 'alice@example.com',
      to: inbox.inbox_id,
      subject: 'Labels',
      text: 'x',
    });
    const to = 'bob@example.com';
    refused(await call('POST', '/messages/send', { to, text: 'x', labels: ['mine', 'sent'] }), 'labels[1]');
    refused(
      await call('POST', messagePath(original.message_id, '/reply'), { text: 'x', labels: ['received'] }),
      'labels[0]',
    );
    refused(
      await call('POST', messagePath(original.message_id, '/forward'), { to, labels: ['trash'] }),
      'labels[0]',
    );
    refused(await call('POST', '/drafts', { to, labels: ['scheduled'] }), 'labels[0]');
    const draft = await call('POST', '/drafts', { to, labels: ['mine'] });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    refused(
      await call('PATCH', `/drafts/${draft.body.draft_id}`, { labels: ['ok', 'blocked'] }),
      'labels[1]',
    );
    const sent = await call('POST', '/messages/send', { to, text: 'x', labels: ['mine'] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.ok(sent.body.labels.includes('mine'));
  });

  test('a draft whose attachment is gone is not sent without it, and stays; a refused send keeps the draft', async () => {
    const created = await call('POST', '/drafts', {
      to: 'lead@example.com',
      text: 'with file',
      attachments: [{ filename: 'a.txt', content: Buffer.from('a').toString('base64') }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const draftPath = `/drafts/${created.body.draft_id}`;
    const row = await t.deps.db
      .selectFrom('mailbox_drafts')
      .select('attachments')
      .where('id', '=', created.body.draft_id)
      .executeTakeFirstOrThrow();
    await t.deps.storage.delete(row.attachments[0]!.storage_key);
    const conflict = await call('POST', `${draftPath}/send`);
    assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
    assert.match(conflict.body.error.message, /a\.txt is no longer stored/);
    assert.equal((await call('GET', draftPath)).status, 200, 'the draft is still there');
    // Attached again, it goes; the draft is gone then.
    const fixed = await call('PATCH', draftPath, {
      attachments: [{ filename: 'a.txt', content: Buffer.from('a').toString('base64') }],
    });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    assert.equal((await call('POST', `${draftPath}/send`)).status, 200);
    assert.equal((await call('GET', draftPath)).status, 404);
  });

  test('a draft goes only with the message: a failure while storing keeps it, an update meanwhile is a 409', async () => {
    const subject = t.unique('Draft kept');
    const created = await call('POST', '/drafts', {
      to: 'lead@example.com',
      subject,
      text: 'First version',
      attachments: [{ filename: 'a.txt', content: Buffer.from('a').toString('base64') }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const draftPath = `/drafts/${created.body.draft_id}`;
    const sentWith = async (text: string) => {
      const listed = await call('GET', `/messages?q=${encodeURIComponent(text)}`);
      return listed.body.messages.filter((m: { subject: string }) => m.subject === subject).length;
    };
    const storage = t.deps.storage;
    const put = storage.put;
    try {
      // The message's bytes cannot be written (a full disk): the send fails, the draft stays whole.
      storage.put = async () => {
        throw new Error('ENOSPC: no space left on device');
      };
      assert.equal((await call('POST', `${draftPath}/send`)).status, 500);
      storage.put = put;
      const kept = await call('GET', draftPath);
      assert.equal(kept.status, 200, 'the draft survived the failed send');
      assert.equal(kept.body.attachments.length, 1);

      // An update lands while the send is on its way (between reading the draft and storing the
      // message): the send stores nothing and answers 409; the draft keeps the update, and the
      // objects the send wrote (raw message, attachment) are removed again.
      const written: string[] = [];
      let raceDone = false;
      let patching = false;
      storage.put = async (...args: Parameters<typeof put>) => {
        if (patching) return put.apply(storage, args); // the PATCH's own writes belong to the draft
        written.push(args[0]);
        if (!raceDone) {
          raceDone = true;
          patching = true;
          const updated = await call('PATCH', draftPath, { text: 'Second version' });
          patching = false;
          assert.equal(updated.status, 200, JSON.stringify(updated.body));
        }
        return put.apply(storage, args);
      };
      const raced = await call('POST', `${draftPath}/send`);
      storage.put = put;
      assert.equal(raced.status, 409, JSON.stringify(raced.body));
      assert.ok(written.length >= 2, `the send wrote its objects: ${written.join(', ')}`);
      for (const key of written) assert.equal(await storage.head(key), null, `${key} removed after the 409`);
      assert.equal(raced.body.error.param, 'draft_id');
      assert.equal((await call('GET', draftPath)).body.text, 'Second version');
      assert.equal(await sentWith('First version'), 0, 'nothing was stored or sent');
    } finally {
      storage.put = put;
    }

    const sent = await call('POST', `${draftPath}/send`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.text, 'Second version');
    assert.equal((await call('GET', draftPath)).status, 404, 'sent: the draft is gone');
    assert.equal(await sentWith('Second version'), 1);
  });

  test('recipients are checked (addresses, send lists) before any attachment URL is fetched', async () => {
    const before = fetches;
    const attachments = [{ url: `${filesUrl}/files/price%20list.pdf` }];
    refused(await call('POST', '/messages/send', { to: 'not an address', attachments }), 'to[0]');
    const block = await call('POST', '/block-list', { value: 'nope.example', direction: 'send' });
    assert.equal(block.status, 201, JSON.stringify(block.body));
    const blocked = await call('POST', '/messages/send', { to: 'x@nope.example', attachments });
    assert.equal(blocked.status, 400, JSON.stringify(blocked.body));
    assert.equal(fetches, before, 'no URL fetched for a send refused on its recipients');
    const sent = await call('POST', '/messages/send', { to: 'ok@example.com', attachments });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(fetches, before + 1);
  });
});
