/** What a reply quotes: who wrote the quoted message, and its text as quoted. */
export interface QuotedMessage {
  /** The quoted sender's address, lower-cased, when the attribution names one. */
  address: string | null;
  /** The quoted sender's display name when no address is given (e.g. "On …, Alice wrote:"). */
  name: string | null;
  /** The start of the quoted text, normalised with normalizeQuoteText. */
  text: string;
}

/** The quoted text compared is at most this long: the quoted message's opening is enough. */
const QUOTE_TEXT_LIMIT = 2000;
/** A quoted message's opening must be at least this long to be recognised by it. */
export const QUOTE_MIN_MATCH = 12;

/** "On <date>, <sender> wrote:" in the languages mail clients localise it into. */
const ATTRIBUTION =
  /^\s*(?:on|le|el|il|em|am|op|den|w dniu|dnia|pe)\s.{4,300}?(?:wrote|a écrit|escribió|ha scritto|escreveu|schrieb|schreef|skrev|napisał(?:\(a\))?|pisze|kirjoitti|написал\(а\)|написал)\s*:?\s*$/i;
/** Outlook's header block: From line, then Sent/Date, To, Subject, a blank line, the message. */
const HEADER_FROM = /^\s*\*?(?:from|von|de|da|van|från|fra|od|от)\s*:\*?\s*(.+)$/i;
const HEADER_LINE = /^\s*\*?[\p{L} '-]{2,20}:\*?\s/u;
const ADDRESS = /<?\s*(?:mailto:)?([^\s<>[\]"',;:]+@[^\s<>[\]"',;:]+\.[^\s<>[\]"',;:]+)\s*[>\]]?/i;

/**
 * Whitespace collapsed, nothing else: what both sides of a quote comparison are reduced to (the
 * stored side in SQL, see messagesRepository.storeContext, so only ASCII whitespace, which
 * PostgreSQL and JavaScript agree on; case is kept because quoting keeps it).
 */
export function normalizeQuoteText(text: string): string {
  return text.replace(/[ \t\r\n\f\v]+/g, ' ').trim();
}

function senderOf(attribution: string): { address: string | null; name: string | null } {
  const address = ADDRESS.exec(attribution)?.[1]?.toLowerCase() ?? null;
  if (address) return { address, name: null };
  // "On Tue, 5 Mar 2024 at 10:00, Alice Smith wrote:": the name follows the last comma.
  const beforeVerb = attribution.replace(/\s*\S+\s*:?\s*$/, '');
  const name = beforeVerb.slice(beforeVerb.lastIndexOf(',') + 1).trim();
  return { address: null, name: name.length >= 2 && name.length <= 100 ? name : null };
}

/** Lines quoted with `>` right below line `start`, with one level of `>` removed. */
function quotedLinesAfter(lines: string[], start: number): string[] {
  const quoted: string[] = [];
  let i = start;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*>/.test(line)) quoted.push(line.replace(/^\s*> ?/, ''));
    else if (line.trim() === '' && quoted.length > 0) quoted.push('');
    else break;
  }
  return quoted;
}

/**
 * The message a reply quotes, found in its plain text: an attribution line ("On …, X wrote:",
 * also split over two lines as Gmail does) followed by `>` lines, or Outlook's header block
 * followed by the unmarked original. Null when the text quotes nothing recognisable.
 */
export function findQuotedMessage(text: string | null | undefined): QuotedMessage | null {
  if (!text) return null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]!.trim()}` : line;
    const attribution = ATTRIBUTION.test(line) ? { text: line, end: i + 1 } : null;
    const split = !attribution && ATTRIBUTION.test(joined) ? { text: joined, end: i + 2 } : null;
    const found = attribution ?? split;
    if (found) {
      const quoted = quotedLinesAfter(lines, found.end);
      if (quoted.length === 0) continue;
      return {
        ...senderOf(found.text),
        text: normalizeQuoteText(quoted.join('\n')).slice(0, QUOTE_TEXT_LIMIT),
      };
    }
    const from = HEADER_FROM.exec(line);
    if (from) {
      let end = i + 1;
      while (end < lines.length && HEADER_LINE.test(lines[end]!)) end++;
      if (end === i + 1) continue;
      const body = lines.slice(end).map((rest) => rest.replace(/^\s*> ?/, ''));
      return { ...senderOf(from[1]!), text: normalizeQuoteText(body.join('\n')).slice(0, QUOTE_TEXT_LIMIT) };
    }
  }
  return null;
}
