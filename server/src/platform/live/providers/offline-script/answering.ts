// Answers a participant's question from the persona's facts: the best-ranked fact not said yet,
// and a second one when the first is short or another fits as well; "I'd need to check with my
// team" only when nothing the persona knows matches.
import type { Said } from './fresh.ts';
import type { Fact } from './knowledge.ts';
import { rankFacts } from './retrieval.ts';

/** A fact ranked below this share of the best one does not answer the same question. */
const RELEVANT_SHARE = 0.5;
/** A first fact shorter than this (words) is followed by the next fact of its bullet. */
const SHORT_FACT_WORDS = 12;

const CHECK_WITH_TEAM = [
  "I'd need to check with my team on that.",
  "I don't have that to hand; I'll check with my team and get back to you.",
  "That one I'd have to confirm with my team.",
  'Let me check with my team and come back to you on that.',
  "I'm not sure off the top of my head; I'll ask my team.",
];

const lowerFirst = (text: string) => (/^I\b|^I'/.test(text) ? text : text[0].toLowerCase() + text.slice(1));
const wordCount = (text: string) => text.split(/\s+/).length;

export interface FactAnswer {
  text: string;
  /** Whether the persona knew something that answers the question. */
  covered: boolean;
}

export function answerFromFacts(
  facts: readonly Fact[],
  question: string,
  said: Said,
  seed: number,
): FactAnswer {
  const ranked = rankFacts(facts, question);
  if (ranked.length === 0) {
    const text = said.fresh(CHECK_WITH_TEAM, seed, 'check') ?? CHECK_WITH_TEAM[0];
    return { text, covered: false };
  }
  const floor = ranked[0].score * RELEVANT_SHARE;
  const relevant = ranked.filter((r) => r.score >= floor);
  // A fact already said still answers its question better than a weaker one not said yet.
  const first = relevant.find((r) => !said.has(r.fact.text) && r.score >= ranked[0].score * 0.8);
  if (!first) {
    // Everything that answers it was said already: say it again, but not in the same words.
    const again = `As I said, ${lowerFirst(ranked[0].fact.text)}`;
    const text = said.has(again) ? `To repeat myself: ${lowerFirst(ranked[0].fact.text)}` : again;
    said.add(text);
    return { text, covered: true };
  }
  const parts = [first.fact.text];
  said.add(first.fact.text);
  const sameBullet = facts.find(
    (f) => f.group === first.fact.group && Math.abs(f.id - first.fact.id) === 1 && !said.has(f.text),
  );
  const closeSecond = relevant.find(
    (r) => r !== first && !said.has(r.fact.text) && r.score >= first.score * 0.75,
  );
  const second = wordCount(first.fact.text) < SHORT_FACT_WORDS && sameBullet ? sameBullet : closeSecond?.fact;
  if (second) {
    parts.push(second.text);
    said.add(second.text);
  }
  return { text: parts.join(' '), covered: true };
}
