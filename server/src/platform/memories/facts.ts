import { createHash } from 'node:crypto';

/** Letters, digits and `. _ : @ + - / | =`, 1 to 128 characters. */
export const TAG_PATTERN = '^[A-Za-z0-9._:@+\\-/|=]{1,128}$';
const TAG_REGEX = new RegExp(TAG_PATTERN);
export const MAX_TAG_LENGTH = 128;
export const MAX_FACT_LENGTH = 1000;
export const MAX_EXTERNAL_ID_LENGTH = 255;
export const MAX_IMPORT_ENTRIES = 500;

export const isValidTag = (tag: string) => TAG_REGEX.test(tag);

// A list marker at the start of a line: `-`, `*` (followed by a space), `•` (space optional),
// or numbering `1.` / `2)` followed by a space; a marker alone is an empty line. "1.5 million"
// and "-5 °C" keep their numbers.
const LIST_MARKER = /^(?:[-*](?:\s+|$)|•\s*|\d{1,4}[.)](?:\s+|$))/u;

/** One line as a fact: trimmed, its list marker removed, inner whitespace collapsed. */
export function cleanFact(line: string): string {
  return line.trim().replace(LIST_MARKER, '').replace(/\s+/gu, ' ').trim();
}

/** A multi-line text as facts, one per non-empty line. */
export function splitFacts(text: string): string[] {
  return text
    .split(/\r\n|\r|\n|\u2028|\u2029/u)
    .map(cleanFact)
    .filter((fact) => fact.length > 0);
}

/**
 * The comparison form of a fact: case, spacing, a list marker and trailing full stops do not make
 * a fact new ("- Likes tea." and "likes  tea" are the same fact).
 */
export function normaliseFact(fact: string): string {
  return cleanFact(fact.normalize('NFKC'))
    .toLowerCase()
    .replace(/[.\s]+$/u, '')
    .trim();
}

/** What the unique index compares: a fixed-size digest of the normalised fact. */
export function factKey(fact: string): string {
  return createHash('sha256').update(normaliseFact(fact)).digest('hex');
}

export type MemorySubject = { type: 'membership' | 'participant'; id: string } | null;

/** Default containers of a person are `membership:<id>` and `participant:<id>`; custom tags have none. */
export function subjectOf(tag: string): MemorySubject {
  const match = /^(membership|participant):(.+)$/.exec(tag);
  return match ? { type: match[1] as 'membership' | 'participant', id: match[2]! } : null;
}
