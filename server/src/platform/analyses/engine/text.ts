// Text helpers shared by the analysis modules: sentence splitting, tokenising, stop words, stemming
// (the Porter stemmer of the `stemmer` package) and verbatim snippets. Everything here is
// deterministic and locale-independent.

import { stemmer } from 'stemmer';
import type { InputMode, TranscriptTurn, WordStat } from './types.ts';

export interface Token {
  /** The token as written. */
  text: string;
  /** Lower-cased, with typographic apostrophes folded to `'`. */
  norm: string;
  /** Offsets into the sentence text. */
  start: number;
  end: number;
}

export interface Sentence {
  text: string;
  tokens: Token[];
}

export interface ParticipantSentence extends Sentence {
  /** Position among all participant sentences, in speaking order. */
  index: number;
  /** Index of the turn in the (time-ordered) participant turn list. */
  turn: number;
  startSeconds: number;
  speaker: 'user' | 'agent';
  /** Id of the stored transcript sentence it comes from, when known. */
  sentenceId: number | null;
  /** How it came in; null when unknown (counted as voice). */
  input: InputMode | null;
}

// Abbreviations whose trailing period does not end a sentence.
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'mr', 'mrs', 'ms', 'dr', 'approx', 'cf']);

/** Folds typographic apostrophes and quotes to ASCII. Keeps string length (offsets stay valid). */
export function normalizeQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/**
 * Splits text into sentences at `.`, `!`, `?` or `…` followed by whitespace or the end, and at line
 * breaks. A period after a known abbreviation (e.g., i.e., etc., vs., Mr., Dr.) does not split.
 */
