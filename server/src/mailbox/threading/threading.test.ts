import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { messagesRepository } from '../messages/repository.ts';
import { mime, openTestKernel, type TestKernel } from '../testing/kernel.ts';
import { detectAutoReply } from './auto-reply.ts';
import { findQuotedMessage } from './quote.ts';
import { normalizeMessageId, parseMessageIdList, SUBJECT_WINDOW_DAYS } from './resolve.ts';
import { normalizeSubject } from './subject.ts';

describe('normalizeSubject', () => {
  test('strips reply and forward prefixes in many languages, repeatedly', () => {
    for (const subject of [
      'Re: Project kickoff',
      'RE: re: Project kickoff',
      'Fwd: Project kickoff',
      'FW: Project kickoff',
      'AW: WG: Project kickoff',
      'SV: VS: Project kickoff',
      'Antw: Project kickoff',
      'RE[2]: Project kickoff',
      'Re(3): Project kickoff',
      'Re : Project kickoff',
      '[team] Re: Project  kickoff',
      'AW: Re[2]: [shop] Project kickoff',
      'Re: [shop] [urgent] Fwd: Project kickoff',
      '[shop] Project kickoff',
      'SV:[shop]Re: Project kickoff',
      'Project kickoff (fwd)',
      '回复: Project kickoff',
      '  project KICKOFF ',
    ]) {
      assert.equal(normalizeSubject(subject), 'project kickoff', subject);
    }
  });

  test('a tag inside the subject (not in the chain of prefixes) is kept', () => {
    assert.equal(normalizeSubject('Re: Order [#1234] shipped'), 'order [#1234] shipped');
  });

  test('leaves words that merely start like a prefix', () => {
    assert.equal(normalizeSubject('Review: Q3 plan'), 'review: q3 plan');
    assert.equal(normalizeSubject('Fwdable things'), 'fwdable things');
    assert.equal(normalizeSubject(''), '');
    assert.equal(normalizeSubject(undefined), '');
  });
});

describe('detectAutoReply', () => {
  test('recognises RFC 3834 and de-facto responder headers', () => {
    const yes: Array<Record<string, string>> = [
      { 'auto-submitted': 'auto-replied' },
      { 'auto-submitted': 'auto-generated; owner-email="x@y"' },
      { 'x-autoreply': 'yes' },
      { 'x-autorespond': 'Out of office' },
      { precedence: 'auto_reply' },
      { precedence: 'bulk' },
      { precedence: 'junk' },
      { 'x-auto-response-suppress': 'All' },
      { 'x-auto-response-suppress': 'DR, OOF, AutoReply' },
    ];
    for (const headers of yes)
      assert.equal(detectAutoReply(headers).auto_reply, true, JSON.stringify(headers));
    assert.equal(
      detectAutoReply({ 'auto-submitted': 'auto-replied' }).reason,
      'auto-submitted: auto-replied',
    );
  });

  test('ordinary mail and Auto-Submitted: no are not auto replies', () => {
    for (const headers of [
      {},
      { 'auto-submitted': 'no' },
      { 'auto-submitted': 'No ; comment' },
      { precedence: 'list' },
    ]) {
      assert.deepEqual(detectAutoReply(headers), { auto_reply: false, reason: null });
    }
  });
});

test('Message-ID lists parse with or without brackets', () => {
  assert.deepEqual(parseMessageIdList('<a@x> <b@y>\r\n <c@z>'), ['<a@x>', '<b@y>', '<c@z>']);
  assert.deepEqual(parseMessageIdList(['<a@x>', '<b@y>']), ['<a@x>', '<b@y>']);
  assert.deepEqual(parseMessageIdList('a@x'), ['<a@x>']);
  assert.equal(normalizeMessageId(' <a@x> '), '<a@x>');
  assert.equal(normalizeMessageId(''), null);
});

