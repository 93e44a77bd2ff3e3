// Speech analytics over the participant's turns: filler words, weak words (hedges), repetitions and
// sentence starters. The word lists and rules are documented in docs/analysis.md ("Speech
// analytics"); keep the two in step, integrators see these numbers.

import {
  compareText,
  isStopWord,
  nextChar,
  type ParticipantSentence,
  participantSentences,
  round2,
  snippet,
  sortTurns,
  type Token,
  tokenize,
  turnParts,
} from './text.ts';
import type { SpeechAnalytics, SpeechMetric, TranscriptTurn } from './types.ts';

/** Seconds per word at the slowest plausible speaking pace (60 words per minute). */
export const SLOWEST_SECONDS_PER_WORD = 1;
/** Seconds per word at a typical speaking pace (150 words per minute). */
export const TYPICAL_SECONDS_PER_WORD = 0.4;

/** Hesitation sounds, always fillers. Returns the canonical spelling or null. */
export function interjection(word: string): string | null {
  if (/^u+h*m+$/.test(word)) return 'um'; // um, umm, uhm
  if (/^u+h+$/.test(word)) return 'uh'; // uh, uhh
  if (word === 'er' || word === 'erm') return 'er';
  if (/^a+h+$/.test(word)) return 'ah'; // ah, ahh
  if (/^h+m+$/.test(word)) return 'hmm'; // hm, hmm
  return null;
}

/** Fillers that count wherever they occur. */
export const ALWAYS_FILLERS: readonly string[] = ['basically', 'actually', 'literally'];

/** Weak words and phrases (hedges and qualifiers), matched longest first. */
export const WEAK_PHRASES: readonly string[] = [
  'i feel like',
  'i suppose',
  'i think',
  'i guess',
  'kind of',
  'sort of',
  'a bit',
  'a little',
  'could be',
  'maybe',
  'perhaps',
  'probably',
  'possibly',
  'hopefully',
  'somewhat',
  'just',
  'might',
];

/** "kind of" / "sort of" after one of these is a noun phrase ("what kind of database"), not a hedge. */
export const KIND_OF_DETERMINERS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'what',
  'which',
  'this',
  'that',
  'these',
  'those',
  'any',
  'some',
  'every',
  'each',
  'one',
  'same',
  'other',
  'different',
  'whatever',
  'no',
]);

/** Words whose immediate doubling is usually deliberate emphasis or grammar, not a stumble. */
export const REPETITION_EXEMPT: ReadonlySet<string> = new Set([
  'very',
  'really',
  'so',
  'no',
  'yes',
  'yeah',
  'ok',
  'okay',
  'ha',
  'haha',
  'bye',
  'that',
  'had',
  'more',
  'much',
  'many',
  'far',
  'long',
  'again',
  'over',
  'blah',
]);

const WEAK_WORDS = WEAK_PHRASES.map((p) => p.split(' ')).sort((a, b) => b.length - a.length);
const PAUSE_CHARS = new Set([',', '.', '!', '?', ';', ':', '-', '\u2013', '\u2014', '\u2026', '']);
const OPENING_BREAK_CHARS = new Set([',', ';', ':', '-', '\u2013', '\u2014', '\u2026']);
const MIN_PHRASE_REPEATS = 3;
const MIN_STARTER_REPEATS = 2;

interface Occurrence {
  item: string;
  sentence: ParticipantSentence;
  start: number;
  end: number;
}

interface SentenceScan {
  sentence: ParticipantSentence;
  /** Tokens already counted as a filler or weak word. */
  used: boolean[];
}

/**
 * Computes filler words, weak words, repetitions and sentence starters over the participant's
 * (`user`) turns. `durationSeconds` is the meeting length, used to time the participant's last turn
 * and as the per-minute denominator when the participant's speaking time is unknown.
 */