export function splitSentences(input: string): string[] {
  const text = normalizeQuotes(input);
  const out: string[] = [];
  const push = (piece: string) => {
    const trimmed = piece.trim();
    if (/[\p{L}\p{N}]/u.test(trimmed)) out.push(trimmed);
  };
  let start = 0;
  for (const m of text.matchAll(/[.!?\u2026]+["')\]]*(?=\s|$)|\n+/g)) {
    const index = m.index ?? 0;
    if (m[0].startsWith('.') && m[0].length === 1) {
      const before = /([\p{L}.]+)$/u.exec(text.slice(start, index));
      if (before && ABBREVIATIONS.has(before[1].toLowerCase())) continue;
    }
    push(text.slice(start, index + m[0].length));
    start = index + m[0].length;
  }
  push(text.slice(start));
  return out;
}

const TOKEN_RE = /[\p{L}\p{N}]+(?:['.-][\p{L}\p{N}]+)*/gu;

/** Words of a text: letters/digits, keeping inner apostrophes, hyphens and dots (`don't`, `node.js`). */
export function tokenize(input: string): Token[] {
  const text = normalizeQuotes(input);
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const start = m.index ?? 0;
    tokens.push({ text: m[0], norm: m[0].toLowerCase(), start, end: start + m[0].length });
  }
  return tokens;
}

export function toSentence(text: string): Sentence {
  return { text, tokens: tokenize(text) };
}

/** The first non-space character after `offset`, or `''` at the end of the text. */
export function nextChar(text: string, offset: number): string {
  const m = /\S/.exec(text.slice(offset));
  return m ? m[0] : '';
}

/** Participant turns in time order (stable for equal start times). */
export function participantTurns(turns: TranscriptTurn[]): TranscriptTurn[] {
  return sortTurns(turns).filter((t) => t.speaker === 'user');
}

export function sortTurns(turns: TranscriptTurn[]): TranscriptTurn[] {
  return turns
    .map((turn, i) => ({ turn, i }))
    .sort((a, b) => a.turn.startSeconds - b.turn.startSeconds || a.i - b.i)
    .map((x) => x.turn);
}

/** The pieces of a turn as stored: its transcript sentences, or the whole message when unknown. */
export function turnParts(
  turn: TranscriptTurn,
): Array<{ message: string; sentenceId: number | null; input: InputMode | null; startSeconds: number }> {
  if (turn.sentences && turn.sentences.length > 0) {
    return turn.sentences.map((s) => ({
      message: s.message,
      sentenceId: s.id,
      input: s.input,
      startSeconds: s.startSeconds,
    }));
  }
  return [{ message: turn.message, sentenceId: null, input: null, startSeconds: turn.startSeconds }];
}

/** Sentences of the turns of one speaker, each stored sentence split further at sentence ends. */
export function speakerSentences(turns: TranscriptTurn[], speaker: 'user' | 'agent'): ParticipantSentence[] {
  const out: ParticipantSentence[] = [];
  sortTurns(turns)
    .filter((t) => t.speaker === speaker)
    .forEach((turn, index) => {
      for (const part of turnParts(turn)) {
        for (const text of splitSentences(part.message)) {
          out.push({
            ...toSentence(text),
            index: out.length,
            turn: index,
            startSeconds: turn.startSeconds,
            speaker,
            sentenceId: part.sentenceId,
            input: part.input,
          });
        }
      }
    });
  return out;
}

export function participantSentences(turns: TranscriptTurn[]): ParticipantSentence[] {
  return speakerSentences(turns, 'user');
}

/**
 * A short verbatim window of `text` around `[start, end)`: the whole text when it is at most `max`
 * characters, otherwise a window cut at word boundaries with `…` marking each cut.
 */
export function snippet(text: string, start = 0, end = start, max = 90): string {
  const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return collapse(text);
  const room = max - Math.min(Math.max(0, end - start), max);
  let from = Math.max(0, start - Math.floor(room / 3));
  let to = Math.min(text.length, from + max);
  from = Math.max(0, to - max);
  const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}'-]/u.test(c);
  if (from > 0 && isWordChar(text[from - 1])) {
    const space = text.indexOf(' ', from);
    if (space !== -1 && space < Math.max(start, from + 1)) from = space + 1;
  }
  if (to < text.length && isWordChar(text[to])) {
    const space = text.lastIndexOf(' ', to);
    if (space > Math.max(end, from)) to = space;
  }
  const piece = collapse(text.slice(from, to)).replace(/[\s,;:]+$/, '');
  return `${from > 0 ? '…' : ''}${piece}${to < text.length ? '…' : ''}`;
}

/** Rounds to 2 decimals. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

// English function words plus common spoken-language fillers. Used to drop words that carry no
// topic when extracting keywords and when judging whether a repeated phrase is meaningful.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't
down during each either else even ever every few for from further get gets getting got had hadn't has
hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's
however i i'd i'll i'm i've if in into is isn't it it's its itself just let's me might more most much
must mustn't my myself no nor not now of off on once one only or other ought our ours ourselves out
over own quite rather really same shall shan't she she'd she'll she's should shouldn't so some such
than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've this those through to too under until up upon us very was wasn't we we'd we'll we're
we've were weren't what what's when when's where where's whether which while who who's whom why
why's will with won't would wouldn't yet you you'd you'll you're you've your yours yourself
yourselves yeah yes okay ok oh um umm uh uhh er erm ah hmm like know think mean thing things lot
kind sort bit little actually basically literally maybe probably perhaps may go going gonna wanna
got make also well right sure guess stuff thanks thank please hello hi hey bye good great`
    .split(/\s+/)
    .filter(Boolean),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The Porter stem of a word (`asked`/`asking`/`asks` → `ask`, `questions` → `question`,
 * `communication`/`communicate` → `commun`), applied identically to goal text and transcript.
 * A possessive `'s` is dropped first; words with digits are kept as they are.
 */
export function stem(input: string): string {
  const w = input.toLowerCase().replace(/'s$/, '');
  if (w.length <= 3 || /\d/.test(w)) return w;
  return stemmer(w);
}

/** Most frequent content words (not stop words, at least 4 letters, no digits) across texts. */
export function topContentWords(texts: string[], limit: number, minCount = 2): WordStat[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const token of tokenize(text)) {
      if (token.norm.length < 4 || /\d/.test(token.norm) || isStopWord(token.norm)) continue;
      counts.set(token.norm, (counts.get(token.norm) ?? 0) + 1);
    }
  }
  return [...counts]
    .filter(([, count]) => count >= minCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([word, count]) => ({ word, count }));
}

/** Deterministic, locale-independent string comparison. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
