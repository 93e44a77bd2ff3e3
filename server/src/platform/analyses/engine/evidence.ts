// Evidence gathered from the participant's turns, shared by the offline evaluator and the offline
// summarizer: answer lengths, sentences with concrete details and questions asked.

import {
  isStopWord,
  type ParticipantSentence,
  participantSentences,
  participantTurns,
  stem,
} from './text.ts';
import type { TranscriptTurn } from './types.ts';

/** A participant turn with at least this many words is a substantive answer. */
export const SUBSTANTIVE_TURN_WORDS = 12;
/** A participant turn with fewer words than this is a very short answer. */
export const SHORT_TURN_WORDS = 5;

export type DetailKind = 'number' | 'example' | 'reason' | 'result';

const NUMBER_WORDS = new Set(
  `two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty
hundred hundreds thousand thousands million millions billion percent half dozen double twice`.split(/\s+/),
);
const EXAMPLE_PHRASES = [['for', 'example'], ['for', 'instance'], ['such', 'as'], ['e.g']];
const REASON_PHRASES = [
  ['because'],
  ['so', 'that'],
  ['which', 'meant'],
  ["that's", 'why'],
  ['due', 'to'],
  ['as', 'a', 'result'],
];
/** Words that report an outcome (compared by stem): reduced, improved, shipped, saved … */
const RESULT_STEMS = new Set(
  `result reduced increased improved saved cut grew grow delivered shipped launched achieved impact
outcome decreased doubled halved migrated measured`
    .split(/\s+/)
    .map(stem),
);
/** Openings that ask even without a question mark (speech recognition often drops it). */
const QUESTION_OPENINGS = [
  ['what'],
  ['how'],
  ['why'],
  ['when'],
  ['where'],
  ['who'],
  ['which'],
  ['could', 'you'],
  ['can', 'you'],
  ['would', 'you'],
  ['will', 'you'],
  ['do', 'you'],
  ['does'],
  ['did', 'you'],
  ['is', 'there'],
  ['are', 'there'],
  ['have', 'you'],
];
/** Requests for information that are questions whatever their punctuation. */
const ELICITING_OPENINGS = [
  ['tell', 'me'],
  ['walk', 'me', 'through'],
  ['describe'],
  ['explain'],
  ['help', 'me', 'understand'],
  ["i'd", 'like', 'to', 'understand'],
  ["i'd", 'like', 'to', 'know'],
  ["i'd", 'like', 'to', 'hear'],
];
const TAG_QUESTION_ENDINGS = new Set(['right', 'yeah', 'ok', 'okay', 'huh', 'no']);

export interface TurnEvidence {
  /** Position among the participant's turns, in time order. */
  index: number;
  startSeconds: number;
  message: string;
  words: number;
  sentences: ParticipantSentence[];
  /** Stems of the turn's words, stop words excluded. */
  stems: Set<string>;
}

export interface TranscriptEvidence {
  turns: TurnEvidence[];
  sentences: ParticipantSentence[];
  /** Sentences with at least one concrete detail (number, example, reason or result). */
  detailSentences: ParticipantSentence[];
  /** Real questions the participant asked (not tag questions such as "…, right?"). */
  questions: ParticipantSentence[];
  substantiveTurns: number;
  shortTurns: number;
  averageWords: number;
  wordCount: number;
}

export function gatherEvidence(turns: TranscriptTurn[]): TranscriptEvidence {
  const sentences = participantSentences(turns);
  const evidenceTurns: TurnEvidence[] = participantTurns(turns).map((turn, index) => {
    const own = sentences.filter((s) => s.turn === index);
    const tokens = own.flatMap((s) => s.tokens);
    return {
      index,
      startSeconds: turn.startSeconds,
      message: turn.message,
      words: tokens.length,
      sentences: own,
      stems: new Set(tokens.filter((t) => !isStopWord(t.norm)).map((t) => stem(t.norm))),
    };
  });
  const spoken = evidenceTurns.filter((t) => t.words > 0);
  const wordCount = spoken.reduce((sum, t) => sum + t.words, 0);
  return {
    turns: spoken,
    sentences,
    detailSentences: sentences.filter((s) => detailKinds(s).length > 0),
    questions: sentences.filter(isQuestion),
    substantiveTurns: spoken.filter((t) => t.words >= SUBSTANTIVE_TURN_WORDS).length,
    shortTurns: spoken.filter((t) => t.words < SHORT_TURN_WORDS).length,
    averageWords: spoken.length > 0 ? wordCount / spoken.length : 0,
    wordCount,
  };
}

/** Kinds of concrete detail in a sentence, in a fixed order. */
export function detailKinds(sentence: ParticipantSentence): DetailKind[] {
  const words = sentence.tokens.map((t) => t.norm);
  const has = (phrases: string[][]) =>
    phrases.some((phrase) => words.some((_, i) => phrase.every((w, k) => words[i + k] === w)));
  const kinds: DetailKind[] = [];
  if (words.some((w) => /\d/.test(w) || NUMBER_WORDS.has(w))) kinds.push('number');
  if (has(EXAMPLE_PHRASES)) kinds.push('example');
  if (has(REASON_PHRASES)) kinds.push('reason');
  if (words.some((w) => RESULT_STEMS.has(stem(w)))) kinds.push('result');
  return kinds;
}

const startsWith = (words: string[], phrases: string[][]) =>
  phrases.some((phrase) => phrase.every((w, k) => words[k] === w));

/**
 * A question of at least 3 words: one ending in `?` (other than a tag question such as "…, right?"),
 * a request for information ("Tell me about…", "Walk me through…"), or, with no end punctuation at
 * all (speech recognition often leaves it out), one opening with a question word ("how do you…").
 */
export function isQuestion(sentence: ParticipantSentence): boolean {
  const { tokens, text } = sentence;
  if (tokens.length < 3) return false;
  const words = tokens.map((t) => t.norm);
  const end = text.trimEnd();
  if (end.endsWith('?')) return !TAG_QUESTION_ENDINGS.has(words[words.length - 1]);
  if (startsWith(words, ELICITING_OPENINGS)) return true;
  return !/[.!…]["')\]]*$/.test(end) && startsWith(words, QUESTION_OPENINGS);
}
