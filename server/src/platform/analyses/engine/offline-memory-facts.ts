// The offline memory extractor: finds facts the participant states about themselves ("I work at
// Acme", "my goal is …") with fixed first-person patterns and rewrites them in the third person
// ("Works at Acme."). Rule-based, no language model. Documented in docs/analysis.md ("Memory
// extractor").

import { isStopWord, normalizeQuotes, participantTurns, splitSentences, tokenize } from './text.ts';
import type { TranscriptTurn } from './types.ts';

/** A memory is one fact on one line of at most this many characters. */
export const MAX_MEMORY_LENGTH = 1000;

const ADV = String.raw`(?:(?:currently|also|now|still|actually|mostly|mainly|really|already|originally)\s+)?`;
const I = String.raw`i\s+${ADV}`;
const IM = String.raw`(?:i'm|i\s+am)\s+${ADV}`;
const IVE = String.raw`(?:i've|i\s+have)\s+${ADV}`;
// A fact must start a clause: the sentence start, after punctuation, or after a linking word.
const CLAUSE_START = String.raw`(?:^|[,;:]\s*|\b(?:and|but|so|because|also|yes|yeah|well|now|actually|currently|today|basically)\s+)`;
const NUMBER = String.raw`(?:over|about|around|almost|nearly|roughly|more\s+than|\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|a\s+few|several|many)`;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const words = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
const THIRD_PERSON: Record<string, string> = {
  work: 'Works',
  worked: 'Worked',
  live: 'Lives',
  lived: 'Lived',
  prefer: 'Prefers',
  enjoy: 'Enjoys',
  manage: 'Manages',
  managed: 'Managed',
  lead: 'Leads',
  led: 'Led',
};

interface Rule {
  /** Matches the trigger; the fact's object is the text after the match. */
  trigger: RegExp;
  lead: (m: RegExpExecArray) => string;
}

const rule = (source: string, lead: (m: RegExpExecArray) => string): Rule => ({
  trigger: new RegExp(CLAUSE_START + source, 'giu'),
  lead,
});

/** The patterns, in the order docs/analysis.md lists them. */
export const MEMORY_RULES: readonly Rule[] = [
  rule(String.raw`my\s+name(?:'s|\s+is)\s+`, () => 'Name is'),
  rule(String.raw`${I}(work|worked)\s+(at|for|as)\s+`, (m) => `${THIRD_PERSON[words(m[1])]} ${words(m[2])}`),
  rule(String.raw`${IM}working\s+(at|for|on|as)\s+`, (m) =>
    words(m[1]) === 'on' ? 'Is working on' : `Works ${words(m[1])}`,
  ),
  rule(
    String.raw`${IVE}been\s+(working|living|based)\s+(at|for|on|in|as)\s+`,
    (m) => `Has been ${words(m[1])} ${words(m[2])}`,
  ),
  rule(
    String.raw`${IM}(a|an)\s+(?!(?:bit|little|lot|few|couple|while|moment)\b)`,
    (m) => `Is ${words(m[1])}`,
  ),
  rule(String.raw`${IVE}(?:got\s+|had\s+)?(?=${NUMBER}\b[^.,;]*?\byears?\b)`, () => 'Has'),
  rule(
    String.raw`${IVE}(?:got\s+)?(?=(?:a|an)\s+(?:[\p{L}'-]+\s+){0,2}?(?:degree|background|certification|phd)\b)`,
    () => 'Has',
  ),
  rule(String.raw`${I}(live|lived)\s+in\s+`, (m) => `${THIRD_PERSON[words(m[1])]} in`),
  rule(String.raw`${IM}based\s+(in|out\s+of)\s+`, (m) => `Is based ${words(m[1])}`),
  rule(String.raw`${IM}from\s+`, () => 'Is from'),
  rule(String.raw`${I}come\s+from\s+`, () => 'Comes from'),
  rule(String.raw`${I}(prefer|enjoy)\s+`, (m) => THIRD_PERSON[words(m[1])]),
  rule(String.raw`${I}(manage|managed|lead|led)\s+`, (m) => THIRD_PERSON[words(m[1])]),
  rule(
    String.raw`my\s+(goals?|aim|plan|dream|focus)\s+(is|are|was)\s+`,
    (m) => `${cap(words(m[1]))} ${words(m[2])}`,
  ),
  rule(
    String.raw`my\s+(role|job|title|position|specialty|specialization)\s+(is|was)\s+`,
    (m) => `${cap(words(m[1]))} ${words(m[2])}`,
  ),
  rule(String.raw`${I}(studied|graduated\s+from|majored\s+in)\s+`, (m) => cap(words(m[1]))),
  rule(String.raw`${IM}(learning|studying)\s+`, (m) => `Is ${words(m[1])}`),
  rule(
    String.raw`${IM}(interested\s+in|looking\s+for|responsible\s+for|passionate\s+about)\s+`,
    (m) => `Is ${words(m[1])}`,
  ),
];

