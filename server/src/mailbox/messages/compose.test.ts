// Composition rules without a database: custom headers, reply recipients, the forward's form.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../core/http/errors.ts';
import { checkCustomHeaders } from './custom-headers.ts';
import { forwardBodies, forwardSubject } from './forward.ts';
import { replyRecipients } from './reply-recipients.ts';

const refusedParam = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'parameter_invalid');
    return error.param ?? undefined;
  }
  assert.fail('expected a refusal');
};

describe('checkCustomHeaders', () => {
  test('keeps X-* headers and the allow-listed ones, in the allow-list spelling', () => {
    assert.deepEqual(
      checkCustomHeaders({
        'X-Campaign': 'spring',
        'list-unsubscribe': '<mailto:unsub@example.com>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'auto-submitted': 'auto-generated',
        Precedence: 'bulk',
        Keywords: 'offer, spring',
      }),
      {
        'X-Campaign': 'spring',
        'List-Unsubscribe': '<mailto:unsub@example.com>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'Auto-Submitted': 'auto-generated',
        Precedence: 'bulk',
        Keywords: 'offer, spring',
      },
    );
    assert.deepEqual(checkCustomHeaders(undefined), {});
    assert.deepEqual(checkCustomHeaders(null), {});
  });

  test('refuses structural headers, naming headers.<Name>', () => {
    for (const name of [
      'From',
      'to',
      'Cc',
      'Bcc',
      'Subject',
      'Date',
      'Message-ID',
      'In-Reply-To',
      'References',
      'MIME-Version',
      'Content-Type',
      'Content-Transfer-Encoding',
      'Received',
      'DKIM-Signature',
      'Return-Path',
      'Sender',
      'Reply-To',
      'X-Original-To',
      'X-Spam-Status',
    ]) {
      assert.equal(
        refusedParam(() => checkCustomHeaders({ [name]: 'x' })),
        `headers.${name}`,
      );
    }
  });

  test('refuses line breaks (header injection), bad names, duplicates and oversized values', () => {
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X-A': 'a\r\nBcc: victim@example.com' })),
      'headers.X-A',
    );
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X-A': 'a\nb' })),
      'headers.X-A',
    );
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X A': 'a' })),
      'headers.X A',
    );
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X-A:': 'a' })),
      'headers.X-A:',
    );
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X-A': 'a', 'x-a': 'b' })),
      'headers.x-a',
    );
    assert.equal(
      refusedParam(() => checkCustomHeaders({ 'X-A': 'a'.repeat(999) })),
      'headers.X-A',
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']));
    assert.equal(
      refusedParam(() => checkCustomHeaders(many)),
      'headers',
    );
  });
});

