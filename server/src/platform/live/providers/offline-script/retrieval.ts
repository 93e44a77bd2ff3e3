// Picks the facts that answer a question. Three signals, added: BM25 (MiniSearch) on Porter stems
// and concept tags (concepts.ts); closeness in meaning of the question's other words to the fact's
// words (word embeddings, embeddings.ts); and the kind of answer the question asks for (a date, a
// place, a person, an amount…) held by the fact (answer-types.ts). A follow-up that leans on what
// was just said ("and how old is it?") also weighs the previous question's words and the facts next
// to the one just given.
import MiniSearch from 'minisearch';
import { type AnswerType, askedTypes, factTypes } from './answer-types.ts';
import { indexTerms, plainWants } from './concepts.ts';
import { rankOf, similarity } from './embeddings.ts';
import type { Fact } from './knowledge.ts';

/** Facts are one sentence each: length matters less than in documents (b below the usual 0.75). */
const BM25 = { k: 1.2, b: 0.3, d: 0.5 };
const CONCEPT_WEIGHT = 0.5;
/** The words around a fact (its heading, the clause it leans on) count this much of its own. */
const CUE_WEIGHT = 0.5;
/** A fact holding the kind of answer asked for gains this share of the best word score (at least TYPE_FLOOR). */
const TYPE_SHARE = 0.6;
const TYPE_FLOOR = 1.5;
/** Verbs too general to relate anything by meaning. */
const TOO_GENERAL = new Set(
  'be have get make do go take come say know want need use like give put see think look'.split(' '),
);
/** A verb too general to tell facts apart counts this much of a word in BM25 ("when do we need to sign?"). */
const GENERAL_WEIGHT = 0.4;
const GENERAL_STEMS = new Set(
  [...TOO_GENERAL].map((w) => indexTerms(w)?.[0]).filter((s): s is string => Boolean(s)),
);
/** "got", "made", "things": a form of a verb that says nothing on its own, or an empty noun. */
const EMPTY_WORDS = new Set(
  'be been being get gets got gotten getting make makes made making do does did doing done go goes went gone going come comes came coming thing things stuff something anything everything lot lots'.split(
    ' ',
  ),
);
/** A question word counts as meant by a fact word from this cosine similarity up. */
const SIMILAR_FROM = 0.45;
/** Weight of the meaning match (embeddings) next to BM25. */
const SIMILARITY_WEIGHT = 1;
/** In a follow-up, the previous question's words count this much. */
const TOPIC_WEIGHT = 0.5;
/** In a follow-up, a fact next to the one just said (same bullet, or the next sentence) gains this. */
const NEIGHBOUR_BONUS = 1.2;

export interface RankedFact {
  fact: Fact;
  score: number;
  /** Whether a word of the question itself matched, not only a concept tag. */
  wordMatch: boolean;
  /** Whether a word or a concept of the question matched. */
  lexicalMatch: boolean;
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
  // Without the persona's own name: "Who should I speak to?" is not answered by "I'm Linda Okafor".
  const text = fact.matchText ?? fact.text;
  let types = typeCache.get(text);
  if (!types) {
    if (typeCache.size > 5000) typeCache.clear();
    types = factTypes(text);
    typeCache.set(text, types);
  }
  return types;
}

/** What the index holds of a fact. */
interface Indexed {
  id: number;
  text: string;
  cue: string;
  label: string;
}

/**
 * "Proudest achievement: I cut…", "Why this job: …": the words before the colon name what the fact
 * answers. Up to four words, and not one of the engine's own lead-ins for a scenario's labels ("What
 * the first version must do:", "The constraints are these:", knowledge.ts).
 */
const LABELLED = /^(?!(?:what|the|we'?d|that'?s|who|i'?m)\b)((?:[\p{L}'’-]+ ){0,3}[\p{L}'’-]+):\s/iu;
/** A fact's label counts this much on top of its place in the text. */
const LABEL_WEIGHT = 1;

function lexical(index: MiniSearch<Indexed>, query: string): Map<number, { score: number; word: boolean }> {
  const out = new Map<number, { score: number; word: boolean }>();
  if (query.trim() === '') return out;
  // Each word once, and none of the words that tell no fact apart ("got", "things").
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}'%$£€-]+/u)
        .filter((w) => w.length > 0 && !EMPTY_WORDS.has(w)),
    ),
  ];
  const results = index.search(words.join(' '), {
    combineWith: 'OR',
    bm25: BM25,
    boost: { cue: CUE_WEIGHT, label: LABEL_WEIGHT },
    // A concept tag rides along its word: it helps when the words differ, and must not double a word match.
    boostTerm: (term) =>
      term.startsWith('~') ? CONCEPT_WEIGHT : GENERAL_STEMS.has(term) ? GENERAL_WEIGHT : 1,
  });
  for (const r of results)
    out.set(r.id as number, { score: r.score, word: r.terms.some((t) => !t.startsWith('~')) });
  return out;
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}'-]+/u)
    .filter((w) => w.length > 1 && indexTerms(w) !== null);

