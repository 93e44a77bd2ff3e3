// Picks a short phrase from the participant's answer for the persona to echo back.
import { countWords, firstToSecondPerson, STOPWORDS } from './text.ts';

const MAX_ECHO_WORDS = 12;
const MAX_RUN_WORDS = 6;
const FILLERS = /\b(?:um+|uh+|erm+|hmm+|you know|i mean|sort of|kind of)\b,?/gi;
const CLAUSE_BREAK =
  /[.;:!?()"“”]+|,|\s[-–—]\s|\b(?:but|because|so|although|though|whereas|which|and then)\b/i;
const LEAD_INS = [
  /^(?:well|so|yeah|yes|no|okay|ok|right|honestly|basically|actually|and|also|then|oh|plus)\b[\s,]*/i,
  /^(?:i think|i guess|i believe|i suppose|i'd say|i would say|to be honest|in my opinion)\b[\s,]*/i,
];
const SUBJECT = /^(?:i|we|i'm|i've|i'd|we're|we've|we'd)$/i;
// Second-person words in an answer usually address the persona; echoing them would garble who is who.
const ADDRESSES_PERSONA = /\b(?:you|your|yours|yourself|you're|you've)\b/i;

function isContent(word: string): boolean {
  const bare = word.replace(/[^\p{L}\p{N}'’-]/gu, '').replace(/’/g, "'");
  if (bare.length === 0 || STOPWORDS.has(bare.toLowerCase())) return false;
  // Numbers and capitalised words (names, products) carry content even when short: "Go", "5".
  return bare.length >= 3 || /\d/.test(bare) || /^\p{Lu}/u.test(bare);
}

// A run followed by one of these most likely ends in a verb ("pipelines excite me"), which is dropped.
const OBJECT_START = /^(?:me|us|him|her|them|it|a|an|the|my|our|his|their|this|that|these|those)$/i;

function longestContentRun(tokens: string[]): string[] {
  let best: string[] = [];
  let run: string[] = [];
  for (const token of [...tokens, '']) {
    if (token && isContent(token)) {
      run.push(token);
      continue;
    }
    if (run.length > 2 && OBJECT_START.test(token)) run.pop();
    if (run.length > best.length) best = run;
    run = [];
  }
  return best.slice(0, MAX_RUN_WORDS);
}

function candidate(clause: string): { phrase: string; score: number } | null {
  let text = clause.trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const lead of LEAD_INS) {
      const next = text.replace(lead, '');
      if (next !== text) {
        text = next;
        changed = true;
      }
    }
  }
  let tokens = text.split(/\s+/).filter((t) => t.length > 0);
  const subject = tokens.findIndex((t) => SUBJECT.test(t.replace(/’/g, "'")));
  if (subject > 0) tokens = tokens.slice(subject);
  // A long clause is not echoed whole or cut mid-phrase: its longest run of content words is.
  if (tokens.length > MAX_ECHO_WORDS) tokens = longestContentRun(tokens);
  while (tokens.length > 0 && !isContent(tokens[tokens.length - 1])) tokens.pop();
  const phrase = tokens.join(' ');
  const score = tokens.filter(isContent).length;
  if (score < 2 || ADDRESSES_PERSONA.test(phrase)) return null;
  return { phrase, score };
}

/**
 * The most content-bearing clause of an answer, starting at its subject when it has one,
 * turned to the second person ("I led the migration" → "you led the migration"); null when the
 * answer holds nothing worth echoing.
 */
export function keyPhrase(answer: string): string | null {
  const cleaned = answer.replace(FILLERS, ' ').replace(/\s+/g, ' ').trim();
  let best: { phrase: string; score: number } | null = null;
  const clauses = cleaned
    .split(CLAUSE_BREAK)
    .flatMap((clause) =>
      clause && countWords(clause) > MAX_ECHO_WORDS ? clause.split(/\b(?:and|or)\b/i) : [clause],
    );
  for (const clause of clauses) {
    const found = clause ? candidate(clause) : null;
    if (found && (best === null || found.score > best.score)) best = found;
  }
  if (!best) return null;
  let phrase = firstToSecondPerson(best.phrase);
  const first = phrase.split(' ', 1)[0];
  // Sentence-initial capitals are dropped; acronyms and the like (AWS, iOS) are kept.
  if (/^[A-Z][a-z'’]*$/.test(first) && (STOPWORDS.has(first.toLowerCase()) || cleaned.startsWith(first))) {
    phrase = phrase[0].toLowerCase() + phrase.slice(1);
  }
  return phrase.replace(/[,\s]+$/, '');
}
