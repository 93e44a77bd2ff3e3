// Answers a participant's question from the persona's facts. Relevance first: the best-supported
// fact answers, and a fact already said is said again ("As I said, …", never in the same words)
// rather than swapped for a weaker one not said yet; novelty only breaks near-ties. A follow-up that
// leans on the last answer ("and how old is it?") is read with that answer's topic. When nothing
// the persona knows answers, it says so in its own voice, and never offers an unrelated fact.
import nlp from 'compromise';
import { hasEmbeddings, rankOf } from './embeddings.ts';
import {
  focusedClause,
  followUpFocus,
  isFollowUp,
  POINTS_BACK,
  type Recent,
  topicOf,
  YES_NO,
} from './follow-ups.ts';
import type { Said } from './fresh.ts';
import type { Fact } from './knowledge.ts';
import { type RankedFact, rankFacts } from './retrieval.ts';

/** A fact said already scores this share when the question does not ask for it again… */
const SAID_DISCOUNT = 0.85;
/** …and this much more when it does ("what was the figure again?"). */
const REASKED_BOOST = 1.2;
/** A second fact joins the answer when it scores at least this share of the first. */
const SECOND_SHARE = 0.75;
/** A first fact shorter than this (words) is followed by the next fact of its bullet. */
const SHORT_FACT_WORDS = 12;
/** Below this score, with no word or concept of the question matched, a fact does not answer the question. */
const WEAK = 1.5;

/** When the persona knows nothing that answers: in character, no invented facts, no team to ask. */
const DONT_KNOW = [
  "I couldn't tell you that offhand.",
  "Honestly, I'm not sure about that one.",
  "I don't know that off the top of my head.",
  "That's not something I can answer right now.",
  "I'd be guessing if I answered that.",
  "Good question, but I don't have an answer for you.",
];
/** Ways to say a fact again, so a re-asked fact is never the same sentence twice. */
const AGAIN = [
  'As I said, {fact}',
  'Like I mentioned, {fact}',
  'Again, {fact}',
  'Just to repeat, {fact}',
  'As I mentioned earlier, {fact}',
  'Like I told you, {fact}',
  'To come back to that, {fact}',
  'As I told you, {fact}',
];

/** Ways to give the part of a fact asked about again. */
const CLAUSE_AGAIN = [
  '{clause}, as I said.',
  'Like I said, {clause}.',
  'As I mentioned, {clause}.',
  'Right: {clause}.',
];

/** The question asks for something said before ("again", "did you say", "remind me"). */
const REASK =
  /\bagain\b|\bremind me\b|\bdid you say\b|\byou (?:said|mentioned|told me)\b|\bone more time\b|\brepeat\b|\bwhat was (?:that|the)\b|\bsorry,? (?:what|who|how|when|where|which)\b/i;
/** A clause that asks: opens with a question word or an inverted auxiliary. */
const ASKING =
  /^(?:what|how|why|who|whom|whose|when|where|which|is|are|was|were|do|does|did|can|could|would|will|have|has|had)\b/i;
