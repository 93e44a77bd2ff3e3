// When has the participant finished their turn? (docs/speech.md, "End of turn".) A fixed silence
// (VOICE_END_SILENCE_MS) either cuts people off in the middle of a thought or keeps everyone waiting
// after a finished one. People judge it from the words and the voice together, and so does this
// policy: at each moment of a pause it looks at the recogniser's text so far and at the melody of
// the last words (prosody.ts), and says how much silence ends the turn —
//
// - short (MIN_END_SILENCE_MS) after a finished sentence, a question or a short answer ("yes",
//   "five years"), said on a falling or unknown pitch;
// - long (MAX_END_SILENCE_MS) after words that promise more: a trailing conjunction ("and", "so",
//   "because"), a filler ("um"), a preposition, an article or possessive ("the", "my"), a subject
//   pronoun ("did you"), an adjective waiting for its noun ("a really good");
// - in between (WEAK_INCOMPLETE_MS) after words that usually but not always promise more: an
//   auxiliary left alone ("I was"), an intensifier ("really"), "I think", a subordinate clause with
//   no main clause yet ("when I joined the team");
// - the configured VOICE_END_SILENCE_MS when nothing is known (no text yet, a number that may go on,
//   a long fragment without a verb, a statement said on a rising pitch).
//
// The words' parts of speech come from compromise (the same library the persona engine uses); a
// few closed classes it cannot tell apart in unpunctuated lower-case recogniser text (fillers, the
// complementiser "that", object pronouns spelled like determiners) are named here.
import nlp from 'compromise';
import { words } from './barge-in.ts';
import type { PitchCue } from './prosody.ts';

/**
 * The shortest silence that ends a turn. Speech is full of shorter gaps that are not pauses at all:
 * the voice-activity segmenter hears no voice through a stop's closure or a quiet fricative, and
 * between words; on the speech test set's Flite voices those gaps are 60–80 ms at the median,
 * 140–180 ms at p90 and 240–360 ms at p99 (docs/speech.md, "End of turn"). 300 ms clears all but
 * the rarest of them; people themselves take the turn after about 200–300 ms.
 */
export const MIN_END_SILENCE_MS = 300;
/**
 * The longest silence the policy waits after words that promise more. Hesitations inside a
 * sentence are mostly under a second; past 1.2 s the participant who did stop ("so…") waits twice
 * as long as with the old fixed 600 ms, which is as much as a conversation bears. A configured
 * VOICE_END_SILENCE_MS above this raises it.
 */
export const MAX_END_SILENCE_MS = 1_200;
/** After words that usually, not always, promise more. */
export const WEAK_INCOMPLETE_MS = 900;
/** A finished sentence said on a level pitch: a list or a thought may go on. */
export const LEVEL_COMPLETE_MS = 400;

export type TextVerdict =
  /** A sentence, a question or an answer that stands on its own. */
  | 'complete'
  /** Ends in a word that needs more (a conjunction, a filler, an article…). */
  | 'incomplete'
  /** Ends in a word that usually needs more. */
  | 'weak-incomplete'
  /** Cannot tell: a number that may go on, a long fragment without a verb. */
  | 'open'
  /** No text yet. */
  | 'none';

export interface TextReading {
  verdict: TextVerdict;
  /** Why, for logs and tests: the rule that decided. */
  reason: string;
  question: boolean;
}

export interface TurnEndInput {
  /** What the recogniser has made of the utterance so far (interim or final text). */
  text: string;
  /**
   * The text covers the speech up to the pause. Interim text lags the voice (PocketSphinx sends a
   * new hypothesis at most every 250 ms), so a sentence that looks finished may only be missing
   * its last word, "and": a finished-looking text that may be stale does not end the turn early.
   */
  textCurrent: boolean;
  /** Which way the voice went before the pause. */
  pitch: PitchCue;
}

export interface TurnEndDecision {
  /** Silence, in ms, that ends the turn. */
  silenceMs: number;
  reason: string;
}

