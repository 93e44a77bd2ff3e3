// A prompt typed as one long sentence ("…she paid £285 in three instalments, and then Daniel broke
// his wrist on 28 May so the doctor said…, but the school says the deposit is non-refundable…")
// holds many facts. Read whole, it is one fact that answers everything badly and is said at length.
// It is cut at commas and joining words; a clause with a subject and a verb of its own becomes a sentence,
// and what only continues the one before (a list, "which…", a verb without a subject) stays with it.
import nlp from 'compromise';

/** Sentences shorter than this (words) are left whole: their clauses belong together. */
const RUN_ON_WORDS = 30;
/** A clause shorter than this (words) is not a sentence of its own. */
const CLAUSE_WORDS = 5;

interface Term {
  text: string;
  tags: string[];
}

const JOINING = /^(?:and then|and so|and|but|so|then|plus)\s+/i;
const CONTINUES =
  /^(?:which|who|whose|whom|where|that|when|while|because|though|although|as|to|with|for|of|in|on|at|by|from|including|like|such as|just|especially)\b/i;

/** Whether the clause opens with its own subject and holds a verb: "she paid £285…", "the school says…". */
function standsAlone(terms: Term[]): boolean {
  // "and then honestly she would…": the joining word and an adverb open the clause, not its subject.
  const start = terms.findIndex((t) => !JOINING.test(`${t.text} `) && !t.tags.includes('Adverb'));
  const first = terms[start];
  if (!first || !terms.some((t) => t.tags.includes('Verb'))) return false;
  const tags = first.tags;
  if (tags.includes('Pronoun'))
    return /^(?:i|you|he|she|it|we|they)$/i.test(first.text.replace(/['’]\w+$/, ''));
  if (tags.includes('Verb') || tags.includes('Preposition') || tags.includes('Conjunction')) return false;
  // "Daniel broke…", "the doctor said…": a name or a noun phrase before the clause's first verb.
  const verb = terms.findIndex((t, i) => i > start && t.tags.includes('Verb'));
  return (
    verb > start &&
    terms
      .slice(start, verb)
      // "a Facebook page she'd rather close" is a noun with its clause, not a subject.
      .every(
        (t) =>
          !t.tags.includes('Pronoun') &&
          t.tags.some((tag) => ['Noun', 'Determiner', 'Adjective', 'Possessive', 'Value'].includes(tag)),
      )
  );
}

/** The sentences of a run-on clause (split at ";" before); any other clause as it is. */
export function splitRunOn(sentence: string): string[] {
  if (sentence.split(/\s+/).length < RUN_ON_WORDS) return [sentence];
  // Clauses part at a comma or before a joining word; a part that does not stand alone rejoins.
  const parts = sentence.split(/(?<=,)\s+|\s+(?=(?:and|but|so)\s(?!that\b))/);
  const out: string[] = [];
  for (const part of parts) {
    const text = part.trim();
    const terms = (nlp(text).terms().json() as { terms: Term[] }[]).map((j) => j.terms[0]);
    const alone = text.split(/\s+/).length >= CLAUSE_WORDS && !CONTINUES.test(text) && standsAlone(terms);
    if (out.length > 0 && !alone) out[out.length - 1] += ` ${text}`;
    else out.push(out.length > 0 ? text.replace(JOINING, '') : text);
  }
  // Each piece a sentence of its own: no dangling comma, a capital, a full stop.
  return out.map((piece) => {
    const trimmed = piece.replace(/[,;:\s]+$/, '');
    const ended = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
    return ended[0].toUpperCase() + ended.slice(1);
  });
}