describe('threading of hand-made conversations', () => {
  let kernel: TestKernel;
  const inbox = 'agent@mail.test';
  const thread = new Map<string, string>();

  const deliver = (raw: Buffer, to = inbox) =>
    kernel.inbound.deliver(raw, { mailFrom: null, recipients: [to] });

  async function receive(name: string, raw: Buffer, to = inbox) {
    const [outcome] = await deliver(raw, to);
    assert.equal(outcome!.status, 'received', name);
    const payload = outcome!.event!.payload as {
      matched_by: string;
      auto_reply: boolean;
      thread: { thread_id: string };
    };
    thread.set(name, payload.thread.thread_id);
    return payload;
  }

  before(async () => {
    kernel = await openTestKernel();
    await kernel.addInbox(inbox);
    await kernel.addInbox('other@mail.test');
  });
  after(() => kernel.close());

  test('the first message starts a thread', async () => {
    const payload = await receive(
      'first',
      mime({
        from: 'Alice <alice@example.com>',
        to: inbox,
        cc: 'carol@example.org',
        subject: 'Project kickoff',
        messageId: '<a1@example.com>',
      }),
    );
    assert.equal(payload.matched_by, 'new');
    assert.equal(payload.auto_reply, false);
  });

  test('a reply joins through In-Reply-To', async () => {
    const payload = await receive(
      'reply',
      mime({
        from: 'alice@example.com',
        to: inbox,
        subject: 'Re: Project kickoff',
        messageId: '<a2@example.com>',
        inReplyTo: '<a1@example.com>',
        references: '<a1@example.com>',
      }),
    );
    assert.equal(payload.matched_by, 'in_reply_to');
    assert.equal(thread.get('reply'), thread.get('first'));
  });

  test('a reply whose In-Reply-To is unknown joins through the References chain', async () => {
    const payload = await receive(
      'broken-chain',
      mime({
        from: 'bob@example.net',
        to: inbox,
        subject: 'Re: Re: Project kickoff',
        messageId: '<b1@example.net>',
        inReplyTo: '<never-seen@elsewhere>',
        references: '<a1@example.com> <a2@example.com> <never-seen@elsewhere>',
      }),
    );
    assert.equal(payload.matched_by, 'references');
    assert.equal(thread.get('broken-chain'), thread.get('first'));
  });

  test('forwarded mail from a participant joins by subject', async () => {
    const payload = await receive(
      'forward',
      mime({
        from: 'carol@example.org',
        to: inbox,
        subject: 'Fwd: Project kickoff',
        messageId: '<c1@example.org>',
      }),
    );
    assert.equal(payload.matched_by, 'subject');
    assert.equal(thread.get('forward'), thread.get('first'));
  });

  test('a subject-only reply with a localised prefix joins by subject', async () => {
    const payload = await receive(
      'subject-only',
      mime({
        from: 'Alice <ALICE@example.com>',
        to: inbox,
        subject: 'AW: WG: Project kickoff',
        messageId: '<a3@example.com>',
      }),
    );
    assert.equal(payload.matched_by, 'subject');
    assert.equal(thread.get('subject-only'), thread.get('first'));
  });

  test('a list tag added mid-chain (AW: Re[2]: [list]) still joins by subject', async () => {
    const payload = await receive(
      'list-tag',
      mime({
        from: 'alice@example.com',
        to: inbox,
        subject: 'AW: Re[2]: [kickoff-list] Project kickoff',
        messageId: '<tag1@example.com>',
      }),
    );
    assert.equal(payload.matched_by, 'subject');
    assert.equal(thread.get('list-tag'), thread.get('first'));
  });

  test('a stranger reusing the subject starts a new conversation', async () => {
    const payload = await receive(
      'stranger',
      mime({
        from: 'mallory@stranger.example',
        to: inbox,
        subject: 'Project kickoff',
        messageId: '<m1@stranger.example>',
      }),
    );
    assert.equal(payload.matched_by, 'new');
    assert.notEqual(thread.get('stranger'), thread.get('first'));
  });

  test('an out-of-office reply is threaded and flagged auto_reply', async () => {
    const payload = await receive(
      'ooo',
      mime({
        from: 'alice@example.com',
        to: inbox,
        subject: 'Automatic reply: Project kickoff',
        messageId: '<ooo1@example.com>',
        inReplyTo: '<a1@example.com>',
        headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' },
      }),
    );
    assert.equal(payload.matched_by, 'in_reply_to');
    assert.equal(payload.auto_reply, true);
    assert.equal(thread.get('ooo'), thread.get('first'));
  });

  test(`a subject-only reply after the ${SUBJECT_WINDOW_DAYS}-day window starts a new thread`, async () => {
    kernel.clock.advance((SUBJECT_WINDOW_DAYS + 1) * 24 * 60 * 60 * 1000);
    const payload = await receive(
      'late',
      mime({
        from: 'alice@example.com',
        to: inbox,
        subject: 'Re: Project kickoff',
        messageId: '<a4@example.com>',
      }),
    );
    assert.equal(payload.matched_by, 'new');
    assert.notEqual(thread.get('late'), thread.get('first'));
  });

  test('threads are per inbox: the same Message-ID elsewhere does not join', async () => {
    const payload = await receive(
      'other-inbox',
      mime({
        from: 'alice@example.com',
        to: 'other@mail.test',
        subject: 'Re: x',
        messageId: '<o1@example.com>',
        inReplyTo: '<a1@example.com>',
      }),
      'other@mail.test',
    );
    assert.equal(payload.matched_by, 'new');
  });

  test('the thread aggregates senders, recipients and counts', async () => {
    const row = await kernel.database.db
      .selectFrom('mailbox_threads')
      .selectAll()
      .where('id', '=', thread.get('first')!)
      .executeTakeFirstOrThrow();
    assert.equal(row.message_count, 7);
    assert.deepEqual(row.senders.sort(), ['alice@example.com', 'bob@example.net', 'carol@example.org']);
    assert.ok(row.recipients.includes(inbox));
    assert.equal(row.last_message_id, '<ooo1@example.com>');
    assert.equal(row.subject, 'Project kickoff');
  });

  test('the same message delivered twice is stored once', async () => {
    const raw = mime({
      from: 'alice@example.com',
      to: inbox,
      subject: 'dup',
      messageId: '<dup@example.com>',
    });
    const [first] = await deliver(raw);
    const [second] = await deliver(raw);
    assert.equal(first!.status, 'received');
    assert.equal(second!.status, 'duplicate');
    const count = await kernel.database.db
      .selectFrom('mailbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('message_id', '=', '<dup@example.com>')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });

  test('replies arriving at once all land on their thread, and each event carries the thread as committed', async () => {
    const root = mime({
      from: 'dana@example.com',
      to: inbox,
      subject: 'Burst',
      messageId: '<burst0@example.com>',
    });
    await deliver(root);
    const replies = Array.from({ length: 12 }, (_, index) =>
      mime({
        from: `sender${index}@example.com`,
        to: inbox,
        subject: 'Re: Burst',
        messageId: `<burst${index + 1}@example.com>`,
        inReplyTo: '<burst0@example.com>',
      }),
    );
    // On PostgreSQL these race for the thread row: the losers read it again and retry.
    const outcomes = await Promise.all(replies.map((raw) => deliver(raw)));
    const counts = outcomes.map(([outcome]) => {
      assert.equal(outcome!.status, 'received');
      return (outcome!.event!.payload.thread as { message_count: number }).message_count;
    });
    assert.deepEqual(
      counts.sort((a, b) => a - b),
      Array.from({ length: 12 }, (_, index) => index + 2),
    );
    const row = await kernel.database.db
      .selectFrom('mailbox_threads')
      .selectAll()
      .where('last_message_id', 'like', '<burst%')
      .executeTakeFirstOrThrow();
    assert.equal(row.message_count, 13);
    assert.equal(row.senders.length, 13);
  });

  test('the same message delivered several times at once is stored once', async () => {
    const raw = mime({
      from: 'alice@example.com',
      to: inbox,
      subject: 'race',
      messageId: '<race@example.com>',
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => deliver(raw)));
    const statuses = outcomes.map(([outcome]) => outcome!.status).sort();
    assert.deepEqual(statuses, ['duplicate', 'duplicate', 'duplicate', 'duplicate', 'received']);
  });

  test('a thread changed between the read and the write is read again under a lock, and neither change is lost', async () => {
    await receive(
      'lock-root',
      mime({ from: 'erin@example.com', to: inbox, subject: 'Lock', messageId: '<lock0@example.com>' }),
    );
    const threadId = thread.get('lock-root')!;
    const read = messagesRepository.storeContext;
    let reads = 0;
    messagesRepository.storeContext = async (db, query) => {
      const context = await read(db, query);
      reads += 1;
      // A label change lands after the first read and before its write.
      if (reads === 1)
        await sql`update mailbox_threads set labels = labels || '["starred"]'::jsonb where id = ${threadId}`.execute(
          kernel.database.db,
        );
      return context;
    };
    let payload: Awaited<ReturnType<typeof receive>>;
    try {
      payload = await receive(
        'lock-reply',
        mime({
          from: 'erin@example.com',
          to: inbox,
          subject: 'Re: Lock',
          messageId: '<lock1@example.com>',
          inReplyTo: '<lock0@example.com>',
        }),
      );
    } finally {
      messagesRepository.storeContext = read;
    }
    assert.equal(reads, 2, 'the first write found the thread changed and stored nothing');
    assert.equal(thread.get('lock-reply'), threadId);
    const row = await kernel.database.db
      .selectFrom('mailbox_threads')
      .selectAll()
      .where('id', '=', threadId)
      .executeTakeFirstOrThrow();
    assert.equal(row.message_count, 2);
    assert.ok(row.labels.includes('starred'), 'the label change is kept');
    const inEvent = payload.thread as unknown as { message_count: number; labels: string[] };
    assert.equal(inEvent.message_count, 2);
    assert.ok(inEvent.labels.includes('starred'), 'the event carries the thread as written');
    const messages = await kernel.database.db
      .selectFrom('mailbox_messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .execute();
    assert.equal(messages.length, 2, 'the reply was stored once');
  });
});

describe('findQuotedMessage', () => {
  test('Gmail attribution with an address, and > lines', () => {
    const quoted = findQuotedMessage(
      'Yes.\n\nOn Sun, Nov 1, 2026 at 12:00 PM Agent <agent@mail.test> wrote:\n\n> Shall we\n> ship it?\n',
    );
    assert.deepEqual(quoted, { address: 'agent@mail.test', name: null, text: 'Shall we ship it?' });
  });

  test('an attribution split over two lines, and a name without address', () => {
    assert.equal(
      findQuotedMessage('ok\nOn Sun, Nov 1, 2026 at 12:00 PM A Long Name <a@x.example>\nwrote:\n> hi there')
        ?.address,
      'a@x.example',
    );
    assert.deepEqual(findQuotedMessage('ok\n\nOn Sun, 1 Nov 2026, Alice Smith wrote:\n> hello'), {
      address: null,
      name: 'Alice Smith',
      text: 'hello',
    });
  });

  test("Outlook's header block with the original below it, unmarked", () => {
    const quoted = findQuotedMessage(
      'Done.\n\n-----Original Message-----\nFrom: Agent <agent@mail.test>\nSent: Sunday\nTo: Bob\nSubject: x\n\nPlease sign\nthe form.',
    );
    assert.deepEqual(quoted, { address: 'agent@mail.test', name: null, text: 'Please sign the form.' });
  });

  test('text that quotes nothing', () => {
    assert.equal(findQuotedMessage('Just a note. I wrote:\nnothing'), null);
    assert.equal(findQuotedMessage(null), null);
  });
});

describe('the quote layer: a reply that only quotes joins the quoted message', () => {
  let kernel: TestKernel;
  const inbox = 'quotes@mail.test';
  const opening = 'Your order of two blue chairs ships on Monday from our Berlin warehouse.';

  const receive = async (raw: Buffer) => {
    const [outcome] = await kernel.inbound.deliver(raw, { mailFrom: null, recipients: [inbox] });
    assert.equal(outcome!.status, 'received');
    return outcome!.event!.payload as { matched_by: string; thread: { thread_id: string } };
  };
  let original: { thread: { thread_id: string } };

  before(async () => {
    kernel = await openTestKernel();
    await kernel.addInbox(inbox);
    // The agent's own message to Bob, as stored in its inbox.
    original = await receive(
      mime({
        from: `Agent <${inbox}>`,
        to: 'Bob <bob@example.net>',
        subject: 'Your order',
        messageId: '<q1@mail.test>',
        body: `Hello Bob,\r\n${opening}\r\n\r\nBest,\r\nAgent`,
      }),
    );
  });
  after(() => kernel.close());

  test('a new subject, no In-Reply-To, but the quote: joins by quote', async () => {
    // The quote is wrapped differently from the original: whitespace does not matter.
    const wrapped = `Hello Bob,\n${opening}`
      .replace('ships on', 'ships\non')
      .split('\n')
      .map((l) => `> ${l}`);
    const payload = await receive(
      mime({
        from: 'Bob <bob@example.net>',
        to: inbox,
        subject: 'Delivery address change',
        messageId: '<q2@example.net>',
        body: [
          'Please deliver to Hamburg instead.',
          '',
          `On Sun, Nov 1, 2026 at 12:00 PM Agent <${inbox}> wrote:`,
          ...wrapped,
        ].join('\r\n'),
      }),
    );
    assert.equal(payload.matched_by, 'quote');
    assert.equal(payload.thread.thread_id, original.thread.thread_id);
    const [row] = await sql<{ matched_by: string; extracted_text: string }>`
      select matched_by, extracted_text from mailbox_messages where message_id = '<q2@example.net>'`
      .execute(kernel.database.db)
      .then((r) => r.rows);
    assert.equal(row!.matched_by, 'quote');
    assert.equal(row!.extracted_text, 'Please deliver to Hamburg instead.');
  });

  test("Outlook's quoting (header block, unmarked original) joins by quote too", async () => {
    const payload = await receive(
      mime({
        from: 'bob@example.net',
        to: inbox,
        subject: 'Invoice please',
        messageId: '<q3@example.net>',
        body: [
          'Can I get an invoice?',
          '',
          '-----Original Message-----',
          `From: Agent <${inbox}>`,
          'Sent: Sunday, November 1, 2026 12:00 PM',
          'To: Bob <bob@example.net>',
          'Subject: Your order',
          '',
          'Hello Bob,',
          opening,
        ].join('\r\n'),
      }),
    );
    assert.equal(payload.matched_by, 'quote');
    assert.equal(payload.thread.thread_id, original.thread.thread_id);
  });

  test('a stranger quoting the same text does not join', async () => {
    const payload = await receive(
      mime({
        from: 'mallory@stranger.example',
        to: inbox,
        subject: 'Chairs',
        messageId: '<q4@stranger.example>',
        body: [
          'Me too.',
          '',
          `On Sun, Nov 1, 2026 at 12:00 PM Agent <${inbox}> wrote:`,
          `> Hello Bob, ${opening}`,
        ].join('\r\n'),
      }),
    );
    assert.equal(payload.matched_by, 'new');
  });

  test('a quote of text the quoted sender never wrote does not join', async () => {
    const payload = await receive(
      mime({
        from: 'bob@example.net',
        to: inbox,
        subject: 'Something else',
        messageId: '<q5@example.net>',
        body: [
          'Right.',
          '',
          `On Sun, Nov 1, 2026 at 12:00 PM Agent <${inbox}> wrote:`,
          '> We never wrote this sentence to anyone.',
        ].join('\r\n'),
      }),
    );
    assert.equal(payload.matched_by, 'new');
  });

  test('a quote of a message older than the window does not join', async () => {
    kernel.clock.advance((SUBJECT_WINDOW_DAYS + 1) * 24 * 60 * 60 * 1000);
    const payload = await receive(
      mime({
        from: 'bob@example.net',
        to: inbox,
        subject: 'Late question',
        messageId: '<q6@example.net>',
        body: [
          'Still there?',
          '',
          `On Sun, Nov 1, 2026 at 12:00 PM Agent <${inbox}> wrote:`,
          `> Hello Bob, ${opening}`,
        ].join('\r\n'),
      }),
    );
    assert.equal(payload.matched_by, 'new');
  });
});