describe('replyRecipients', () => {
  const self = 'agent@mail.test';
  const inbound = {
    direction: 'inbound' as const,
    from: 'Alice <alice@example.com>',
    reply_to: [],
    to: ['Agent <AGENT@mail.test>', 'bob@example.com'],
    cc: ['Carol <carol@example.com>', 'Bob <BOB@example.com>', 'alice@example.com'],
  };

  test('a reply goes to the sender, or to Reply-To when there is one', () => {
    assert.deepEqual(replyRecipients(inbound, self, { cc: [], replyAll: false }), {
      to: ['Alice <alice@example.com>'],
      cc: [],
    });
    assert.deepEqual(
      replyRecipients({ ...inbound, reply_to: ['desk@example.com'] }, self, { cc: [], replyAll: false }),
      { to: ['desk@example.com'], cc: [] },
    );
  });

  test('reply-all: sender on To, the original To and Cc on Cc, without the inbox and without duplicates', () => {
    assert.deepEqual(replyRecipients(inbound, self, { cc: [], replyAll: true }), {
      to: ['Alice <alice@example.com>'],
      cc: ['bob@example.com', 'Carol <carol@example.com>'],
    });
  });

  test('reply-all with Reply-To: Reply-To and the sender on To (the author is kept)', () => {
    assert.deepEqual(
      replyRecipients({ ...inbound, reply_to: ['desk@example.com'] }, self, { cc: [], replyAll: true }),
      {
        to: ['desk@example.com', 'Alice <alice@example.com>'],
        cc: ['bob@example.com', 'Carol <carol@example.com>'],
      },
    );
  });

  test("the caller's to and cc are kept and never repeated by the derived ones", () => {
    assert.deepEqual(
      replyRecipients(inbound, self, {
        to: ['carol@example.com'],
        cc: ['Bob <bob@example.com>'],
        replyAll: true,
      }),
      // `to` replaces the derived To (sender, Reply-To); reply_all still adds the original To and Cc.
      { to: ['carol@example.com'], cc: ['Bob <bob@example.com>', 'alice@example.com'] },
    );
  });

  test('reply-all to mail this inbox sent goes to its recipients again, not to the inbox', () => {
    const sent = {
      direction: 'outbound' as const,
      from: 'Agent <agent@mail.test>',
      reply_to: [],
      to: ['bob@example.com', 'agent@mail.test'],
      cc: ['carol@example.com'],
    };
    assert.deepEqual(replyRecipients(sent, self, { cc: [], replyAll: false }), {
      to: ['bob@example.com'],
      cc: [],
    });
    assert.deepEqual(replyRecipients(sent, self, { cc: [], replyAll: true }), {
      to: ['bob@example.com'],
      cc: ['carol@example.com'],
    });
  });

  test('when only the inbox was on To, the Cc moves up so the reply has a To', () => {
    const fromSelf = {
      ...inbound,
      from: 'agent@mail.test',
      to: ['agent@mail.test'],
      cc: ['dan@example.com'],
    };
    assert.deepEqual(replyRecipients(fromSelf, self, { cc: [], replyAll: true }), {
      to: ['dan@example.com'],
      cc: [],
    });
  });

  test('a reply without to always has a To: the sender (Reply-To, else From), the inbox itself last', () => {
    // Reply-To names only the inbox: the author answers.
    assert.deepEqual(
      replyRecipients({ ...inbound, reply_to: ['AGENT@mail.test'] }, self, { cc: [], replyAll: false }),
      {
        to: ['Alice <alice@example.com>'],
        cc: [],
      },
    );
    // Mail the inbox sent to itself (one stored copy, outbound): the reply goes to the inbox.
    const toItself = {
      direction: 'outbound' as const,
      from: 'Agent <agent@mail.test>',
      reply_to: [],
      to: ['agent@mail.test'],
      cc: [],
    };
    for (const replyAll of [false, true]) {
      assert.deepEqual(replyRecipients(toItself, self, { cc: [], replyAll }), {
        to: ['Agent <agent@mail.test>'],
        cc: [],
      });
    }
    // Its Reply-To, when it had one, and not repeated when the caller put it on Cc.
    const withReplyTo = { ...toItself, reply_to: ['Desk <desk@example.com>'] };
    assert.deepEqual(replyRecipients(withReplyTo, self, { cc: [], replyAll: false }), {
      to: ['Desk <desk@example.com>'],
      cc: [],
    });
    assert.deepEqual(replyRecipients(withReplyTo, self, { cc: ['desk@example.com'], replyAll: false }), {
      to: [],
      cc: ['desk@example.com'],
    });
    // A `to` the caller gives is still kept as given.
    assert.deepEqual(replyRecipients(toItself, self, { to: ['x@example.com'], cc: [], replyAll: false }), {
      to: ['x@example.com'],
      cc: [],
    });
  });
});

describe('forward', () => {
  const original = {
    from: 'Alice <alice@example.com>',
    to: ['agent@mail.test'],
    cc: ['bob@example.com'],
    subject: 'Quote <draft>',
    date: 'Mon, 2 Mar 2026 10:00:00 +0000',
    text: 'The quote is attached.',
    html: null,
  };

  test('the subject gets Fwd: once', () => {
    assert.equal(forwardSubject('Quote'), 'Fwd: Quote');
    assert.equal(forwardSubject('Fwd: Quote'), 'Fwd: Quote');
    assert.equal(forwardSubject('FW: Quote'), 'FW: Quote');
    assert.equal(forwardSubject('fwd:Quote'), 'fwd:Quote');
    assert.equal(forwardSubject('Re: Quote'), 'Fwd: Re: Quote');
    assert.equal(forwardSubject(''), 'Fwd:');
  });

  test('text: the note, the separator, From/Date/Subject/To/Cc, then the original', () => {
    const { text, html } = forwardBodies({ text: 'FYI', html: null }, original);
    assert.equal(
      text,
      [
        'FYI',
        '',
        '---------- Forwarded message ---------',
        'From: Alice <alice@example.com>',
        'Date: Mon, 2 Mar 2026 10:00:00 +0000',
        'Subject: Quote <draft>',
        'To: agent@mail.test',
        'Cc: bob@example.com',
        '',
        'The quote is attached.',
      ].join('\n'),
    );
    assert.equal(html, null, 'no HTML when neither the note nor the original has any');
  });

  test('HTML when the original has it: its body nested, the summary escaped, the note as HTML', () => {
    const { text, html } = forwardBodies(
      { text: 'See <below>', html: null },
      {
        ...original,
        text: null,
        html: '<html><head><style>p{}</style></head><body><p>The <b>quote</b></p></body></html>',
      },
    );
    assert.match(html!, /^<div>See &lt;below&gt;<\/div><br>/);
    assert.match(
      html!,
      /---------- Forwarded message ---------<br>\nFrom: Alice &lt;alice@example.com&gt;<br>/,
    );
    assert.match(html!, /Subject: Quote &lt;draft&gt;<br>/);
    assert.match(html!, /<p>The <b>quote<\/b><\/p>/);
    assert.doesNotMatch(html!, /<html>|<head>|<style>/);
    assert.match(text, /\n\nThe quote$/, 'the text part quotes the HTML as text');
  });
});
