// A scenario written about the persona ("Margaret is a 67-year-old patient. She's called twice and
// her insurer should have paid, which has her upset") is said by the persona as itself ("I'm a
// 67-year-old patient. I've called twice and my insurer should have paid, which has me upset").
// compromise reads the sentence (parts of speech, contractions, verb roots); this file only swaps
// the persona's name and pronouns for the first person and conjugates the verb they govern.
import nlp from 'compromise';
import { escapeRegExp } from './text.ts';

type Pronoun = 'she' | 'he';

export interface ThirdPerson {
  /** The persona's names as they may appear: full name, first name, last name. */
  names: string[];
  /** The pronoun the scenario uses for the persona, if it uses one. */
  pronoun: Pronoun | null;
}

interface Term {
  pre: string;
  text: string;
  post: string;
  tags: string[];
  implicit?: string;
  root?: string;
}

const SUBJECT = { she: 'she', he: 'he' } as const;
const POSSESSIVE = { she: 'her', he: 'his' } as const;
const OBJECT = { she: 'her', he: 'him' } as const;
const REFLEXIVE = { she: 'herself', he: 'himself' } as const;
/** "'s" read as is/has/would/will after the persona: I'm, I've, I'd, I'll. */
const CONTRACTED: Record<string, string> = { is: "I'm", has: "I've", would: "I'd", had: "I'd", will: "I'll" };
/** Third-person verb forms whose first-person form is not the root. */
const FIRST_PERSON_VERB: Record<string, string> = {
  is: 'am',
  has: 'have',
  does: 'do',
  "doesn't": "don't",
  "isn't": 'am not',
  "hasn't": "haven't",
  "wasn't": "wasn't",
  was: 'was',
};

/** The persona's pronoun: the one the scenario uses more often (she/her or he/him/his). */
export function personaPronoun(text: string): Pronoun | null {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const she = count(/\b(?:she|her|hers|herself)\b/gi);
  const he = count(/\b(?:he|him|his|himself)\b/gi);
  if (she === 0 && he === 0) return null;
  return she >= he ? 'she' : 'he';
}

const lower = (t: Term) => t.text.toLowerCase().replace(/[’]/g, "'");
const is = (t: Term | undefined, tag: string) => Boolean(t?.tags.includes(tag));

/** "She's calling…" → "I'm calling…"; "her insurance" → "my insurance"; "has her upset" → "has me upset". */
export function thirdToFirstPerson(sentence: string, who: ThirdPerson): string {
  // "Abby, a head teacher…", "Grace Liu — Operations Director…": the persona introduces itself.
  const named = who.names.flatMap((n) => [n, n.split(/\s+/)[0]]).filter((n) => n.length > 1);
  for (const name of named) {
    const intro = new RegExp(
      `^(?:I'm\\s+)?(${escapeRegExp(name)}(?:\\s+\\p{Lu}[\\p{L}'-]+)?)(?=\\s*[,–—:(]|\\s+-\\s)`,
      'u',
    ).exec(sentence);
    if (!intro) continue;
    const rest = sentence.slice(intro[0].length);
    // "Rosa Jimenez, head of support, holds a check-in…": the apposition, then the persona's verb.
    const apposed = /^(\s*,[^,]+),\s+(\p{Ll}+)\b/u.exec(rest);
    if (apposed && nlp(`she ${apposed[2]}`).has('#PresentTense')) {
      const verb = nlp(apposed[2]).verbs().toInfinitive().text() || apposed[2];
      return `I'm ${intro[1]}${apposed[1]}, and I ${verb}${convert(rest.slice(apposed[0].length), who)}`;
    }
    return `I'm ${intro[1]}${convert(rest, who)}`;
  }
  return convert(sentence, who);
}

