// Whether a sentence of a scenario tells the persona what to do ("Concede on payment terms before
// price.", "At the end, tell them Nina will follow up.", "Keep answers short.") rather than stating
// something it knows. Read with compromise's part-of-speech tagger: an instruction's main verb is
// in the base form with no subject, after any leading time, place or condition phrase. A subjectless
// third-person line of a background ("Manages 40 people.", "Lives in Leeds.") is a fact, not an order.
import nlp from 'compromise';
import { hasEmbeddings, rankOf } from './embeddings.ts';

/** Phrases an instruction may open with before its verb: "At the end,", "If they push,", "Only". */
const LEADING_PHRASES =
  /^(?:(?:(?:at|in|by|for|during|before|after|towards?|throughout|on|from) [^,]{1,40},\s*)|(?:(?:if|when|once|whenever|unless|until|as soon as|if and when) [^,]{1,80},\s*)|(?:(?:only|always|never|just|please|then|also|first|finally|gently|politely|right now|today|currently|for now|at the moment),?\s+))+/i;

export function isImperative(sentence: string): boolean {
  const [first, second, third] = nlp(sentence.replace(LEADING_PHRASES, ''))
    .terms()
    .json()
    .slice(0, 3)
    .map((t: { terms: { tags: string[]; post: string; text: string }[] }) => t.terms[0]) as (
    | { tags: string[]; post: string; text: string }
    | undefined
  )[];
  // compromise tags a phrasal verb's head "Imperative" ("Push back…"), others "Infinitive".
  if (!first?.tags.includes('Verb') || !first.tags.some((t) => t === 'Infinitive' || t === 'Imperative'))
    return false;
  // "Budget: under 25k" is a label, not an order.
  if (first.post.includes(':')) return false;
  // "…stack, run by 2 SREs": a participle with its agent, not an order ("Close by saying…" is one).
  if (second && /^by$/i.test(second.text) && !third?.tags.includes('Gerund')) return false;
  // "Spendwise quoted £38,000": a word the language's vocabulary lacks is a name, not a verb.
  if (hasEmbeddings() && rankOf(first.text.toLowerCase()) === null) return false;
  // "Lease ends in August": a finite verb right after it makes the first word the subject.
  const finite =
    second?.tags.includes('Verb') &&
    !second.tags.some((t) => t === 'Infinitive' || t === 'Particle' || t === 'Pronoun') &&
    // compromise tags "it" in "Keep it short" as a verb, and "back" in "Push back on every claim".
    !/^(?:it|them|him|her|me|us|this|that|these|those|things|back|up|down|out|off|over|away|around|through)$/i.test(
      second.text,
    );
  if (finite) return false;
  // "Lease ends in August.", "Contract expires on 30 June.": read as "The lease ends…", the second word is
  // its verb, and a date or a figure makes it a fact ("Keep answers short" has neither).
  // "Push notifications get a 3% open rate": a noun or two may stand between it and its verb.
  const asSubject = (
    nlp(`The ${sentence.replace(LEADING_PHRASES, '')}`)
      .terms()
      .json()
      .slice(2, 5) as { terms: { tags: string[] }[] }[]
  ).map((t) => t.terms[0]?.tags ?? []);
  const verbAt = asSubject.findIndex(
    (tags) => tags.includes('Verb') && (tags.includes('PresentTense') || tags.includes('PastTense')),
  );
  const subject =
    verbAt >= 0 &&
    asSubject
      .slice(0, verbAt)
      .every((tags) => tags.includes('Noun') && !tags.some((t) => t === 'Pronoun' || t === 'Possessive'));
  const dated = nlp(sentence).has('(#Date|#Value|#Month|#WeekDay)') || /\d/.test(sentence);
  // A noun between ("cake orders come in by phone") makes a subject; the word right after it as the verb
  // needs a date or a figure to be a fact ("Lease ends in August", not "Keep answers short").
  return !(subject && (verbAt >= 1 || dated));
}
