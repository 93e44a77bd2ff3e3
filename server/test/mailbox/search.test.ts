import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

/** Search and filters on the message and thread lists, per inbox and across the workspace. */
describe('search over messages and threads', () => {
  let t: TestMailbox;
  let key: string;
  let inbox: string;
  let peer: string;
  let strangerKey: string;
  let strangerInbox: string;
  const sent: Record<string, string> = {};
  let start: Date;

  const list = async (path: string, token = key) => {
    const response = await t.request('GET', path, token);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };
  const subjects = async (path: string, token = key) => {
    const body = await list(path, token);
    return (body.messages ?? body.threads).map((item: any) => item.subject);
  };
  const messages = (query: string) => subjects(`/v0/inboxes/${inbox}/messages?${query}`);

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    key = (await t.platform.createApiKey(workspace)).secret;
    inbox = (await t.createInbox(key)).inbox_id;
    peer = (await t.createInbox(key)).inbox_id;
    const stranger = await t.platform.signup();
    strangerKey = (await t.platform.createApiKey(stranger)).secret;
    strangerInbox = (await t.createInbox(strangerKey)).inbox_id;
    start = t.clock.now();

    t.clock.advance(60_000);
    await t.sendSmtp({
      from: 'Alice Smith <alice@shop.example.com>',
      to: inbox,
      subject: 'Invoice 1234 for March',
      text: 'Please find the invoice attached. Payment within thirty days.',
      messageId: '<invoice@shop.example.com>',
      attachments: [{ filename: 'invoice.pdf', content: 'PDF bytes' }],
    });
    t.clock.advance(60_000);
    const lunch = await t.request('POST', `/v0/inboxes/${peer}/messages/send`, key, {
      to: `Robin Hood <${inbox}>`,
      subject: 'Lunch on Friday',
      html: '<style>.harbour-style { color: red }</style><p>Shall we meet at the <b>harbour</b>?</p>',
    });
    assert.equal(lunch.status, 200, JSON.stringify(lunch.body));
    sent.lunch = lunch.body.message_id;
    t.clock.advance(60_000);
    await t.sendSmtp({
      from: 'Bob <bob@other.test>',
      to: inbox,
      subject: 'Re: Invoice 1234 for March',
      text: 'Paid today, see the receipt.',
      inReplyTo: '<invoice@shop.example.com>',
      references: '<invoice@shop.example.com>',
    });
    t.clock.advance(60_000);
    await t.sendSmtp({
      from: 'carol@example.org',
      to: strangerInbox,
      subject: 'Invoice for the stranger',
      text: 'x',
    });
  });
  after(() => t.close());

  test('q matches subject, body, HTML as text and participants, whole words, in web-search syntax', async () => {
    assert.deepEqual(await messages('q=invoice'), ['Re: Invoice 1234 for March', 'Invoice 1234 for March']);
    assert.deepEqual(await messages('q=thirty'), ['Invoice 1234 for March'], 'a word of the text body');
    assert.deepEqual(await messages('q=harbour'), ['Lunch on Friday'], 'a word of the HTML body');
    assert.deepEqual(await messages('q=color'), [], 'style blocks are not text');
    assert.deepEqual(await messages('q=alice'), ['Invoice 1234 for March'], "the sender's name");
    assert.deepEqual(await messages('q=alice%40shop.example.com'), ['Invoice 1234 for March'], 'the address');
    assert.deepEqual(await messages('q=shop.example.com'), ['Invoice 1234 for March'], 'the domain');
    assert.deepEqual(await messages('q=robin'), ['Lunch on Friday'], "a recipient's name");
    assert.deepEqual(
      await messages('q=INVOICE%20paid'),
      ['Re: Invoice 1234 for March'],
      'every word, any case',
    );
    assert.deepEqual(
      await messages('q=%22for%20march%22%20-paid'),
      ['Invoice 1234 for March'],
      'phrase, exclusion',
    );
    assert.deepEqual(await messages('q=lunch%20or%20receipt'), [
      'Re: Invoice 1234 for March',
      'Lunch on Friday',
    ]);
    assert.deepEqual(await messages('q=invoic'), [], 'whole words: no stemming, no prefixes');
  });

  test('from, to, dates and attachments filter; filters combine', async () => {
    assert.deepEqual(await messages('from=alice%40shop.example.com'), ['Invoice 1234 for March']);
    assert.deepEqual(
      await messages('from=example.com'),
      ['Invoice 1234 for March'],
      'a domain covers subdomains',
    );
    assert.deepEqual(await messages('from=ample.com'), [], 'but not a suffix of a name');
    assert.deepEqual(await messages(`from=${peer}`), ['Lunch on Friday']);
    assert.deepEqual(
      await subjects(`/v0/inboxes/${peer}/messages?to=${inbox}`),
      ['Lunch on Friday'],
      'to, on the sent copy',
    );
    assert.deepEqual(await messages('to=mail.test&q=paid'), ['Re: Invoice 1234 for March']);
    const at = (minutes: number) =>
      encodeURIComponent(new Date(start.getTime() + minutes * 60_000).toISOString());
    assert.deepEqual(
      await messages(`after=${at(2)}`),
      ['Re: Invoice 1234 for March', 'Lunch on Friday'],
      'after is inclusive',
    );
    assert.deepEqual(
      await messages(`after=${at(2)}&before=${at(3)}`),
      ['Lunch on Friday'],
      'before is exclusive',
    );
    assert.deepEqual(await messages('has_attachments=true'), ['Invoice 1234 for March']);
    assert.deepEqual(await messages('has_attachments=false&q=invoice'), ['Re: Invoice 1234 for March']);
    assert.deepEqual(await messages(`labels=received&after=${at(1)}&from=other.test`), [
      'Re: Invoice 1234 for March',
    ]);
  });

  test('invalid filter values answer 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['after=yesterday', 'after'],
      ['before=2026-13-45', 'before'],
      // Real calendar days only: Date would roll these over into March and December.
      ['after=2026-02-31', 'after'],
      ['before=2026-11-31T10:00:00Z', 'before'],
      ['after=2025-02-29', 'after'],
      ['after=2026-11-02&before=2026-11-01', 'before'],
      ['from=not%20an%20address', 'from'],
      ['to=%3Cx%3E', 'to'],
      ['has_attachments=maybe', 'has_attachments'],
      ['q=', 'q'],
      ['sort=asc', 'sort'],
    ];
    for (const [query, param] of cases) {
      const response = await t.request('GET', `/v0/inboxes/${inbox}/messages?${query}`, key);
      assert.equal(response.status, 400, `${query}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error.param, param, query);
    }
    const threads = await t.request('GET', '/v0/threads?after=soon', key);
    assert.equal(threads.status, 400);
    assert.equal(threads.body.error.param, 'after');
  });

  test('threads match when one of their messages does', async () => {
    const path = `/v0/inboxes/${inbox}/threads`;
    assert.deepEqual(await subjects(`${path}?q=receipt`), ['Invoice 1234 for March'], 'found by its reply');
    assert.deepEqual(await subjects(`${path}?q=receipt%20thirty`), [], 'every word in one message');
    assert.deepEqual(await subjects(`${path}?has_attachments=true`), ['Invoice 1234 for March']);
    assert.deepEqual(await subjects(`${path}?from=other.test`), ['Invoice 1234 for March']);
    assert.deepEqual(
      await subjects(path),
      ['Invoice 1234 for March', 'Lunch on Friday'],
      'without filters: all',
    );
  });

  test('across the workspace: every inbox the key reaches, each item with its inbox_id', async () => {
    const found = await list('/v0/messages?q=lunch');
    assert.deepEqual(
      found.messages.map((m: any) => m.inbox_id).sort(),
      [inbox, peer].sort(),
      'sent and received copy',
    );
    const invoices = await list('/v0/messages?q=invoice');
    assert.ok(
      invoices.messages.every((m: any) => m.inbox_id === inbox),
      'never the other workspace',
    );
    assert.deepEqual(
      (await list('/v0/messages?q=invoice', strangerKey)).messages.map((m: any) => m.inbox_id),
      [strangerInbox],
    );
    const threads = await list('/v0/threads?q=lunch');
    assert.deepEqual(threads.threads.map((th: any) => th.inbox_id).sort(), [inbox, peer].sort());

    const narrow = await t.createScopedKey({ name: 'peer only', inbox_ids: [peer] });
    assert.deepEqual(
      (await list('/v0/messages?q=lunch', narrow.api_key)).messages.map((m: any) => m.inbox_id),
      [peer],
    );
    assert.deepEqual(await subjects('/v0/threads?q=invoice', narrow.api_key), []);
    const admin = await list(`/v0/messages?q=invoice&to=${strangerInbox}`, t.adminKey);
    assert.equal(admin.count, 1, 'the admin key reaches every namespace');
  });

  test('pages are newest first, and a page token only continues its own query', async () => {
    const first = await list(`/v0/inboxes/${inbox}/messages?q=invoice&limit=1`);
    assert.deepEqual(
      first.messages.map((m: any) => m.subject),
      ['Re: Invoice 1234 for March'],
    );
    assert.ok(first.next_page_token);
    const token = encodeURIComponent(first.next_page_token);
    const second = await list(`/v0/inboxes/${inbox}/messages?q=invoice&limit=1&page_token=${token}`);
    assert.deepEqual(
      second.messages.map((m: any) => m.subject),
      ['Invoice 1234 for March'],
    );
    assert.equal(second.next_page_token, null);
    for (const other of [
      `/v0/inboxes/${inbox}/messages?q=lunch`,
      `/v0/inboxes/${inbox}/messages?q=invoice&from=other.test`,
      '/v0/messages?q=invoice',
      `/v0/inboxes/${inbox}/threads?q=invoice`,
    ]) {
      const replayed = await t.request('GET', `${other}&limit=1&page_token=${token}`, key);
      assert.equal(replayed.status, 400, other);
      assert.equal(replayed.body.error.code, 'invalid_pagination', other);
    }
  });

  test('an inbox out of reach is 404 for search as for listing', async () => {
    const response = await t.request('GET', `/v0/inboxes/${strangerInbox}/messages?q=invoice`, key);
    assert.equal(response.status, 404);
  });
});