/** "As I said, my renewal…" but "As I said, PackRight's price…", "…, Nina will call": names keep their capital. */
function lowerFirst(text: string): string {
  const first = /^[\p{L}'’-]+/u.exec(text)?.[0] ?? '';
  // "I", "PackRight", "SAP", and a word the language's vocabulary lacks ("Spendwise") are names.
  if (/^(?:a|an|the|this|that|these|those|my|our|his|her|their|its|some|one|two|each|every)$/i.test(first))
    return text[0].toLowerCase() + text.slice(1);
  if (/^I(?:'|’|$)/.test(first) || /^\p{Lu}.*\p{Lu}/u.test(first)) return text;
  if (rankOf(first.replace(/['’]s$/, '')) === null && hasEmbeddings()) return text;
  const tags = (nlp(text).terms().json()[0]?.terms?.[0]?.tags ?? []) as string[];
  if (tags.some((t) => t === 'ProperNoun' || t === 'Person' || t === 'Place' || t === 'Organization'))
    return text;
  return text[0].toLowerCase() + text.slice(1);
}
const wordCount = (text: string) => text.split(/\s+/).length;
export interface FactAnswer {
  text: string;
  /** Whether the persona knew something that answers the question. */
  covered: boolean;
}

function sayAgain(fact: Fact, said: Said, seed: number): string | null {
  const options = AGAIN.map((a) => a.replace('{fact}', lowerFirst(fact.text)));
  return said.fresh(options, seed, `again:${fact.id}`);
}

function dontKnow(said: Said, seed: number): FactAnswer {
  return { text: said.fresh(DONT_KNOW, seed, 'dont-know') ?? DONT_KNOW[0], covered: false };
}

function sayClause(clause: string, said: Said, seed: number): string | null {
  const options = CLAUSE_AGAIN.map((a) => a.replace('{clause}', lowerFirst(clause)));
  return said.fresh(options, seed, `clause:${clause}`);
}

/** "Sorry, before I answer: what is your background?": the question is what is asked, not the preamble. */
function askedPart(utterance: string): string {
  const clauses = utterance.split(/(?<=[.;:!?—])\s+/);
  const asked = clauses.filter((c) => /\?\s*$/.test(c) || ASKING.test(c.trim()));
  return asked.length > 0 && asked.length < clauses.length ? asked.join(' ') : utterance;
}

/** "When did you buy it and what did you pay?": two questions, each answered. */
const SECOND_QUESTION =
  /\s*(?:,|;)?\s+(?:and|also|plus)\s+(?=(?:what|how|who|whom|when|where|which|why|is|are|do|does|did|can|could|would|will|have|has)\b)|(?<=\?)\s+/i;

export function answerFromFacts(
  facts: readonly Fact[],
  utterance: string,
  said: Said,
  seed: number,
  recent?: Recent,
): FactAnswer {
  const parts: string[] = [];
  for (const part of askedPart(utterance).split(SECOND_QUESTION)) {
    const text = part.trim();
    if (text.split(/\s+/).length < 2) continue;
    // "Have you changed systems before? How did it go?": the second leans on the first, one question.
    // "…, and what do you want?" is a question of its own: only a part that points back joins the first.
    if (parts.length > 0 && isFollowUp(text) && POINTS_BACK.test(text)) parts[parts.length - 1] += ` ${text}`;
    else parts.push(text);
  }
  if (parts.length <= 1) return answerOne(facts, askedPart(utterance), said, seed, recent, true);
  // Each part gets its own fact: what one part was told is not the next part's answer.
  const told = new Set<number>();
  const answers = parts.slice(0, 3).map((part) => answerOne(facts, part, said, seed, recent, false, told));
  return {
    text: answers
      .map((a) => a.text)
      .filter((t) => t.length > 0)
      .join(' '),
    covered: answers.some((a) => a.covered),
  };
}

function answerOne(
  facts: readonly Fact[],
  question: string,
  said: Said,
  seed: number,
  recent: Recent | undefined,
  mayAddSecond: boolean,
  told: Set<number> = new Set(),
): FactAnswer {
  const followUp = isFollowUp(question);
  const topic = followUp ? topicOf(facts, recent) : null;
  const ranked = rankFacts(facts, question, topic);
  const best = ranked[0];
  // Nothing of the question matched (only the kind of answer, as any number matches "how many"): no answer.
  if (!best || (!best.lexicalMatch && best.score < WEAK && !topic)) return dontKnow(said, seed);
  // "How many seats, and how many log in?": the fact that answered the first part answers this one
  // too, unless another fact holds this part's own words ("…60 days, and what do you want?" → "I want 90").
  if (
    told.has(best.fact.id) &&
    !ranked.some((r) => !told.has(r.fact.id) && r.wordMatch && r.score >= best.score / 2)
  )
    return { text: '', covered: true };

  const reask = REASK.test(question);
  // "And how old is it?" after "an on-prem install from 2011": the detail is in what was just said.
  // A fact an earlier part of this question was answered with is not this part's answer.
  const focus = topic
    ? followUpFocus({ ...topic, facts: topic.facts.filter((f) => !told.has(f.id)) }, question)
    : null;
  // "How old is it?" after the shop, when another fact says what is 20 years old: its own words win.
  const own = focus && focus.words === 0 ? rankFacts(facts, question)[0] : undefined;
  // A blind pick (no part holds the question's words or kind) gives way to a fact that holds its words.
  const ownWins =
    own?.wordMatch &&
    (own.typeMatch || (focus?.score === 0 && !YES_NO.test(question))) &&
    !topic?.facts.includes(own.fact);
  if (focus && !ownWins) {
    const text = focus.whole ? sayAgain(focus.fact, said, seed) : sayClause(focus.clause, said, seed);
    if (text) {
      // The next part of a two-part question does not get the same fact again.
      told.add(focus.fact.id);
      return { text, covered: true };
    }
  }
  // Novelty weighs in, relevance decides: a fact said already counts less unless the question asks
  // for it again, and the fact a follow-up leans on is not its answer.
  const given = new Set(topic?.facts.map((f) => f.id) ?? []);
  const weight = (r: RankedFact) =>
    given.has(r.fact.id) || told.has(r.fact.id)
      ? 0
      : said.has(r.fact.text)
        ? reask
          ? REASKED_BOOST
          : SAID_DISCOUNT
        : 1;
  const reranked = ranked
    .map((r) => ({ ...r, score: r.score * weight(r) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score);
  const first = reranked[0];
  if (!first || said.has(first.fact.text)) {
    // Said again, in words not used yet; a fact already said again in every way is not the answer.
    for (const again of reranked.filter((r) => said.has(r.fact.text))) {
      const clause = focusedClause(again.fact, question)?.clause;
      const text =
        (reask && clause ? sayClause(clause, said, seed) : null) ??
        sayAgain(again.fact, said, seed) ??
        (clause ? sayClause(clause, said, seed) : null);
      if (text) {
        told.add(again.fact.id);
        return { text, covered: true };
      }
    }
    return dontKnow(said, seed);
  }

  const parts = [first.fact.text];
  said.add(first.fact.text);
  told.add(first.fact.id);
  const neighbour = (id: number) =>
    facts.find((f) => f.id === id && f.group === first.fact.group && !said.has(f.text));
  const sameBullet = neighbour(first.fact.id + 1) ?? neighbour(first.fact.id - 1);
  const closeSecond = reranked.find(
    (r) => r !== first && !said.has(r.fact.text) && r.score >= first.score * SECOND_SHARE,
  );
  const second = !mayAddSecond
    ? undefined
    : wordCount(first.fact.text) < SHORT_FACT_WORDS && sameBullet
      ? sameBullet
      : closeSecond?.fact;
  if (second) {
    parts.push(second.text);
    said.add(second.text);
    told.add(second.id);
  }
  return { text: parts.join(' '), covered: true };
}
