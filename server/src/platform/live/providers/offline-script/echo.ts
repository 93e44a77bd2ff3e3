// Picks a short phrase from the participant's answer for the persona to echo back.
import nlp from 'compromise';
import { capitalize, countWords, firstToSecondPerson, STOPWORDS } from './text.ts';

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

interface Candidate {
  phrase: string;
  score: number;
  /** Says "you/your": quoted as said rather than turned to the second person. */
  quoted: boolean;
}

/** A clause that starts with its verb ("check them against the goal") borrows the answer's subject. */
function startsWithVerb(phrase: string): boolean {
  const first = nlp(phrase).terms().json()[0]?.terms?.[0] as { tags: string[] } | undefined;
  return Boolean(
    first?.tags.includes('Verb') && !first.tags.includes('Gerund') && !first.tags.includes('Participle'),
  );
}

function candidate(clause: string): Candidate | null {
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
  if (score < 2) return null;
  const quoted = ADDRESSES_PERSONA.test(phrase);
  // A quoted phrase ("clean your hands…") is kept only when nothing else is worth echoing.
  return { phrase, score: quoted ? score / 4 : score, quoted };
}

/**
 * The most content-bearing clause of an answer, starting at its subject when it has one,
 * turned to the second person ("I led the migration" → "you led the migration"); null when the
 * answer holds nothing worth echoing.
 */
export function keyPhrase(answer: string): string | null {
  const cleaned = answer
    .replace(/[’‘]/g, "'")
    .replace(FILLERS, ' ')
    .replace(/(\d)\s+%/g, '$1%')
    .replace(/\s+/g, ' ')
    .trim();
  let best: Candidate | null = null;
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
  if (best.quoted) return `"${best.phrase.replace(/^["“]|["”]$/g, '')}"`;
  const subject = /\b(i'm|i've|i'd|i'll|we're|we've|we'd|we'll|i|we)\b/i.exec(cleaned)?.[1];
  const own = subject && !SUBJECT.test(best.phrase.split(' ', 1)[0]) && startsWithVerb(best.phrase);
  let phrase = firstToSecondPerson(own ? `${subject} ${lowerVerb(best.phrase)}` : best.phrase);
  const first = phrase.split(' ', 1)[0];
  // Sentence-initial capitals are dropped; acronyms and the like (AWS, iOS) are kept.
  if (/^[A-Z][a-z'’]*$/.test(first) && (STOPWORDS.has(first.toLowerCase()) || cleaned.startsWith(first))) {
    phrase = phrase[0].toLowerCase() + phrase.slice(1);
  }
  return phrase.replace(/[,\s]+$/, '');
}

function lowerVerb(phrase: string): string {
  return /^[A-Z][a-z'-]*\b/.test(phrase) ? phrase[0].toLowerCase() + phrase.slice(1) : phrase;
}

const INTERJECTION =
  /^(?:meh|hmm+|um+|uh+|erm+|er|ah+|oh|well|yeah|yep|so|honestly|like|i mean|ok(?:ay)?)\b[\s,.!—–-]*/i;
const HEDGE =
  /,?\s*\b(?:i (?:guess|suppose|think|reckon)|you know|kind of|sort of|really|to be honest)\b[,]?/gi;
/** Fewer words than this is reflected back whole. */
const REFLECT_WORDS = 10;

/**
 * A short (often vague) answer said back as a question, in the second person:
 * "Meh, just stuff." → "Just stuff?", "I'd talk to them I suppose." → "You'd talk to them?".
 * Null when the answer is long, empty once hedges are dropped, or speaks to the persona ("you").
 */
export function reflect(answer: string): string | null {
  let text = answer.replace(/[’‘]/g, "'").trim();
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(INTERJECTION, '');
  }
  text = text
    .replace(HEDGE, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s,.;:!?…]+$/, '')
    .trim();
  if (text.length === 0 || countWords(text) > REFLECT_WORDS || ADDRESSES_PERSONA.test(text)) return null;
  if (!text.split(/\s+/).some(isContent) && countWords(text) < 2) return null;
  return `${capitalize(firstToSecondPerson(text))}?`;
}
