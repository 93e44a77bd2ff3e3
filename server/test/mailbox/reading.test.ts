import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { startMailbox, type TestMailbox } from './app.ts';

/** Mail an agent can read: extracted reply text, decoded 8-bit headers, safe file names, flags. */
describe('reading mail over real SMTP', () => {
  let t: TestMailbox;
  let inbox: { inbox_id: string };

  /** Sends these exact bytes over SMTP (nodemailer's `raw`: nothing is re-encoded). */
  async function sendRaw(raw: Buffer, from = 'juergen@example.de') {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: t.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({ envelope: { from, to: [inbox.inbox_id] }, raw });
    } finally {
      transport.close();
    }
  }

  async function message(messageId: string) {
    const response = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(messageId)}`,
      t.adminKey,
    );
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  }

  before(async () => {
    t = await startMailbox();
    await t.listen();
    inbox = await t.createInbox(t.adminKey, { display_name: 'Reader' });
  });
  after(() => t.close());

  test('a reply is stored with its new part: on GET, in lists and in the event', async () => {
    await t.sendSmtp({
      from: 'Alice <alice@example.com>',
      to: inbox.inbox_id,
      subject: 'Re: Meeting',
      messageId: '<reply-1@example.com>',
      text: [
        'Thursday at 10 works for me.',
        '',
        `On Tue, Mar 5, 2024 at 9:14 AM Reader <${inbox.inbox_id}> wrote:`,
        '',
        '> Could we meet on Thursday?',
      ].join('\n'),
    });
    const stored = await message('<reply-1@example.com>');
    assert.equal(stored.extracted_text, 'Thursday at 10 works for me.');
    assert.equal(stored.extracted_html, null, 'a text-only message has no HTML to extract');
    assert.match(stored.text, /Could we meet/, 'text stays whole');

    const list = await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/messages`, t.adminKey);
    const listed = list.body.messages.find((m: any) => m.message_id === '<reply-1@example.com>');
    assert.equal(listed.extracted_text, 'Thursday at 10 works for me.');

    const events = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/events?event_types=message.received`,
      t.adminKey,
    );
    const event = events.body.events.find((e: any) => e.message.message_id === '<reply-1@example.com>');
    assert.equal(event.message.extracted_text, 'Thursday at 10 works for me.');
  });

  test('an HTML reply from Gmail is stored without its gmail_quote', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: t.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: 'alice@example.com',
      to: inbox.inbox_id,
      subject: 'Re: Lunch',
      messageId: '<reply-html@example.com>',
      html:
        '<div dir="ltr">Noon is fine.</div><br><div class="gmail_quote"><div class="gmail_attr">On Tue, Alice wrote:</div>' +
        '<blockquote class="gmail_quote">Lunch at noon?</blockquote></div>',
    });
    transport.close();
    const stored = await message('<reply-html@example.com>');
    assert.equal(stored.extracted_html, '<div dir="ltr">Noon is fine.</div><br>');
    assert.ok(stored.html.includes('Lunch at noon?'));
  });

  test('sent mail is extracted too', async () => {
    const peer = await t.createInbox(t.adminKey);
    const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      to: peer.inbox_id,
      subject: 'Re: Plans',
      text: 'Confirmed.\n\n-- \nReader, the agent',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.extracted_text, 'Confirmed.');
  });

  test('raw 8-bit Latin-1 and UTF-8 headers are decoded, not mangled', async () => {
    const raw = Buffer.concat([
      Buffer.from('From: '),
      Buffer.from('Jürgen Müller', 'latin1'),
      Buffer.from(` <juergen@example.de>\r\nTo: ${inbox.inbox_id}\r\nSubject: `),
      Buffer.from([
        ...Buffer.from('Grüße aus Köln ', 'latin1'),
        0x80, // "€" in Windows-1252
      ]),
      Buffer.from('\r\nX-Note: '),
      Buffer.from('Straße ✓', 'utf8'),
      Buffer.from('\r\nMessage-ID: <latin1@example.de>\r\nMIME-Version: 1.0\r\n'),
      Buffer.from('Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'),
      Buffer.from('Schöne Grüße\r\n', 'latin1'),
    ]);
    await sendRaw(raw);
    const stored = await message('<latin1@example.de>');
    assert.equal(stored.subject, 'Grüße aus Köln €');
    assert.equal(stored.from, 'Jürgen Müller <juergen@example.de>');
    assert.equal(stored.headers.subject, 'Grüße aus Köln €');
    assert.equal(stored.headers['x-note'], 'Straße ✓', 'valid UTF-8 stays UTF-8');
    assert.equal(stored.text.trim(), 'Schöne Grüße', 'the body keeps its declared charset');
    assert.equal(stored.headers_truncated, false);

    const bytes = await t.app.inject({
      method: 'GET',
      url: `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent('<latin1@example.de>')}/raw`,
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    assert.deepEqual(bytes.rawPayload, raw, 'the raw message is kept byte for byte');
  });

  test("an attachment's raw 8-bit fallback file name is decoded and made safe", async () => {
    const raw = Buffer.concat([
      Buffer.from(`From: juergen@example.de\r\nTo: ${inbox.inbox_id}\r\nSubject: files\r\n`),
      Buffer.from('Message-ID: <files@example.de>\r\nMIME-Version: 1.0\r\n'),
      Buffer.from('Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\n'),
      Buffer.from('Content-Type: text/plain\r\n\r\nsee attached\r\n--b1\r\n'),
      Buffer.from('Content-Type: application/pdf\r\nContent-Disposition: attachment; filename="'),
      Buffer.from('../Übersicht', 'latin1'),
      Buffer.from([0x07, 0x80]),
      Buffer.from('.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n--b1--\r\n'),
    ]);
    await sendRaw(raw);
    const stored = await message('<files@example.de>');
    assert.equal(stored.attachments.length, 1);
    assert.equal(stored.attachments[0].filename, '_Übersicht€.pdf');
  });

  test('auto_reply_reason is stored and returned on GET', async () => {
    await t.sendSmtp({
      from: 'alice@example.com',
      to: inbox.inbox_id,
      subject: 'Out of office',
      text: 'I am away until Monday.',
      messageId: '<ooo@example.com>',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    const stored = await message('<ooo@example.com>');
    assert.equal(stored.auto_reply, true);
    assert.equal(stored.auto_reply_reason, 'auto-submitted: auto-replied');
    const plain = await message('<latin1@example.de>');
    assert.equal(plain.auto_reply_reason, null);
  });

  test('headers past the cap are flagged with headers_truncated, never dropped silently', async () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 230; i++) headers[`X-Trace-${String(i).padStart(3, '0')}`] = `hop ${i}`;
    await t.sendSmtp({
      from: 'alice@example.com',
      to: inbox.inbox_id,
      subject: 'Many headers',
      text: 'hi',
      messageId: '<many-headers@example.com>',
      headers,
    });
    const stored = await message('<many-headers@example.com>');
    assert.equal(stored.headers_truncated, true);
    assert.equal(Object.keys(stored.headers).length, 200);
    assert.equal(stored.headers['x-trace-000'], 'hop 0', 'the first headers are kept');
  });
});