function convert(sentence: string, who: ThirdPerson): string {
  if (sentence.trim() === '') return sentence;
  const doc = nlp(sentence);
  doc.compute('root');
  const terms = doc
    .terms()
    .json()
    .map((j: { terms: Term[] }) => j.terms[0]) as Term[];
  const names = new Set(who.names.flatMap((n) => n.toLowerCase().split(/\s+/)));
  const p = who.pronoun;
  const out: string[] = [];
  let conjugateNext = false;
  /** The persona is the subject of the clause: "and wants…" after "I pay…" is conjugated too. */
  let clauseIsMine = false;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    let text = t.text;
    const word = lower(t);
    const bare = word.replace(/'(?:s|ll|d|re|ve)$/, '');
    const nextWord = terms[i + 1];
    const isName = names.has(bare) && /^\p{Lu}/u.test(t.text);
    const contraction = t.implicit && word.includes("'") ? terms[i + 1]?.implicit : undefined;
    if (conjugateNext && is(t, 'Verb') && t.text !== '') {
      text = firstPersonVerb(t);
      conjugateNext = false;
      clauseIsMine = true;
    } else if (
      conjugateNext &&
      !is(t, 'Adverb') &&
      !is(t, 'Negative') &&
      !TIME_ADVERB.test(word) &&
      t.text !== ''
    ) {
      conjugateNext = false;
    } else if (
      clauseIsMine &&
      /^(?:and|or|but)$/.test(word) &&
      (is(nextWord, 'PresentTense') || THIRD_PERSON_AUXILIARY.test(nextWord ? lower(nextWord) : ''))
    ) {
      conjugateNext = true;
    } else if (/[.;:!?]/.test(t.post) || (is(t, 'Pronoun') && !/^(?:it|them)$/.test(word))) {
      clauseIsMine = false;
    }
    const fullName = isName && nextWord && names.has(lower(nextWord).replace(/'s$/, ''));
    if (fullName && (isSubject(terms, i + 1) || lower(nextWord).endsWith("'s"))) {
      // "Margaret Doyle": the first name goes, the last name speaks for both.
      out.push(t.pre);
      continue;
    }
    if ((p && bare === SUBJECT[p]) || (isName && !word.endsWith("'s")) || (isName && contraction)) {
      const subject = isSubject(terms, i);
      if (contraction && CONTRACTED[contraction]) {
        text = CONTRACTED[contraction === 'has' ? hasOrIs(terms, i + 2) : contraction];
        terms[i + 1] = { ...terms[i + 1], text: '', implicit: undefined };
        clauseIsMine = true;
      } else if (subject || (p && bare === SUBJECT[p])) {
        text = 'I';
        conjugateNext = true;
      } else if (!isName || is(terms[i - 1], 'Preposition') || isActionVerb(terms[i - 1])) {
        text = 'me';
      }
      // Otherwise the name stays: "You are Linda Okafor", "Kaffee Kenji".
      else if (isName) {
        out.push(t.pre + t.text + t.post);
        if (fullName) out.push(nextWord.pre + nextWord.text + nextWord.post);
        if (fullName) i++;
        continue;
      }
    } else if (p && word === POSSESSIVE[p] && word === OBJECT[p]) {
      // "her" is possessive before what it owns ("her insurance"), an object otherwise ("has her upset").
      // "offered her £150 back": after a verb, a figure is what she is given, not hers.
      const given = isActionVerb(terms[i - 1]) && is(nextWord, 'Value');
      text = ownsNext(nextWord, terms[i + 2]) && !given ? 'my' : 'me';
    } else if ((p && word === POSSESSIVE[p]) || (isName && word.endsWith("'s"))) {
      text = 'my';
    } else if (p && word === OBJECT[p]) {
      text = 'me';
    } else if (p && word === REFLEXIVE[p]) {
      text = 'myself';
    }
    if (text !== t.text && i === 0 && text !== 'I' && !text.startsWith("I'"))
      text = text[0].toUpperCase() + text.slice(1);
    out.push(t.pre + text + t.post);
  }
  return out
    .join('')
    .replace(/\bI am not\b/g, "I'm not")
    .replace(/\bI am\b/g, "I'm");
}

/** Words compromise may not tag as adverbs that sit between a subject and its verb ("she now leads"). */
const TIME_ADVERB = /^(?:now|also|still|just|already|only|really|usually|often|never|always|currently|even)$/;
/** "…but doesn't know", "…and has two kids": a verb of the persona's after "and" or "but". */
const THIRD_PERSON_AUXILIARY = /^(?:does|doesn't|has|hasn't|is|isn't)$/;

/**
 * compromise reads every "she's" before a participle as "she has". "She's offered him £150",
 * "she's called twice" are; "she's annoyed that…", "she's upset." describe her: "is".
 */
function hasOrIs(terms: Term[], from: number): 'has' | 'is' {
  let i = from;
  while (terms[i] && (is(terms[i], 'Adverb') || TIME_ADVERB.test(lower(terms[i])))) i++;
  const verb = terms[i];
  if (!verb || !is(verb, 'Verb')) return 'is';
  if (/^(?:been|got|had|gotten)$/.test(lower(verb))) return 'has';
  if (is(verb, 'Gerund')) return 'is';
  const after = terms[i + 1];
  const ends = !after || /[.;:!?]/.test(verb.post);
  return ends || is(after, 'Preposition') || is(after, 'Conjunction') ? 'is' : 'has';
}

function isSubject(terms: Term[], i: number): boolean {
  for (let j = i + 1; j < Math.min(terms.length, i + 4); j++) {
    const t = terms[j];
    if (t.text === '' && t.implicit) return true;
    if (is(t, 'Verb')) return true;
    if (!is(t, 'Adverb') && !is(t, 'Negative')) return false;
  }
  return false;
}

function isActionVerb(t: Term | undefined): boolean {
  return is(t, 'Verb') && !is(t, 'Copula') && !is(t, 'Auxiliary');
}

/** "her insurance", "her new car": what follows is owned; "has her upset": it describes her. */
function ownsNext(next: Term | undefined, after: Term | undefined): boolean {
  if (!next) return false;
  if (is(next, 'Pronoun') || is(next, 'Determiner') || is(next, 'Preposition') || is(next, 'Adverb'))
    return false;
  if (is(next, 'Adjective') && !is(next, 'Noun')) return is(after, 'Noun') && !is(after, 'Pronoun');
  return is(next, 'Noun') || is(next, 'Value');
}

function firstPersonVerb(t: Term): string {
  const word = lower(t);
  const swapped = FIRST_PERSON_VERB[word];
  if (swapped) return swapped;
  if (is(t, 'PresentTense') && !is(t, 'Infinitive') && /s$/.test(word) && t.root) return t.root;
  return t.text;
}
