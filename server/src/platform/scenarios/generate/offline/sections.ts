// The layout of a pasted job description or résumé: headed sections and their bullet items.
import { unique } from './text.ts';

/** A Markdown heading, a bold line, a line ending in a colon, or a short line in capitals. */
const MARKED_HEADING =
  /^\s*(?:#{1,6}\s+(.+?)\s*#*\s*$|(?:\*\*|__)([^*_\n]{2,60}?)\s*:?\s*(?:\*\*|__)\s*:?\s*$|([A-Z][A-Za-z0-9 ,&/'’()-]{2,60}?)\s*:\s*$|([A-Z][A-Z0-9 &/'’-]{3,40})\s*$)/;
/**
 * The names job ads give their sections. People often write them as a plain line without a
 * colon ("About us", "What you'll do", "Benefits"), so a short line that starts like one is a
 * heading too; without this, "Benefits" became a requirement and "Requirements" a company name.
 */
const SECTION_NAME = new RegExp(
  [
    // "Requirements", "Key responsibilities", "Perks & benefits", "Professional experience"
    '^(?:(?:key|main|core|your|the|our|required|preferred|desired|technical|professional|work|relevant|basic|minimum|additional)\\s+)*(?:requirements|responsibilities|qualifications|duties|tasks|skills|benefits|perks|experience|education|employment history|certifications|languages|profile|overview|summary|compensation|salary|location|tech stack|stack)(?:\\s*(?:&|and)\\s*[a-z]+)?$',
    // "About us", "About Acme", "What you'll do", "Who you are", "Nice to have", "Why join us"
    '^(?:about|what (?:you|we)|who (?:you|we) are|nice[- ]to[- ]have|must[- ]haves?|bonus points|(?:the|your) (?:role|team|opportunity|mission|impact)|role overview|our (?:team|mission|values|culture|offer|story)|why (?:join|work|you)|how to apply|ideal candidate)\\b',
  ].join('|'),
  'i',
);
const BULLET = /^\s*(?:[-*+•▪●◦–]|\d{1,2}[.)])\s+(.+)$/;

export const REQUIREMENT_HEADING =
  /requirement|qualification|must[- ]have|nice[- ]to[- ]have|bonus|preferred|what you(?:'ll|’ll| will)? (?:need|bring)|looking for|who you are|about you|you have|skills|experience|profile|ideal candidate/i;
export const RESPONSIBILITY_HEADING =
  /responsibilit|what you(?:'ll|’ll| will) do|the role|your role|duties|tasks|day[- ]to[- ]day|you will|what you(?:'ll|’ll) be doing|mission|impact/i;

/** True when a line reads as a section name: used to keep headings out of names. */
export function isSectionName(line: string): boolean {
  const text = line.replace(/[*_#:]/g, '').trim();
  return text.split(/\s+/).length <= 6 && !/[.!?]$/.test(text) && SECTION_NAME.test(text);
}

function headingOf(line: string): string | null {
  if (BULLET.test(line)) return null;
  const marked = MARKED_HEADING.exec(line);
  if (marked) return (marked[1] ?? marked[2] ?? marked[3] ?? marked[4] ?? '').trim();
  return /^[A-Z]/.test(line) && isSectionName(line) ? line.trim() : null;
}

/** Splits text into headed sections of lines; lines before any heading go under null. */
export function sections(text: string): { heading: string | null; lines: string[] }[] {
  const result: { heading: string | null; lines: string[] }[] = [{ heading: null, lines: [] }];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const heading = headingOf(line);
    if (heading !== null) {
      result.push({ heading, lines: [] });
      continue;
    }
    result.at(-1)!.lines.push(line);
  }
  return result;
}

export function clean(item: string): string {
  return item
    .replace(BULLET, '$1')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s;,.]+$/, '')
    .trim();
}

/**
 * The items under matching headings: the bullet items when there are any (they are the list the
 * ad means; the prose beside them is usually about the company), else the prose lines.
 */
export function itemsUnder(parts: ReturnType<typeof sections>, heading: RegExp, limit: number): string[] {
  const matching = parts.filter((part) => part.heading && heading.test(part.heading));
  const lines = matching.flatMap((part) => part.lines);
  const bullets = lines.filter((line) => BULLET.test(line));
  const items = (bullets.length ? bullets : lines)
    .map(clean)
    .filter((text) => text.length >= 8 && text.length <= 220);
  return unique(items).slice(0, limit);
}