export function computeSpeechAnalytics(turns: TranscriptTurn[], durationSeconds: number): SpeechAnalytics {
  const sentences = participantSentences(turns);
  const scans: SentenceScan[] = sentences.map((sentence) => ({
    sentence,
    used: sentence.tokens.map(() => false),
  }));

  const weak: Occurrence[] = [];
  const fillers: Occurrence[] = [];
  for (const scan of scans) {
    weak.push(...scanWeakWords(scan));
    fillers.push(...scanFillers(scan));
  }
  const repetitions = [...scanImmediateRepetitions(scans), ...scanRepeatedPhrases(scans)];
  const starters = scanSentenceStarters(sentences);

  const wordCount = sentences.reduce((sum, s) => sum + s.tokens.length, 0);
  const input = participantInput(sentences);
  const speakingMinutes = round2(participantSpeakingSeconds(turns, durationSeconds) / 60);
  // Rates are per minute of speech: typed sentences have none, so they are left out of the rate
  // (still counted in `total`), and a meeting where the participant only typed has no rate.
  const minutes =
    speakingMinutes > 0
      ? speakingMinutes
      : input === 'voice' && durationSeconds > 0
        ? durationSeconds / 60
        : 0;
  const rateMinutes = input === 'typed' ? null : minutes;

  return {
    filler_words: buildMetric(fillers, rateMinutes, 1),
    weak_words: buildMetric(weak, rateMinutes, 1),
    repetitions: buildMetric(repetitions, rateMinutes, 1),
    sentence_starters: buildMetric(starters, rateMinutes, MIN_STARTER_REPEATS),
    participant_word_count: wordCount,
    participant_speaking_minutes: speakingMinutes,
    participant_input: input,
  };
}

/** How the participant's sentences came in; sentences of unknown input count as voice. */
export function participantInput(sentences: ParticipantSentence[]): SpeechAnalytics['participant_input'] {
  if (sentences.length === 0) return 'none';
  const typed = sentences.filter((s) => s.input === 'typed').length;
  if (typed === 0) return 'voice';
  return typed === sentences.length ? 'typed' : 'mixed';
}

/**
 * Seconds the participant spent speaking; typed sentences take none. A spoken sentence with a
 * reported end lasts from its start to its end; the other spoken words of a turn last until the
 * next turn starts (the meeting end for the last turn). Both are capped at the slowest plausible
 * pace so silences are not counted; when the span is unknown or not positive, the words are timed
 * at a typical pace.
 */
export function participantSpeakingSeconds(turns: TranscriptTurn[], durationSeconds: number): number {
  const sorted = sortTurns(turns);
  let seconds = 0;
  sorted.forEach((turn, index) => {
    if (turn.speaker !== 'user') return;
    let untimedWords = 0;
    for (const part of turnParts(turn)) {
      if (part.input === 'typed') continue;
      const words = tokenize(part.message).length;
      const sentence = turn.sentences?.find((s) => s.id === part.sentenceId);
      const end = sentence?.endSeconds ?? null;
      if (end !== null && end > part.startSeconds) {
        seconds += Math.min(end - part.startSeconds, words * SLOWEST_SECONDS_PER_WORD);
      } else {
        untimedWords += words;
      }
    }
    if (untimedWords === 0) return;
    const next = index + 1 < sorted.length ? sorted[index + 1].startSeconds : durationSeconds;
    const span = next - turn.startSeconds;
    seconds +=
      Number.isFinite(span) && span > 0
        ? Math.min(span, untimedWords * SLOWEST_SECONDS_PER_WORD)
        : untimedWords * TYPICAL_SECONDS_PER_WORD;
  });
  return seconds;
}

function scanWeakWords(scan: SentenceScan): Occurrence[] {
  const { tokens } = scan.sentence;
  const out: Occurrence[] = [];
  for (let i = 0; i < tokens.length; ) {
    const phrase = WEAK_WORDS.find((words) => words.every((w, k) => tokens[i + k]?.norm === w));
    if (!phrase) {
      i++;
      continue;
    }
    const text = phrase.join(' ');
    if ((text === 'kind of' || text === 'sort of') && i > 0 && KIND_OF_DETERMINERS.has(tokens[i - 1].norm)) {
      i += phrase.length;
      continue;
    }
    for (let k = 0; k < phrase.length; k++) scan.used[i + k] = true;
    out.push(occurrence(text, scan.sentence, tokens[i], tokens[i + phrase.length - 1]));
    i += phrase.length;
  }
  return out;
}

