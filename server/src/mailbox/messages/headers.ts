import { isUtf8 } from 'node:buffer';
import type { ParsedMail } from 'mailparser';

/** `headers` keeps at most this many header names, each value at most this long. */
export const HEADER_NAMES_LIMIT = 200;
export const HEADER_VALUE_LIMIT = 4000;

/**
 * Windows-1252's printable characters at 0x80–0x9F (where Latin-1 has control codes); the five
 * unassigned bytes stay control codes. Written out because Node's TextDecoder('windows-1252')
 * decodes as plain Latin-1.
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Bytes read as Windows-1252. */
export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/**
 * Raw 8-bit header bytes (no RFC 2047 encoding) that are not valid UTF-8 rewritten as UTF-8,
 * read as Windows-1252 (a superset of Latin-1 for every printable byte, and what such mail is
 * written in in practice), in the message's header and in every MIME part's header. The parser
 * reads header bytes as UTF-8 and would turn each such byte into U+FFFD; rewriting them first
 * means every field it derives (subject, names, attachment file names) comes out right. Bodies
 * are left alone: they declare their own charset. Only the parse sees the rewritten bytes; the
 * raw message is stored as received.
 */
export function utf8Headers(raw: Buffer): Buffer {
  if (isUtf8(raw)) return raw;
  const out: Buffer[] = [];
  const boundaries = new Set<string>();
  let changed = false;
  let inHeader = true;
  let block: string[] = [];
  for (let start = 0; start < raw.length; ) {
    const newline = raw.indexOf(0x0a, start);
    const end = newline === -1 ? raw.length : newline + 1;
    let line = raw.subarray(start, end);
    start = end;
    const content = line.toString('latin1').replace(/\r?\n$/, '');
    if (inHeader) {
      if (content === '') {
        inHeader = false;
        const boundary = boundaryOf(block);
        if (boundary) boundaries.add(boundary);
        block = [];
      } else {
        if (!isUtf8(line)) {
          line = Buffer.from(decodeWindows1252(line), 'utf8');
          changed = true;
        }
        block.push(content);
      }
    } else if (content.startsWith('--') && boundaries.has(content.slice(2).trimEnd())) {
      inHeader = true; // a part's header follows its boundary line
    }
    out.push(line);
  }
  return changed ? Buffer.concat(out) : raw;
}

/** The boundary parameter of a header block's Content-Type, if it is multipart. */
function boundaryOf(block: string[]): string | null {
  const unfolded = block
    .join('\n')
    .replace(/\n[ \t]+/g, ' ')
    .split('\n');
  const contentType = unfolded.find((line) => /^content-type\s*:/i.test(line));
  const match = contentType && /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * The header lines as a first-value map with lower-cased names, unfolded, read as UTF-8 (see
 * utf8Headers). Capped at HEADER_NAMES_LIMIT names of HEADER_VALUE_LIMIT characters, so one
 * message cannot bloat every read of it; `truncated` says when the cap left something out, and
 * the raw message keeps everything.
 */
export function headerMap(parsed: Pick<ParsedMail, 'headerLines'>): {
  headers: Record<string, string>;
  truncated: boolean;
} {
  // A Map, not an object: a header may be called `__proto__` or `constructor`.
  const headers = new Map<string, string>();
  let truncated = false;
  for (const { key, line } of parsed.headerLines) {
    if (headers.has(key)) continue;
    if (headers.size === HEADER_NAMES_LIMIT) {
      truncated = true;
      break;
    }
    const value = Buffer.from(line.slice(line.indexOf(':') + 1), 'latin1')
      .toString('utf8')
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    if (value.length > HEADER_VALUE_LIMIT) truncated = true;
    headers.set(key, value.slice(0, HEADER_VALUE_LIMIT));
  }
  return { headers: Object.fromEntries(headers), truncated };
}
