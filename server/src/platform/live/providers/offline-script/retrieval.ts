// Picks the facts that answer a question. Three signals, added: BM25 (MiniSearch) on Porter stems
// and concept tags (concepts.ts); the kind of answer the question asks for (a date, a place, a
// person, an amount…) held by the fact (answer-types.ts); and, for a follow-up that leans on what
// was just said ("and how old is it?"), the previous question's words and the facts next to the one
// just given.
import MiniSearch from 'minisearch';
import { type AnswerType, askedTypes, factTypes } from './answer-types.ts';
import { indexTerms } from './concepts.ts';
import type { Fact } from './knowledge.ts';

/** Facts are one sentence each: length matters less than in documents (b below the usual 0.75). */
const BM25 = { k: 1.2, b: 0.3, d: 0.5 };
const CONCEPT_WEIGHT = 0.5;
/** A fact holding the kind of answer asked for gains this share of the best word score (at least TYPE_FLOOR). */
const TYPE_SHARE = 0.6;
const TYPE_FLOOR = 1.5;
/** In a follow-up, the previous question's words count this much. */
const TOPIC_WEIGHT = 0.5;
/** In a follow-up, a fact next to the one just said (same bullet, or the next sentence) gains this. */
const NEIGHBOUR_BONUS = 1.2;

export interface RankedFact {
  fact: Fact;
  score: number;
  /** Whether a word of the question itself matched, not only a concept tag. */
  wordMatch: boolean;
  /** Whether the fact holds the kind of answer the question asks for. */
  typeMatch: boolean;
}

/** What was just said, for a question that leans on it. */
export interface Topic {
  /** The participant's previous question. */
  question: string | null;
  /** Facts the persona gave in its last reply. */
  facts: readonly Fact[];
}

const typeCache = new Map<string, Set<AnswerType>>();
function typesOf(fact: Fact): Set<AnswerType> {
  let types = typeCache.get(fact.text);
  if (!types) {
    if (typeCache.size > 5000) typeCache.clear();
    types = factTypes(fact.text);
    typeCache.set(fact.text, types);
  }
  return types;
}

function lexical(index: MiniSearch<Fact>, query: string): Map<number, { score: number; word: boolean }> {
  const out = new Map<number, { score: number; word: boolean }>();
  if (query.trim() === '') return out;
  const results = index.search(query, {
    combineWith: 'OR',
    bm25: BM25,
    // A concept tag rides along its word: it helps when the words differ, and must not double a word match.
    boostTerm: (term) => (term.startsWith('~') ? CONCEPT_WEIGHT : 1),
  });
  for (const r of results)
    out.set(r.id as number, { score: r.score, word: r.terms.some((t) => !t.startsWith('~')) });
  return out;
}

export function rankFacts(facts: readonly Fact[], question: string, topic?: Topic | null): RankedFact[] {
  if (facts.length === 0) return [];
  const index = new MiniSearch<Fact>({
    fields: ['text'],
    storeFields: [],
    // "front-desk" and "front desk" are the same words.
    tokenize: (text) => text.split(/[\s,;:()"“”]+|(?<=\p{L})-(?=\p{L})/u),
    processTerm: (term) => indexTerms(term) ?? null,
  });
  index.addAll(facts as Fact[]);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const words = lexical(index, question);
  const previous = topic ? lexical(index, topic.question ?? '') : new Map();
  const asked = askedTypes(question);
  const bestWord = Math.max(0, ...[...words.values()].map((w) => w.score));
  const typeBonus = Math.max(TYPE_FLOOR, bestWord * TYPE_SHARE);
  const neighbours = new Set<number>();
  for (const given of topic?.facts ?? [])
    for (const f of facts)
      if (f.id !== given.id && (f.group === given.group || f.id === given.id + 1)) neighbours.add(f.id);

  const ranked: RankedFact[] = [];
  for (const fact of byId.values()) {
    const w = words.get(fact.id);
    const matched = [...asked].filter((t) => typesOf(fact).has(t));
    const typeMatch = matched.length > 0;
    // Any number is a quantity: that kind says less than a date, a place or a name.
    const typeWeight = matched.some((t) => t !== 'quantity') ? 1 : 0.5;
    let score = (w?.score ?? 0) + (typeMatch ? typeBonus * typeWeight : 0);
    if (topic) {
      score += (previous.get(fact.id)?.score ?? 0) * TOPIC_WEIGHT;
      if (neighbours.has(fact.id)) score += NEIGHBOUR_BONUS;
    }
    if (score > 0) ranked.push({ fact, score, wordMatch: w?.word ?? false, typeMatch });
  }
  return ranked.sort((a, b) => b.score - a.score || a.fact.id - b.fact.id);
}