function scanFillers(scan: SentenceScan): Occurrence[] {
  const { sentence, used } = scan;
  const { tokens, text } = sentence;
  const out: Occurrence[] = [];
  // Sentence-initial means the first word after any leading hesitation sounds ("Um, so …").
  let initial = 0;
  while (initial < tokens.length && interjection(tokens[initial].norm)) initial++;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const token = tokens[i];
    const following = tokens[i + 1];
    const after = nextChar(text, token.end);
    let item: string | null = interjection(token.norm);
    let length = 1;
    let extra = 0;
    if (item === null) {
      if (
        following &&
        !used[i + 1] &&
        ((token.norm === 'you' && following.norm === 'know') ||
          (token.norm === 'i' && following.norm === 'mean')) &&
        PAUSE_CHARS.has(nextChar(text, following.end))
      ) {
        item = `${token.norm} ${following.norm}`;
        length = 2;
      } else if (token.norm === 'like' && (i === initial || after === ',')) {
        item = 'like';
      } else if (ALWAYS_FILLERS.includes(token.norm)) {
        item = token.norm;
      } else if ((token.norm === 'so' || token.norm === 'well') && i === initial) {
        item = token.norm;
      } else if (token.norm === 'right' && text[token.end] === '?') {
        item = 'right?';
        extra = 1;
      }
    }
    if (item === null) continue;
    for (let k = 0; k < length; k++) used[i + k] = true;
    const last = tokens[i + length - 1];
    out.push({ item, sentence, start: token.start, end: last.end + extra });
    i += length - 1;
  }
  return out;
}

/**
 * Stumbles: a word said twice in a row ("the the", "I, I") or a two-word unit said twice in a row
 * ("I was, I was"). A longer run ("the the the") counts once.
 */
function scanImmediateRepetitions(scans: SentenceScan[]): Occurrence[] {
  const out: Occurrence[] = [];
  for (const { sentence } of scans) {
    const { tokens } = sentence;
    const w = tokens.map((t) => t.norm);
    let i = 0;
    while (i < w.length) {
      if (
        i + 3 < w.length &&
        w[i] !== w[i + 1] &&
        w[i] === w[i + 2] &&
        w[i + 1] === w[i + 3] &&
        !(REPETITION_EXEMPT.has(w[i]) && REPETITION_EXEMPT.has(w[i + 1]))
      ) {
        out.push(occurrence(`${w[i]} ${w[i + 1]} ${w[i]} ${w[i + 1]}`, sentence, tokens[i], tokens[i + 3]));
        let last = i + 2;
        while (last + 3 < w.length && w[last] === w[last + 2] && w[last + 1] === w[last + 3]) last += 2;
        i = last + 2;
        continue;
      }
      if (i + 1 < w.length && w[i] === w[i + 1] && !REPETITION_EXEMPT.has(w[i]) && !interjection(w[i])) {
        out.push(occurrence(`${w[i]} ${w[i]}`, sentence, tokens[i], tokens[i + 1]));
        let last = i + 1;
        while (last + 1 < w.length && w[last + 1] === w[i]) last++;
        i = last + 1;
        continue;
      }
      i++;
    }
  }
  return out;
}

/**
 * Phrases of 2 to 4 words said at least 3 times. Longer phrases are claimed first and each word
 * counts toward at most one phrase, so "the payment service" said three times is reported once,
 * not also as "payment service". Phrases made only of stop words, phrases containing a word already
 * counted as a filler or weak word, and phrases containing a stumble ("the the") are skipped.
 */
