import { convert } from 'html-to-text';
import { escapeHtml } from '../../core/html.ts';

/** What a forward quotes of the original message. */
export interface Forwarded {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  /** The original's Date header as written, else when the service received or sent it. */
  date: string;
  text: string | null;
  html: string | null;
}

const SEPARATOR = '---------- Forwarded message ---------';
const FORWARD_PREFIX = /^\s*(fwd?|fw)\s*:/i;

/** `Fwd: <subject>`, unless the subject already says it is a forward. */
export function forwardSubject(subject: string): string {
  return FORWARD_PREFIX.test(subject) ? subject : `Fwd: ${subject}`.trimEnd();
}

function summary(original: Forwarded): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    ['From', original.from],
    ['Date', original.date],
    ['Subject', original.subject],
    ['To', original.to.join(', ')],
  ];
  if (original.cc.length) lines.push(['Cc', original.cc.join(', ')]);
  return lines;
}

/**
 * The note above the original, in the form mail clients use (Gmail's separator, then From, Date,
 * Subject, To and Cc): as text always, as HTML when the note or the original has HTML.
 */
export function forwardBodies(
  note: { text: string | null; html: string | null },
  original: Forwarded,
): { text: string; html: string | null } {
  const header = summary(original)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const quoted = original.text ?? (original.html ? textOfHtml(original.html) : '');
  const text = `${note.text ? `${note.text.trimEnd()}\n\n` : ''}${SEPARATOR}\n${header}\n\n${quoted}`;
  if (note.html === null && original.html === null) return { text, html: null };

  const noteHtml =
    note.html ?? (note.text ? `<div>${escapeHtml(note.text).replace(/\n/g, '<br>\n')}</div>` : '');
  const attributes = summary(original)
    .map(([name, value]) => `${name}: ${escapeHtml(value)}<br>`)
    .join('\n');
  const originalHtml = original.html
    ? bodyOf(original.html)
    : `<div style="white-space:pre-wrap">${escapeHtml(original.text ?? '')}</div>`;
  const html = `${noteHtml}<br>
<div class="forwarded_quote">
<div class="forwarded_attr">${SEPARATOR}<br>
${attributes}
</div><br>
${originalHtml}
</div>`;
  return { text, html };
}

/** The content of a whole HTML document's body, so it nests inside the forward's own markup. */
function bodyOf(html: string): string {
  const match = /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html);
  return match ? match[1]! : html.replace(/<\/?(html|head)[^>]*>|<head[^>]*>[\s\S]*?<\/head>/gi, '');
}

/** Only for an original with HTML and no text part (received mail gets a text from the parser). */
function textOfHtml(html: string): string {
  return convert(html, { wordwrap: false }).trim();
}
