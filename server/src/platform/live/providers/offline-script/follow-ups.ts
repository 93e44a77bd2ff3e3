// Follow-ups: questions that lean on what was just said ("and how old is it?", "did that fix it?",
// "between which months?"). Which questions lean back, which facts the last reply gave, and which
// part of them a follow-up asks about.
import nlp from 'compromise';
import { askedTypes, factTypes } from './answer-types.ts';
import { indexTerms, plainWants } from './concepts.ts';
import { rankOf } from './embeddings.ts';
import type { Fact } from './knowledge.ts';
import type { Topic } from './retrieval.ts';
import { countWords } from './text.ts';

/** What was said just before the question: the participant's previous words and the persona's reply. */
export interface Recent {
  question: string | null;
  reply: string | null;
}

/** "…was that?", "…is it?": the question ends on what was just said. */
const ENDS_POINTING_BACK =
  /\b(?:was|is|were|are|did|does|do|has|have) (?:that|it|this|those|these|they)\s*\??\s*$/i;
/** Words that point back at what was just said ("it" of "how long does it take?" points at nothing). */
export const POINTS_BACK =
  /\b(?:it(?! (?:takes?|took|costs?|cost|mean|means|matter|matters|work|works|go|goes)\b)|that|this|those|these|they|them|there|then|he|she|him|her|one|else|things)\b/i;

const contentWords = (text: string) =>
  text.split(/\s+/).filter((w) => (indexTerms(w) ?? []).some((t) => !t.startsWith('~'))).length;
