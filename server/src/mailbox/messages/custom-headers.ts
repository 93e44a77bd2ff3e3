import { invalidParam } from '../../core/http/errors.ts';

/**
 * Headers a client may add to mail it sends. Everything else is refused: the structural headers
 * (From, To, Subject, Message-ID, References, MIME and Content-*, DKIM, Received…) are the
 * service's to write, and letting a caller set them would forge senders, break threading or the
 * DKIM signature. An allow-list rather than a deny-list, so a header we did not think of is refused.
 */
const ALLOWED = new Map(
  [
    'List-Unsubscribe',
    'List-Unsubscribe-Post',
    'List-Id',
    'List-Help',
    'List-Subscribe',
    'List-Post',
    'List-Owner',
    'List-Archive',
    'Auto-Submitted',
    'Precedence',
    'Keywords',
    'Comments',
    'Importance',
    'Priority',
    'Sensitivity',
    'Organization',
    'Thread-Topic',
  ].map((name) => [name.toLowerCase(), name]),
);

/** `X-` headers are the custom ones, except those a receiving system writes about the mail it got. */
const CUSTOM = /^X-[A-Za-z0-9][A-Za-z0-9_-]*$/i;
const RESERVED_CUSTOM =
  /^X-(Original-|Forwarded-|Received|Spam|Virus|Mailbox-|Google-|MS-Exchange-|Envelope-)/i;

/** RFC 5322 field names: printable ASCII without the colon. */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

const MAX_HEADERS = 50;
const MAX_VALUE_LENGTH = 998;
const MAX_TOTAL_BYTES = 16 * 1024;

/**
 * The custom headers of a send, reply, forward or draft, checked and with the allow-list's
 * spelling for known names. Refusals name `headers.<Name>`.
 */
export function checkCustomHeaders(
  headers: Record<string, string> | null | undefined,
): Record<string, string> {
  const checked: Record<string, string> = {};
  const seen = new Set<string>();
  let total = 0;
  const names = Object.keys(headers ?? {});
  if (names.length > MAX_HEADERS) throw invalidParam('headers', `At most ${MAX_HEADERS} custom headers.`);
  for (const name of names) {
    const value = headers![name]!;
    const param = `headers.${name}`;
    if (!FIELD_NAME.test(name)) throw invalidParam(param, 'Not a valid header name.');
    const lower = name.toLowerCase();
    const known = ALLOWED.get(lower);
    if (!known && (!CUSTOM.test(name) || RESERVED_CUSTOM.test(name))) {
      throw invalidParam(
        param,
        `${name} cannot be set: only X-* custom headers and ${[...ALLOWED.values()].join(', ')} are allowed; the service writes the others.`,
      );
    }
    if (seen.has(lower)) throw invalidParam(param, `${name} is given twice (header names ignore case).`);
    seen.add(lower);
    // A line break would let the value start a header of its own (header injection).
    if (/[\r\n\0]/.test(value)) throw invalidParam(param, 'A header value must be one line.');
    if (value.length > MAX_VALUE_LENGTH)
      throw invalidParam(param, `A header value has at most ${MAX_VALUE_LENGTH} characters.`);
    total += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (total > MAX_TOTAL_BYTES)
      throw invalidParam(param, `Custom headers take at most ${MAX_TOTAL_BYTES} bytes together.`);
    checked[known ?? name] = value.trim();
  }
  return checked;
}

/** As messages show headers: lower-cased names (the way received mail's `headers` are keyed). */
export function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