/** Hesitation sounds and discourse markers that hold the floor. */
const FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'uhm', 'er', 'erm', 'ah', 'eh', 'hmm', 'like', 'well']);
/** Answers complete in themselves. */
const SHORT_ANSWERS = new Set([
  'yes',
  'yeah',
  'yep',
  'no',
  'nope',
  'okay',
  'ok',
  'sure',
  'right',
  'exactly',
  'absolutely',
  'definitely',
  'correct',
  'thanks',
  'maybe',
  'probably',
  'agreed',
  'fine',
  'great',
]);
/** Determiners that also stand alone as pronouns: "I like that", "I told her", "we tried both". */
const PRONOUN_DETERMINERS = new Set([
  'that',
  'this',
  'these',
  'those',
  'her',
  'his',
  'its',
  'all',
  'both',
  'each',
  'some',
  'any',
  'none',
  'either',
  'neither',
  'much',
  'many',
  'few',
  'enough',
  'more',
  'most',
  'less',
  'one',
  'mine',
  'yours',
  'ours',
  'theirs',
]);
/** Verbs whose "that" is a complementiser ("I think that…"), not an object ("I like that"). */
const THAT_CLAUSE_VERBS = new Set([
  'think',
  'believe',
  'say',
  'tell',
  'know',
  'mean',
  'guess',
  'hope',
  'feel',
  'realize',
  'realise',
  'notice',
  'find',
  'decide',
  'agree',
  'suppose',
  'show',
  'learn',
  'understand',
  'explain',
]);
/** Verbs that announce a clause or an object: "I think…", "I want…". "I think so" is complete. */
const ANNOUNCING_VERBS = new Set([
  'think',
  'believe',
  'guess',
  'hope',
  'want',
  'need',
  'wish',
  'suppose',
  'mean',
]);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'they', 'he', 'she']);
const INVERTING_AUXILIARIES = new Set([
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'are',
  'were',
  'is',
  'was',
  'have',
  'has',
  'had',
  'shall',
  'may',
  'might',
  'must',
]);
const INTENSIFIERS = new Set([
  'very',
  'really',
  'quite',
  'pretty',
  'too',
  'so',
  'rather',
  'extremely',
  'super',
  'fairly',
  'just',
]);
const SUBORDINATORS = new Set([
  'when',
  'if',
  'because',
  'although',
  'though',
  'while',
  'since',
  'unless',
  'once',
  'whenever',
  'whereas',
  'after',
  'before',
  'until',
]);
const QUESTION_WORDS = new Set(['what', 'who', 'whom', 'which', 'where', 'when', 'why', 'how', 'whose']);
/** Number words after which a number often goes on: "twenty… five", "three hundred… and ten". */
const OPEN_NUMBERS = new Set([
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
  'hundred',
  'thousand',
  'million',
  'billion',
  'point',
]);
/** Three digits or more in a row are being read out (a phone number, a code): they go on. */
const READ_OUT_DIGITS = 3;
/** A fragment without a verb longer than this is not a short answer. */
const SHORT_FRAGMENT_WORDS = 4;

interface Term {
  word: string;
  tags: Set<string>;
  root: string;
}

function terms(text: string): Term[] {
  const doc = nlp(text);
  doc.compute('root');
  return (doc.terms().json() as Array<{ terms: Array<{ normal: string; tags: string[]; root?: string }> }>)
    .map((entry) => entry.terms[0]!)
    .map((term) => ({ word: term.normal, tags: new Set(term.tags), root: term.root ?? term.normal }));
}

const reading = (verdict: TextVerdict, reason: string, question = false): TextReading => ({
  verdict,
  reason,
  question,
});

let cached: { text: string; reading: TextReading } | null = null;

/** Whether the words so far make a finished turn, from the parts of speech of their end. */
export function readText(text: string): TextReading {
  if (cached?.text === text) return cached.reading;
  const result = read(text);
  cached = { text, reading: result };
  return result;
}

