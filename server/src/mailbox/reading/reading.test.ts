import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HTML_FIXTURES, TEXT_FIXTURES } from './reply-fixtures.ts';
import { extractReplyHtml } from './reply-html.ts';
import { extractReplyText } from './reply-text.ts';

describe('extractReplyText: the new part of a plain-text reply', () => {
  for (const fixture of TEXT_FIXTURES) {
    test(fixture.name, () => {
      assert.equal(extractReplyText(fixture.text), fixture.expected);
      assert.equal(extractReplyText(fixture.text.replace(/\n/g, '\r\n')), fixture.expected, 'with CRLF');
    });
  }

  test('no text, no extraction', () => {
    assert.equal(extractReplyText(null), null);
    assert.equal(extractReplyText(undefined), null);
    assert.equal(extractReplyText(''), '');
  });

  test('very long lines are kept whole, and a quote below them is still removed', () => {
    const long = `${'word '.repeat(2000)}end`;
    const text = `${long}\n\nOn Tue, Mar 5, 2024 at 9:14 AM Support <support@mail.example.com> wrote:\n\n> old`;
    assert.equal(extractReplyText(text), long);
  });
});

describe('extractReplyHtml: the new part of an HTML reply', () => {
  for (const fixture of HTML_FIXTURES) {
    test(fixture.name, () => {
      const extracted = extractReplyHtml(fixture.html);
      assert.ok(extracted !== null);
      for (const kept of fixture.keeps) assert.ok(extracted.includes(kept), `keeps ${kept}: ${extracted}`);
      for (const dropped of fixture.drops)
        assert.ok(!extracted.includes(dropped), `drops ${dropped}: ${extracted}`);
    });
  }

  test('HTML without quotes is returned exactly as sent', () => {
    const html = '<p>Hi &amp; welcome</p>';
    assert.equal(extractReplyHtml(html), html);
  });

  test('entities are kept as written', () => {
    const extracted = extractReplyHtml(
      '<p>5 &lt; 6 &amp;&nbsp;ok</p><div class="gmail_quote">On … wrote:<blockquote>x</blockquote></div>',
    );
    assert.equal(extracted, '<p>5 &lt; 6 &amp;&nbsp;ok</p>');
  });

  test('a reply that only quotes extracts to an empty string; no HTML is null', () => {
    assert.equal(
      extractReplyHtml(
        '<div dir="ltr"><br></div><div class="gmail_quote">On … wrote:<blockquote>x</blockquote></div>',
      ),
      '',
    );
    assert.equal(extractReplyHtml(null), null);
  });
});
