// Picks the fact that answers a question: BM25 ranking (MiniSearch) over the persona's facts, on
// Porter stems and concept tags (concepts.ts).
import MiniSearch from 'minisearch';
import { indexTerms } from './concepts.ts';
import type { Fact } from './knowledge.ts';

/** Facts are one sentence each: length matters less than in documents (b below the usual 0.75). */
const BM25 = { k: 1.2, b: 0.3, d: 0.5 };
const CONCEPT_WEIGHT = 0.5;

export interface RankedFact {
  fact: Fact;
  score: number;
  /** Whether a word of the question itself matched, not only a concept tag. */
  wordMatch: boolean;
}

export function rankFacts(facts: readonly Fact[], question: string): RankedFact[] {
  if (facts.length === 0) return [];
  const index = new MiniSearch<Fact>({
    fields: ['text'],
    storeFields: [],
    tokenize: (text) => text.split(/[\s,;:()"“”]+/),
    processTerm: (term) => indexTerms(term) ?? null,
  });
  index.addAll(facts as Fact[]);
  return index
    .search(question, {
      combineWith: 'OR',
      bm25: BM25,
      // A concept tag rides along its word: it helps when the words differ, and must not double a word match.
      boostTerm: (term) => (term.startsWith('~') ? CONCEPT_WEIGHT : 1),
    })
    .map((result) => ({
      fact: facts[result.id as number],
      score: result.score,
      wordMatch: result.terms.some((term) => !term.startsWith('~')),
    }));
}
