import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { safeFilename } from './filename.ts';
import { decodeWindows1252, HEADER_VALUE_LIMIT, headerMap, utf8Headers } from './headers.ts';

describe('utf8Headers: raw 8-bit header bytes read sensibly', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  test('valid UTF-8 is left exactly as it is (the same buffer)', () => {
    const raw = Buffer.from('Subject: Grüße ✓\r\n\r\nbody\r\n');
    assert.equal(utf8Headers(raw), raw);
  });

  test('Latin-1 / Windows-1252 header bytes become UTF-8; bodies are not touched', () => {
    const raw = Buffer.concat([
      latin1('Subject: Köln \x80\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'),
      latin1('Köln\r\n'),
    ]);
    const fixed = utf8Headers(raw);
    assert.equal(fixed.toString('utf8').split('\r\n')[0], 'Subject: Köln €');
    assert.deepEqual(fixed.subarray(fixed.length - 6), latin1('Köln\r\n'), 'the body keeps its bytes');
  });

  test("each MIME part's header is fixed, and nothing that only looks like a header in a body", async () => {
    const raw = Buffer.concat([
      latin1('Subject: x\r\nContent-Type: multipart/mixed;\r\n boundary="=_b"\r\n\r\n'),
      latin1('preamble Zürich\r\n--=_b\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'),
      latin1('X-Not-A-Header: Zürich\r\n--=_b\r\n'),
      latin1(
        'Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="Zürich.txt"\r\n\r\n',
      ),
      latin1('Zürich\r\n--=_b--\r\n'),
    ]);
    const fixed = utf8Headers(raw);
    const text = fixed.toString('latin1');
    assert.ok(text.includes('preamble Z\u00fcrich'), 'the preamble is a body');
    assert.ok(text.includes('X-Not-A-Header: Z\u00fcrich'), 'a body line stays Latin-1');
    const parsed = await simpleParser(fixed);
    assert.equal(parsed.attachments[0]?.filename, 'Zürich.txt');
    assert.equal(parsed.text?.trim(), 'X-Not-A-Header: Zürich');
  });

  test('Windows-1252 specials', () => {
    assert.equal(decodeWindows1252(latin1('\x80 \x93quoted\x94 \x96 \x85')), '€ “quoted” – …');
  });
});

describe('headerMap', () => {
  test('first values, unfolded, lower-cased names; odd names are plain keys', async () => {
    const parsed = await simpleParser(
      Buffer.from('__proto__: a\r\nConstructor: b\r\nX-Long: one\r\n two\r\nX-Long: again\r\n\r\nhi'),
    );
    const { headers, truncated } = headerMap(parsed);
    assert.equal(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value, 'a');
    assert.equal(headers.constructor, 'b');
    assert.equal(headers['x-long'], 'one two');
    assert.equal(truncated, false);
  });

  test('a value cut at the limit is flagged', async () => {
    const parsed = await simpleParser(Buffer.from(`X-Big: ${'x'.repeat(HEADER_VALUE_LIMIT + 10)}\r\n\r\nhi`));
    const { headers, truncated } = headerMap(parsed);
    assert.equal(headers['x-big']?.length, HEADER_VALUE_LIMIT);
    assert.equal(truncated, true);
  });
});

describe('safeFilename', () => {
  test('no path, no control or bidi characters, nothing empty', () => {
    assert.equal(safeFilename('../../etc/passwd'), '_.._etc_passwd');
    assert.equal(safeFilename('C:\\Users\\x\\report.pdf'), 'C:_Users_x_report.pdf');
    assert.equal(safeFilename('in\u0007voice\r\n.pdf'), 'invoice.pdf');
    assert.equal(safeFilename('photo\u202egnp.exe'), 'photognp.exe');
    assert.equal(safeFilename('..'), null);
    assert.equal(safeFilename('  '), null);
    assert.equal(safeFilename(null), null);
    assert.equal(safeFilename('Übersicht 2024.pdf'), 'Übersicht 2024.pdf');
  });

  test('long names keep their extension', () => {
    const name = safeFilename(`${'a'.repeat(300)}.pdf`)!;
    assert.equal(name.length, 200);
    assert.ok(name.endsWith('.pdf'));
  });
});
