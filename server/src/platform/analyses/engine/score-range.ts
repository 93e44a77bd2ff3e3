// Finds the score range a goal's instructions ask for ("Score 1-10", "on a 1–5 scale", "out of 5").
// Rules are documented in docs/analysis.md ("Score range").

export const DEFAULT_SCORE_RANGE: Readonly<{ min: number; max: number }> = Object.freeze({
  min: 0,
  max: 100,
});

const MAX_SCORE = 10_000;
const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const ASIDE = String.raw`(?:\s*\([^)]{0,40}\))?`; // "1 (poor) to 5 (excellent)"
const RANGE_RE = new RegExp(
  String.raw`(?<![\d.])${NUMBER}${ASIDE}\s*(?:-|\u2010|\u2011|\u2012|\u2013|\u2014|\bto\b|\bthrough\b|\bthru\b)\s*${NUMBER}${ASIDE}`,
  'g',
);
const BETWEEN_RE = new RegExp(String.raw`\bbetween\s+${NUMBER}\s+and\s+${NUMBER}`, 'g');
const OUT_OF_RE = new RegExp(String.raw`\bout\s+of\s+${NUMBER}`, 'g');

// A scoring word earlier in the same sentence marks a range as the score range.
const KEYWORD_BEFORE = /\b(?:scor\w*|scales?|rate|rated|rating|grade|graded|grading|marks?|points?)\b/;
// So does a scale word right after it ("1–5 scale", "1-10 points", "a 0-100 score").
const KEYWORD_AFTER = /^\s*-?\s*(?:point|points|pts|scale|score|rating|range|stars?)\b/;
// A range followed directly by punctuation or the end of the text is a plausible bare range.
const BARE_END = /^\s*(?:[.,;:!?)\]]|$)/;

const NUMBER_WORDS: [RegExp, string][] = [
  [/\bone hundred\b/g, '100'],
  [/\bhundred\b/g, '100'],
  [/\bzero\b/g, '0'],
  [/\bone\b/g, '1'],
  [/\btwo\b/g, '2'],
  [/\bthree\b/g, '3'],
  [/\bfour\b/g, '4'],
  [/\bfive\b/g, '5'],
  [/\bsix\b/g, '6'],
  [/\bseven\b/g, '7'],
  [/\beight\b/g, '8'],
  [/\bnine\b/g, '9'],
  [/\bten\b/g, '10'],
];

interface Candidate {
  min: number;
  max: number;
  index: number;
  priority: number;
}

/**
 * The score range requested by a goal's scoring instructions. Recognises `1-10`, `1–5`, `0 to 100`,
 * `between 1 and 5`, `1 (poor) to 5 (excellent)` and `out of 5` (read as 0–5), with numbers as
 * digits or the words zero…ten/hundred. A range counts when a scoring word (score, scale, rate,
 * rating, grade, mark, points) precedes it in the same sentence or a scale word follows it; failing
 * that, a range starting at 0 or 1 that is not followed by another word ("0 to 100."). Counts such
 * as "ask 2-3 questions" are ignored; a reversed range ("5-1") reads low to high. Default when
 * nothing matches: 0–100.
 */
export function parseScoreRange(instructions: string | null): { min: number; max: number } {
  if (!instructions) return { ...DEFAULT_SCORE_RANGE };
  let text = instructions.toLowerCase().replace(/\s+/g, ' ');
  for (const [re, digits] of NUMBER_WORDS) text = text.replace(re, digits);

  const candidates: Candidate[] = [];
  const consider = (first: number, second: number, index: number, end: number, outOf: boolean) => {
    const [min, max] = first <= second ? [first, second] : [second, first]; // "5-1" means 1–5
    if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && min < max && max <= MAX_SCORE)) return;
    const sentenceStart = Math.max(text.lastIndexOf('. ', index), text.lastIndexOf('? ', index), -1) + 1;
    const before = text.slice(sentenceStart, index);
    const after = text.slice(end, end + 30);
    const keyword = KEYWORD_BEFORE.test(before) || KEYWORD_AFTER.test(after);
    const bare = BARE_END.test(after);
    let priority = 0;
    if (keyword || (outOf && bare)) priority = 2;
    else if (bare && (min === 0 || min === 1)) priority = 1;
    if (priority > 0) candidates.push({ min, max, index, priority });
  };
  for (const m of text.matchAll(RANGE_RE)) {
    consider(Number(m[1]), Number(m[2]), m.index ?? 0, (m.index ?? 0) + m[0].length, false);
  }
  for (const m of text.matchAll(BETWEEN_RE)) {
    consider(Number(m[1]), Number(m[2]), m.index ?? 0, (m.index ?? 0) + m[0].length, false);
  }
  for (const m of text.matchAll(OUT_OF_RE)) {
    consider(0, Number(m[1]), m.index ?? 0, (m.index ?? 0) + m[0].length, true);
  }
  const startsLow = (c: Candidate) => (c.min === 0 || c.min === 1 ? 1 : 0);
  candidates.sort((a, b) => b.priority - a.priority || startsLow(b) - startsLow(a) || a.index - b.index);
  const best = candidates[0];
  return best ? { min: best.min, max: best.max } : { ...DEFAULT_SCORE_RANGE };
}