function read(text: string): TextReading {
  const trimmed = text.trim();
  const all = words(trimmed);
  if (all.length === 0) return reading('none', 'no words yet');
  const last = all.at(-1)!;
  const previous = all.at(-2);
  // Recognisers that punctuate (Whisper) say it outright: "…" and "," hold the turn.
  if (/(\.\.\.|…|[,;:–—-])["')\]]*$/.test(trimmed)) return reading('incomplete', 'trailing punctuation');
  if (FILLERS.has(last) && !(last === 'well' && previous !== undefined && !FILLERS.has(previous)))
    return reading('incomplete', `filler "${last}"`);
  if (all.length <= 2 && all.every((word) => SHORT_ANSWERS.has(word) || word === 'thank' || word === 'you'))
    return reading('complete', 'short answer');

  const parsed = terms(all.join(' '));
  const end = parsed.at(-1);
  if (!end) return reading('none', 'no words yet');
  const before = parsed.at(-2);
  // "when did you…" asks; "when I joined…" is a subordinate clause (a subject follows the wh-word).
  const second = parsed[1];
  const subjectFollows = Boolean(second?.tags.has('Noun')) && !INVERTING_AUXILIARIES.has(second?.word ?? '');
  const question =
    INVERTING_AUXILIARIES.has(all[0]!) ||
    (QUESTION_WORDS.has(all[0]!) && !(SUBORDINATORS.has(all[0]!) && subjectFollows));
  const hasVerb = parsed.some((term) => term.tags.has('Verb'));

  // "so" closes "I think so", "I hope so"; elsewhere it leads on ("…and so", "it was so").
  if (last === 'so') {
    if (before && ANNOUNCING_VERBS.has(before.root)) return reading('complete', `"${before.word} so"`);
    return reading('incomplete', 'trailing "so"');
  }
  if (end.tags.has('Conjunction') && !end.tags.has('Preposition'))
    return reading('incomplete', `conjunction "${last}"`);
  // "and then", "but also": a conjunction and a linking adverb.
  if (before?.tags.has('Conjunction') && end.tags.has('Adverb') && ['then', 'also', 'now'].includes(last))
    return reading('incomplete', `"${before.word} ${last}"`);
  if (end.tags.has('Determiner') || end.tags.has('Possessive')) {
    if (last === 'that' && before && THAT_CLAUSE_VERBS.has(before.root))
      return reading('incomplete', `"${before.word} that"`);
    if (!PRONOUN_DETERMINERS.has(last)) return reading('incomplete', `determiner "${last}"`);
  }
  if (end.tags.has('Preposition') || end.tags.has('Conjunction')) {
    // A particle ("gave up") or a preposition left at the end of a question ("who did you work
    // with", "what was it about") ends the sentence.
    if (end.tags.has('PhrasalVerb') || end.tags.has('Particle'))
      return reading('complete', `particle "${last}"`);
    if (question) return reading('complete', `question ending in "${last}"`, true);
    if (all.some((word) => QUESTION_WORDS.has(word) || word === 'that'))
      return reading('open', `preposition "${last}" after a wh-word`);
    return reading('incomplete', `preposition "${last}"`);
  }
  if (SUBJECT_PRONOUNS.has(last)) return reading('incomplete', `subject pronoun "${last}"`);
  if (last === 'you' && previous && INVERTING_AUXILIARIES.has(previous))
    return reading('incomplete', `"${previous} you"`);
  // An adjective after an article is waiting for its noun: "a really good…".
  const adjectiveAt = parsed.length - 1;
  if (end.tags.has('Adjective') && !INTENSIFIERS.has(last)) {
    let at = adjectiveAt - 1;
    while (at >= 0 && parsed[at]!.tags.has('Adverb')) at -= 1;
    if (at >= 0 && parsed[at]!.tags.has('Determiner') && !PRONOUN_DETERMINERS.has(parsed[at]!.word))
      return reading('incomplete', `"${parsed[at]!.word} … ${last}" without its noun`);
  }
  if (INTENSIFIERS.has(last) && all.length >= 2) return reading('weak-incomplete', `intensifier "${last}"`);

  if (end.tags.has('Value') || /^\d/.test(last)) {
    let digits = 0;
    for (
      let at = all.length - 1;
      at >= 0 && /^(zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)$/.test(all[at]!);
      at -= 1
    )
      digits += 1;
    if (digits >= READ_OUT_DIGITS) return reading('open', 'digits being read out');
    if (OPEN_NUMBERS.has(last)) return reading('open', `number "${last}" may go on`);
    return reading('complete', 'ends in a number');
  }

  if (question) return reading('complete', 'question', true);

  if (end.tags.has('Verb')) {
    const isAuxiliary =
      end.tags.has('Copula') ||
      end.tags.has('Modal') ||
      end.tags.has('Auxiliary') ||
      INVERTING_AUXILIARIES.has(last);
    // "Yes, I have", "no, it wasn't": an auxiliary after a short answer is an ellipsis, complete.
    if (isAuxiliary && SHORT_ANSWERS.has(all[0]!)) return reading('complete', 'short answer with ellipsis');
    if (isAuxiliary) return reading('weak-incomplete', `auxiliary "${last}"`);
    if (ANNOUNCING_VERBS.has(end.root) && all.length <= 3)
      return reading('weak-incomplete', `"${all.join(' ')}"`);
  }
  if (SUBORDINATORS.has(all[0]!) && clauseCount(parsed) < 2)
    return reading('weak-incomplete', `"${all[0]}" clause without a main clause`);
  if (!hasVerb && all.length > SHORT_FRAGMENT_WORDS) return reading('open', 'long fragment without a verb');
  return reading('complete', hasVerb ? 'finished clause' : 'short answer');
}

/** Subject–verb pairs: "when I joined the team we had no tests" has two. */
function clauseCount(parsed: Term[]): number {
  let count = 0;
  for (let at = 1; at < parsed.length; at += 1) {
    if (!parsed[at]!.tags.has('Verb')) continue;
    let subject = at - 1;
    while (subject >= 0 && parsed[subject]!.tags.has('Adverb')) subject -= 1;
    if (subject >= 0 && parsed[subject]!.tags.has('Noun')) count += 1;
  }
  return count;
}

/**
 * How much silence ends the turn now. `defaultMs` is VOICE_END_SILENCE_MS: what is waited when
 * neither the words nor the voice tell anything; set above MAX_END_SILENCE_MS it raises the upper
 * bound, set below MIN_END_SILENCE_MS it lowers the lower one (an operator's explicit choice).
 */
export function turnEndSilence(input: TurnEndInput, defaultMs: number): TurnEndDecision {
  const longest = Math.max(MAX_END_SILENCE_MS, defaultMs);
  const shortest = Math.min(MIN_END_SILENCE_MS, defaultMs);
  const clamp = (ms: number) => Math.min(longest, Math.max(shortest, ms));
  const text = readText(input.text);
  const decide = (ms: number, why: string) => ({ silenceMs: clamp(ms), reason: `${why}; ${text.reason}` });
  switch (text.verdict) {
    case 'incomplete':
      return decide(longest, 'words promise more');
    case 'weak-incomplete':
      return decide(WEAK_INCOMPLETE_MS, 'words usually promise more');
    case 'open':
      return decide(defaultMs, 'words do not tell');
    case 'none':
      // No words yet (a recogniser without interim text, a filler it does not write down): the
      // voice alone. A held or rising pitch is a hesitation ("mmm…"); a fall may be a full stop.
      if (input.pitch === 'level' || input.pitch === 'rising')
        return decide(WEAK_INCOMPLETE_MS, `no words, ${input.pitch} pitch`);
      return decide(defaultMs, `no words, ${input.pitch} pitch`);
    case 'complete':
      if (!input.textCurrent) return decide(defaultMs, 'finished words, but the text may lag the voice');
      if (input.pitch === 'rising' && !text.question)
        return decide(defaultMs, 'finished words on a rising pitch');
      if (input.pitch === 'level') return decide(LEVEL_COMPLETE_MS, 'finished words on a level pitch');
      return decide(shortest, `finished words, ${input.pitch} pitch`);
  }
}