function scanRepeatedPhrases(scans: SentenceScan[]): Occurrence[] {
  const grams = new Map<string, { s: number; t: number }[]>();
  for (let n = 4; n >= 2; n--) {
    scans.forEach(({ sentence, used }, s) => {
      const { tokens } = sentence;
      for (let t = 0; t + n <= tokens.length; t++) {
        const window = tokens.slice(t, t + n);
        if (window.some((_, k) => used[t + k])) continue;
        if (window.every((w) => isStopWord(w.norm))) continue;
        if (window.some((w, k) => k > 0 && w.norm === window[k - 1].norm)) continue;
        const key = window.map((w) => w.norm).join(' ');
        const list = grams.get(key) ?? [];
        list.push({ s, t });
        grams.set(key, list);
      }
    });
  }
  const claimed = new Set<string>();
  const out: Occurrence[] = [];
  const candidates = [...grams]
    .filter(([, list]) => list.length >= MIN_PHRASE_REPEATS)
    .map(([key, list]) => ({ key, list, n: key.split(' ').length }))
    .sort((a, b) => b.n - a.n || b.list.length - a.list.length || compareText(a.key, b.key));
  for (const { key, list, n } of candidates) {
    const accepted: { s: number; t: number }[] = [];
    for (const position of list) {
      const previous = accepted[accepted.length - 1];
      if (previous && previous.s === position.s && position.t < previous.t + n) continue;
      let free = true;
      for (let k = 0; k < n && free; k++) free = !claimed.has(`${position.s}:${position.t + k}`);
      if (free) accepted.push(position);
    }
    if (accepted.length < MIN_PHRASE_REPEATS) continue;
    for (const { s, t } of accepted) {
      for (let k = 0; k < n; k++) claimed.add(`${s}:${t + k}`);
      const { sentence } = scans[s];
      out.push(occurrence(key, sentence, sentence.tokens[t], sentence.tokens[t + n - 1]));
    }
  }
  return out;
}

/**
 * The opening of each sentence: its first two words, or only the first word when the sentence has
 * one word or the first word is followed by a comma, colon, semicolon or dash ("So, …", "Um, …").
 */
function scanSentenceStarters(sentences: ParticipantSentence[]): Occurrence[] {
  const out: Occurrence[] = [];
  for (const sentence of sentences) {
    const [first, second] = sentence.tokens;
    if (!first) continue;
    const single = !second || OPENING_BREAK_CHARS.has(nextChar(sentence.text, first.end));
    const last = single ? first : second;
    out.push(occurrence(single ? first.norm : `${first.norm} ${second.norm}`, sentence, first, last));
  }
  return out;
}

function occurrence(item: string, sentence: ParticipantSentence, first: Token, last: Token): Occurrence {
  return { item, sentence, start: first.start, end: last.end };
}

/** `minutes` null: no rate (typed only). Otherwise the rate counts spoken occurrences only. */
function buildMetric(occurrences: Occurrence[], minutes: number | null, minCount: number): SpeechMetric {
  const byItem = new Map<string, Occurrence[]>();
  for (const occ of occurrences) {
    const list = byItem.get(occ.item) ?? [];
    list.push(occ);
    byItem.set(occ.item, list);
  }
  const ranked = [...byItem]
    .filter(([, list]) => list.length >= minCount)
    .map(([text, list]) => ({ text, list: list.sort(byPosition) }))
    .sort((a, b) => b.list.length - a.list.length || compareText(a.text, b.text));
  const total = ranked.reduce((sum, r) => sum + r.list.length, 0);
  const spoken = ranked.reduce(
    (sum, r) => sum + r.list.filter((occ) => occ.sentence.input !== 'typed').length,
    0,
  );

  // Examples: first occurrence of each top item, then second occurrences, … up to 3 distinct.
  const examples: string[] = [];
  const longest = Math.max(0, ...ranked.map((r) => r.list.length));
  for (let round = 0; round < longest && examples.length < 3; round++) {
    for (const { list } of ranked) {
      const occ = list[round];
      if (!occ) continue;
      const text = snippet(occ.sentence.text, occ.start, occ.end);
      if (!examples.includes(text)) examples.push(text);
      if (examples.length === 3) break;
    }
  }

  return {
    total,
    per_minute: minutes === null ? null : minutes > 0 ? round2(spoken / minutes) : 0,
    items: ranked.map((r) => ({ text: r.text, count: r.list.length })),
    examples,
  };
}

function byPosition(a: Occurrence, b: Occurrence): number {
  return a.sentence.index - b.sentence.index || a.start - b.start;
}