/** Words that name something: nouns other than empty ones, and words outside the most common of the language. */
const informativeWords = (text: string) => {
  // A noun names what is asked about ("money", "stations"), however common; other words only when rare.
  const nouns = new Set(
    nlp(text)
      .match('#Noun')
      .not('(#Pronoun|#Possessive)')
      .terms()
      .out('array')
      .map((w: string) => w.toLowerCase().replace(/[^\p{L}'-]/gu, '')),
  );
  return text
    .split(/\s+/)
    .filter((w) => (indexTerms(w) ?? []).some((t) => !t.startsWith('~')))
    .map((w) => w.toLowerCase().replace(/[^\p{L}'-]/gu, ''))
    .filter(
      (w) =>
        (nouns.has(w) && !EMPTY_NOUNS.has(w)) ||
        ((rankOf(w) ?? COMMON_WORDS) >= COMMON_WORDS && !EVENT_VERBS.has(w)),
    ).length;
};
/** "What happened then?", "How did it turn out?": verbs that ask what came of what was just said. */
const EVENT_VERBS = new Set(
  'happen happens happened happening occur occurred turn turned result resulted'.split(' '),
);
const tellsOfEvent = (question: string) =>
  question.split(/\W+/).some((w) => EVENT_VERBS.has(w.toLowerCase()));
// "Is that per day?": a unit asks about the figure just given, it names nothing new.
const EMPTY_NOUNS = new Set(
  'thing things stuff something anything everything someone anyone way lot kind sort bit part one ones point day days week weeks month months year years hour hours minute minutes head seat seats user users unit units total'.split(
    ' ',
  ),
);
/** The most frequent words of the embeddings' corpus say little on their own. */
const COMMON_WORDS = 1000;

/** A question that leans on the last answer: it starts with "and/so" or points back, and says little else. */
export function isFollowUp(question: string): boolean {
  // "Between which months?", "Which buildings?", "By when?": a fragment without a verb is elliptical.
  if (countWords(question) <= 3 && !nlp(question).has('#Verb')) return true;
  // "How many stations was that?": a question that ends on what was just said leans on it, however many words it has.
  if (ENDS_POINTING_BACK.test(question)) return true;
  // "What's the catch?", "Does everyone agree?": what speaks against what was just said.
  if (ASKS_CONTRAST.test(question) && informativeWords(question.replace(ASKS_CONTRAST, ' ')) === 0)
    return true;
  // "Who told you?", "Did something happen before?": nothing named, so it is about what was just said.
  if (informativeWords(question) === 0 && (countWords(question) <= 3 || tellsOfEvent(question))) return true;
  const leans = /^\s*(?:and|so|but|also|plus|then)\b/i.test(question) || POINTS_BACK.test(question);
  return (
    (leans && (contentWords(question) <= 2 || informativeWords(question) === 0)) ||
    contentWords(question) <= 1
  );
}

export function topicOf(facts: readonly Fact[], recent: Recent | undefined): Topic | null {
  if (!recent?.reply) return null;
  const reply = recent.reply.toLowerCase();
  // A fact given whole, or a part of it given again ("Right: 9 support staff use it.").
  const given = facts.filter(
    (f) =>
      reply.includes(f.text.slice(1, -1).toLowerCase()) ||
      clausesOf(f.text).some((c) => c.split(/\s+/).length >= 3 && reply.includes(c.toLowerCase())),
  );
  // In the order they were said: what came last is what a follow-up most likely leans on.
  const at = (f: Fact) => {
    const whole = reply.indexOf(f.text.slice(1, -1).toLowerCase());
    return whole >= 0
      ? whole
      : Math.min(
          ...clausesOf(f.text)
            .map((c) => reply.indexOf(c.toLowerCase()))
            .filter((i) => i >= 0),
        );
  };
  return { question: recent.question, facts: [...given].sort((a, b) => at(a) - at(b)) };
}

/** The parts of a fact a short question may ask about: "an on-prem install from 2011", "3 weeks of outages". */
export function clausesOf(text: string): string[] {
  const parts = text
    .replace(/[.!?]$/, '')
    // "I want 2,600 because the unit next door went for that": the reason is a part of its own.
    // A parenthesis stays with what it explains: "a new product area (payments)".
    .split(/,\s+(?![^(]*\))|;\s+|\s+[—–]\s+|\s+(?=(?:because|since|so that)\b)/)
    // "…, and lose maybe 15 no-shows a week": the part said alone drops the word joining it to the rest.
    .map((c) => c.trim().replace(/^(?:and|but|so|or|plus|then)\s+(?!that\b)/i, ''))
    .filter((c) => c.length > 0);
  // "my insurance, BlueHarbor, should have covered": a name between commas stays with what it names.
  const merged: string[] = [];
  let named = false;
  for (const part of parts) {
    const name = merged.length > 0 && part.split(/\s+/).length <= 2 && /^\p{Lu}/u.test(part);
    if (name || named) merged[merged.length - 1] += `, ${part}`;
    else merged.push(part);
    named = name;
  }
  return merged.filter((c) => c.split(/\s+/).length >= 2);
}

export interface Focus {
  clause: string;
  /** Words of the question in the clause, and 2 for the kind of answer asked (1 for a bare number). */
  score: number;
  /** Words of the question in the clause. */
  words: number;
  /** The clause is the whole fact. */
  whole: boolean;
  fact: Fact;
}

const stemsOf = (text: string) =>
  new Set(text.split(/\s+/).flatMap((w) => (indexTerms(w) ?? []).filter((t) => !t.startsWith('~'))));

/** The parts of a fact just said, scored by how well each answers a follow-up or a re-ask. */
function focusesOf(fact: Fact, said: string): Focus[] {
  // "…would you like that to be?" asks what is wanted: "I want 30".
  const question = plainWants(said);
  const asked = askedTypes(question);
  const wanted = stemsOf(question);
  return clausesOf(fact.text).map((clause) => {
    const types = factTypes(clause);
    const matched = [...asked].filter((t) => types.has(t));
    const typeHit = matched.some((t) => t !== 'quantity') ? 2 : matched.length > 0 ? 1 : 0;
    const wordHits = [...stemsOf(clause)].filter((t) => wanted.has(t)).length;
    return {
      clause,
      score: typeHit + wordHits,
      words: wordHits,
      whole: clause.length >= fact.text.length - 2,
      fact,
    };
  });
}

/** The part of a fact just said that a follow-up or re-ask asks about, if one part answers it. */
export function focusedClause(fact: Fact, question: string): Focus | null {
  const best = focusesOf(fact, question)
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score)[0];
  return best && !best.whole ? best : null;
}

/** "What's the catch?", "Any downside?", "Does everyone agree?": asks for what speaks against what was said. */
const ASKS_CONTRAST =
  /\b(?:catch|downside|downsides|drawback|drawbacks|snag|trade-?off|agree|disagree|on board|wrong with|problem with|risk with)\b/i;
/** The part of a fact said against the rest: "…offered 29 cents but can't deliver before March". */
const CONTRAST = /\b(?:but(?! also\b)|although|though|except that|however|(?<!\bnot )yet)\s+(.+)$/i;

/** "Is that per day?", "Did that fix it?": a yes-or-no question about what was just said. */
export const YES_NO =
  /^(?:(?:and|so|but)\s+)?(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would)\b/i;

/**
 * What a follow-up asks about in the facts just given: the part holding its words or the kind of
 * answer it wants; failing that, for "is that per day?" the detail with a figure, and for "what
 * happened there?" the part the previous question had not asked about.
 */
export function followUpFocus(topic: Topic, question: string): Focus | null {
  const scored = topic.facts.flatMap((fact) => focusesOf(fact, question));
  const best = [...scored].sort((a, b) => b.score - a.score)[0];
  if (best && best.score > 0) return best;
  // "What's the catch?", "Does everyone agree on that?": what the reply said against itself.
  if (ASKS_CONTRAST.test(question)) {
    for (const fact of [...topic.facts].reverse()) {
      const against = CONTRAST.exec(fact.text.replace(/[.!?]$/, ''))?.[1];
      if (against && against.split(/\s+/).length >= 2)
        return { clause: against, score: 0, words: 0, whole: false, fact };
    }
  }
  if (!(POINTS_BACK.test(question) || isFollowUp(question)) || informativeWords(question) > 0) return null;
  // "For how long?", "By when?": no part just said holds the kind asked for, so another fact does.
  if (askedTypes(question).size > 0 && !POINTS_BACK.test(question)) return null;
  const parts = scored.filter((f) => !f.whole || scored.length === 1);
  // "What happened then?", "Did something happen before?": a part that tells of an event, the last one said.
  if (tellsOfEvent(question)) {
    const events = scored.filter((f) => nlp(f.clause).has('#PastTense'));
    if (events.length > 0) return events.at(-1) ?? null;
  }
  if (YES_NO.test(question)) return parts.filter((f) => /\d/.test(f.clause)).at(-1) ?? parts[0] ?? null;
  const before = stemsOf(topic.question ?? '');
  const overlap = (f: Focus) => [...stemsOf(f.clause)].filter((t) => before.has(t)).length;
  // The least asked already; of equals, the later part (what a sentence adds comes after its subject).
  return parts.reduce<Focus | null>(
    (best, f) => (best === null || overlap(f) <= overlap(best) ? f : best),
    null,
  );
}
