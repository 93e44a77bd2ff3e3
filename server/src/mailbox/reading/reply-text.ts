import EmailReplyParser from 'email-reply-parser';

/**
 * The parser's expressions run on JavaScript's backtracking engine (it would use RE2, a native
 * module we do not ship), and some are super-linear: `.+\s.+` on long lines, and `[\s\S]+?`
 * patterns that scan the rest of the text from every line starting with "Op ", "W dniu", "Dnia "
 * or "abc. " (measured: 15 KB of such lines took 9 s). So it only ever sees a bounded input:
 * the first MAX_LINES lines, with lines over MAX_LINE characters and such openers that cannot
 * be a quote header (no ':' at the end of the line or the next) set aside and put back after.
 * A quote or signature is found near the top of a reply; when none is found there, the whole
 * text is the new part.
 */
const MAX_LINES = 200;
const MAX_LINE = 200;
/** Line openers of the parser's patterns that span lines (Dutch, Polish, Scandinavian). */
const SPANNING_OPENER = /^\s*(?:op\s|w\sdniu|dnia\s|[a-z]{3,4}\.\s)/i;
/** Stands for a set-aside line: private-use characters, which no quote pattern matches. */
const PLACEHOLDER = /\ue000(\d+)\ue001/g;

/**
 * Outlook's quoted header block (`From: … / Sent: …`, in the client's language), which the
 * parser only recognises when the From line carries an address in brackets.
 */
const HEADER_FROM = /^\s*\*?(?:from|von|de|da|van|från|fra|od|от|lähettäjä)\s*:\*?\s*\S/i;
const HEADER_SENT =
  /^\s*\*?(?:sent|date|gesendet|datum|envoyé|date d'envoi|enviado|fecha|inviato|data|verzonden|skickat|sendt|wysłano|отправлено|lähetetty)\s*:/i;

/**
 * The new part of a plain-text reply: without the quoted history (`> …` lines, "On … wrote:",
 * "-----Original Message-----", Outlook's header block, in many languages) and without the
 * signature (`-- `, "Sent from my iPhone", "Best regards," and what follows). Done by
 * email-reply-parser (docs/decisions/0005-extracted-reply-text.md); an answer written between
 * quoted lines keeps those parts. Empty when the message is nothing but quotes.
 */
export function extractReplyText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const lines = cutAtHeaderBlock(text.replace(/\r\n?/g, '\n')).split('\n');
  const setAside: string[] = [];
  const guarded = lines.slice(0, MAX_LINES).map((line, index, head) => {
    const spanning =
      SPANNING_OPENER.test(line) && !`${line}\n${head[index + 1] ?? ''}`.trimEnd().endsWith(':');
    return line.length > MAX_LINE || spanning ? `\ue000${setAside.push(line) - 1}\ue001` : line;
  });
  const email = new EmailReplyParser().read(guarded.join('\n'));
  const found = email.getFragments().some((fragment) => fragment.isQuoted() || fragment.isSignature());
  if (!found) return lines.join('\n').trim();
  return email
    .getVisibleText()
    .replace(PLACEHOLDER, (_, index: string) => setAside[Number(index)] ?? '')
    .trim();
}

/** The text up to an Outlook header block (a From line with a Sent/Date line just below). */
function cutAtHeaderBlock(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!HEADER_FROM.test(lines[i]!)) continue;
    if (lines.slice(i + 1, i + 4).some((line) => HEADER_SENT.test(line))) {
      // "-----Original Message-----" or an underscore rule just above belongs to the block.
      const start = i > 0 && /^\s*(?:-{3,}.*-{3,}|_{10,})\s*$/.test(lines[i - 1]!) ? i - 1 : i;
      return lines.slice(0, start).join('\n');
    }
  }
  return text;
}
