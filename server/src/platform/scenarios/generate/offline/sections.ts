// The layout of a pasted job description or résumé: headed sections and their bullet items.
import { unique } from './text.ts';

/** A Markdown heading, a bold or plain line ending in a colon, or a short line in capitals. */
const HEADING =
  /^\s*(?:#{1,6}\s+(.+?)\s*#*\s*$|(?:\*\*|__)?([A-Z][A-Za-z0-9 ,&/'()-]{2,60}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$|([A-Z][A-Z0-9 &/'-]{3,40})\s*$)/;
const BULLET = /^\s*(?:[-*+•▪●◦]|\d{1,2}[.)])\s+(.+)$/;

export const REQUIREMENT_HEADING =
  /requirement|qualification|must[- ]have|nice[- ]to[- ]have|what you(?:'ll| will)? (?:need|bring)|who you are|about you|you have|skills|experience|profile|ideal candidate/i;
export const RESPONSIBILITY_HEADING =
  /responsibilit|what you(?:'ll| will) do|the role|your role|duties|day[- ]to[- ]day|you will|what you'll be doing|mission|impact/i;

/** Splits text into headed sections of lines; lines before any heading go under null. */
export function sections(text: string): { heading: string | null; lines: string[] }[] {
  const result: { heading: string | null; lines: string[] }[] = [{ heading: null, lines: [] }];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const heading = BULLET.test(line) ? null : HEADING.exec(line);
    if (heading) {
      result.push({ heading: (heading[1] ?? heading[2] ?? heading[3] ?? '').trim(), lines: [] });
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

export function itemsUnder(parts: ReturnType<typeof sections>, heading: RegExp, limit: number): string[] {
  const items: string[] = [];
  for (const part of parts) {
    if (!part.heading || !heading.test(part.heading)) continue;
    for (const line of part.lines) {
      const text = clean(line);
      if (text.length >= 8 && text.length <= 220) items.push(text);
    }
  }
  return unique(items).slice(0, limit);
}