/** Rare words say more: weight from the word's frequency rank in the embeddings' corpus. */
const informativeness = (word: string) => Math.log(1 + (rankOf(word) ?? 20_000) / 200) + 1;

/**
 * How much of the question the fact means without saying it: each question word the fact does not
 * contain is matched to the fact word nearest in meaning, counted from SIMILAR_FROM up and weighted by
 * how informative the question word is.
 */
function meaningMatch(questionWords: readonly string[], factWords: readonly string[]): number {
  const factStems = new Set(factWords.map((w) => indexTerms(w)?.[0]));
  let total = 0;
  for (const q of questionWords) {
    if (factStems.has(indexTerms(q)?.[0])) continue;
    let best = 0;
    for (const f of factWords) best = Math.max(best, similarity(q, f) ?? 0);
    if (best >= SIMILAR_FROM) total += ((best - SIMILAR_FROM) / (1 - SIMILAR_FROM)) * informativeness(q);
  }
  return total;
}

/** One index per list of facts (collectFacts hands the same list to every turn of a scenario). */
const indexes = new WeakMap<readonly Fact[], MiniSearch<Indexed>>();
function indexOf(facts: readonly Fact[]): MiniSearch<Indexed> {
  let index = indexes.get(facts);
  if (!index) {
    index = new MiniSearch<Indexed>({
      fields: ['text', 'cue', 'label'],
      storeFields: [],
      // "front-desk" and "front desk" are the same words.
      // "front-desk" is "front desk"; "Wi-Fi" is also "wifi", "e-mail" "email".
      tokenize: (text) =>
        text
          .split(/[\s,;:()"“”]+/u)
          .flatMap((t) =>
            /\p{L}-\p{L}/u.test(t) ? [...t.split(/(?<=\p{L})-(?=\p{L})/u), t.replace(/-/g, '')] : [t],
          ),
      processTerm: (term) => indexTerms(term) ?? null,
    });
    // "I'd like next-day delivery" is wanting as much as "I want…".
    index.addAll(
      facts.map((f) => ({
        id: f.id,
        text: plainWants(f.matchText ?? f.text),
        cue: f.cue ?? '',
        label: LABELLED.exec(f.text)?.[1] ?? '',
      })),
    );
    indexes.set(facts, index);
  }
  return index;
}

/**
 * The words that only frame a request ("Could you start by telling us a bit about…", "I'd love to
 * hear about…", "…so far?"): they name nothing the fact could hold, and "start" would match "started".
 */
const REQUEST_FRAME =
  /^(?:(?:so|okay|ok|and|now|right|first(?:ly)?|to (?:start|begin)(?: with)?),?\s+)*(?:(?:could|can|would|will) you (?:please )?(?:(?:start|begin) by |just )?|i'?d (?:love|like) (?:you )?to |i (?:want|wanted) (?:you )?to |please |why don'?t you (?:start by )?)(?:tell(?:ing)?|talk(?:ing)?|walk(?:ing)?|tak(?:e|ing)|hear(?:ing)?)(?: (?:us|me))?(?: through)?(?: a (?:bit|little)(?: more)?)?(?: more)?(?: about)?\s+|\s+so far(?=\W*$)/gi;

export function rankFacts(facts: readonly Fact[], said: string, topic?: Topic | null): RankedFact[] {
  if (facts.length === 0) return [];
  const question = plainWants(said.replace(REQUEST_FRAME, ' ').trim() || said);
  const index = indexOf(facts);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const words = lexical(index, question);
  const previous = topic ? lexical(index, topic.question ?? '') : new Map();
  const asked = askedTypes(question);
  const questionWords = wordsOf(question).filter((w) => !TOO_GENERAL.has(w));
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
    const near = meaningMatch(questionWords, wordsOf(`${fact.matchText ?? fact.text} ${fact.cue ?? ''}`));
    let score = (w?.score ?? 0) + near * SIMILARITY_WEIGHT + (typeMatch ? typeBonus * typeWeight : 0);
    if (topic) {
      score += (previous.get(fact.id)?.score ?? 0) * TOPIC_WEIGHT;
      if (neighbours.has(fact.id)) score += NEIGHBOUR_BONUS;
    }
    if (score > 0)
      ranked.push({ fact, score, wordMatch: w?.word ?? false, lexicalMatch: Boolean(w), typeMatch });
  }
  return ranked.sort((a, b) => b.score - a.score || a.fact.id - b.fact.id);
}