// The object of a fact ends at the clause's end: punctuation, a dash, or a linking word.
const OBJECT_END =
  /\s*(?:[,;:!?()]|\s[-\u2013\u2014]\s|\.(?:\s|$)|\b(?:but|because|although|though|which|whereas|so|and\s+(?:i|i'm|i've|we|my|then))\b)/iu;
const TRAILING_FILLER =
  /(?:\s+(?:you\s+know|like|basically|actually|i\s+guess|i\s+think|or\s+something|and\s+stuff|and\s+so\s+on))+$/iu;
const HESITATION = /\b(?:u+h*m+|u+h+|erm?|a+h+|h+m+)\b,?\s*/giu;
const PRONOUNS: [RegExp, string][] = [
  [/\bmyself\b/giu, 'themselves'],
  [/\bmine\b/giu, 'theirs'],
  [/\bmy\b/giu, 'their'],
  [/\bme\b/giu, 'them'],
  [/\bi'm\b/giu, "they're"],
  [/\bi've\b/giu, "they've"],
  [/\bi\b/giu, 'they'],
];

/**
 * Facts the participant stated about themselves in their own turns, rewritten in the third person
 * ("I work at Acme" → "Works at Acme."), one line each, at most 1,000 characters, deduplicated
 * (case- and punctuation-insensitive), in the order first said. Questions are ignored.
 */
export function extractMemoriesOffline(turns: TranscriptTurn[]): string[] {
  const facts: string[] = [];
  const seen = new Set<string>();
  for (const turn of participantTurns(turns)) {
    for (const raw of splitSentences(turn.message)) {
      if (raw.endsWith('?')) continue;
      const sentence = normalizeQuotes(raw).replace(HESITATION, '').replace(/\s+/g, ' ').trim();
      for (const fact of factsIn(sentence)) {
        const key = fact
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s]/gu, '')
          .replace(/\s+/g, ' ')
          .trim();
        if (seen.has(key)) continue;
        seen.add(key);
        facts.push(fact);
      }
    }
  }
  return facts;
}

function factsIn(sentence: string): string[] {
  const found: { index: number; text: string }[] = [];
  for (const { trigger, lead } of MEMORY_RULES) {
    trigger.lastIndex = 0;
    for (let m = trigger.exec(sentence); m !== null; m = trigger.exec(sentence)) {
      const rest = sentence.slice(m.index + m[0].length);
      const object = cleanObject(rest);
      if (object) found.push({ index: m.index, text: finish(`${lead(m)} ${object}`) });
      if (m[0].length === 0) trigger.lastIndex++;
    }
  }
  return found.sort((a, b) => a.index - b.index).map((f) => f.text);
}

function cleanObject(rest: string): string | null {
  const end = OBJECT_END.exec(rest);
  let object = (end ? rest.slice(0, end.index) : rest).trim();
  object = object
    .replace(/[.\s]+$/, '')
    .replace(TRAILING_FILLER, '')
    .trim();
  for (const [re, replacement] of PRONOUNS) object = object.replace(re, replacement);
  if (!tokenize(object).some((t) => !isStopWord(t.norm))) return null;
  return object;
}

function finish(text: string): string {
  let line = text.replace(/\s+/g, ' ').trim();
  if (!/[.!]$/.test(line)) line += '.';
  if (line.length > MAX_MEMORY_LENGTH) {
    const cut = line.lastIndexOf(' ', MAX_MEMORY_LENGTH - 1);
    line = `${line.slice(0, cut > 0 ? cut : MAX_MEMORY_LENGTH - 1)}…`;
  }
  return line;
}
