// The sentences of the end-of-turn benchmark (bench/voice/turns.ts): the speech test set's
// participant sentences (server/test/speech/speech-set.ts), two in three with a natural pause put
// inside, as people make them while they think: after a comma, after "and", "so", "but" or
// "because", after a preposition, or after an "um" put there. The pause lasts 300–700 ms. Each
// sentence is spoken whole by a Flite voice and the silence inserted at the end of the word
// (server/test/speech/paused-speech.ts), so the voice before the pause has the melody of a sentence
// that goes on, not the fall of one that ends. Deterministic: the same set every run.
import type { FliteVoice } from '../../server/src/platform/speech/voices.ts';
import { pausedSpeech, timedSpeech } from '../../server/test/speech/paused-speech.ts';
import { SPEECH_SET } from '../../server/test/speech/speech-set.ts';

export interface TurnSentence {
  /** What is said (with the "um" when one was put in). */
  text: string;
  voice: FliteVoice;
  /** PCM s16le mono 16 kHz. */
  pcm: Buffer;
  /** Where the voice stops, ms from the start of `pcm`. */
  voiceEndMs: number;
  /** The inserted pause, ms from the start of `pcm`, and what it follows. */
  pause: { atMs: number; ms: number; after: string } | null;
}

const VOICES: readonly FliteVoice[] = ['rms', 'awb', 'slt', 'kal16'];
const CONJUNCTIONS = new Set(['and', 'so', 'but', 'because', 'or']);
const PREPOSITIONS = new Set(['to', 'of', 'in', 'on', 'at', 'for', 'with', 'from', 'about', 'by', 'into']);
/** Words kept on each side of a pause: it falls inside the sentence, not at its edges. */
const EDGE_WORDS = 2;
const MIN_PAUSE_MS = 300;
const MAX_PAUSE_MS = 700;

const bare = (word: string) => word.toLowerCase().replace(/[^a-z'-]/g, '');

/** Where to pause, by preference: a comma, a conjunction, a preposition (word count before it). */
function pausePoint(words: string[]): { words: number; after: string } | null {
  const inside = (index: number) => index + 1 >= EDGE_WORDS && words.length - index - 1 >= EDGE_WORDS;
  const find = (test: (word: string) => boolean, after: string) => {
    const index = words.findIndex((word, at) => inside(at) && test(word));
    return index < 0 ? null : { words: index + 1, after };
  };
  return (
    find((word) => word.endsWith(','), 'comma') ??
    find((word) => CONJUNCTIONS.has(bare(word)), 'conjunction') ??
    find((word) => PREPOSITIONS.has(bare(word)), 'preposition')
  );
}

/** Deterministic pseudo-random numbers in [0, 1) (a linear congruential generator). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Where the voice stops in `pcm` (the synthesiser ends with a short silence). */
function voiceEnd(pcm: Buffer): number {
  let at = pcm.length - 2;
  while (at > 0 && Math.abs(pcm.readInt16LE(at)) < 300) at -= 2;
  return Math.round(at / 32);
}

/** A sentence said without a pause. */
export async function spokenTurn(text: string, voice: FliteVoice): Promise<TurnSentence> {
  const { pcm } = await timedSpeech(text, voice);
  return { text, voice, pcm, voiceEndMs: voiceEnd(pcm), pause: null };
}

export async function turnSentences(limit = Number.POSITIVE_INFINITY): Promise<TurnSentence[]> {
  const next = random(29);
  const texts = SPEECH_SET.flatMap((meeting) => meeting.sentences.map((sentence) => sentence.text));
  const sentences: TurnSentence[] = [];
  let paused = 0;
  for (const [index, original] of texts.slice(0, limit).entries()) {
    const voice = VOICES[index % VOICES.length]!;
    let words = original.split(/\s+/);
    const point = index % 3 === 2 ? null : pausePoint(words);
    if (!point) {
      sentences.push(await spokenTurn(original, voice));
      continue;
    }
    paused += 1;
    let after = point.after;
    let before = point.words;
    // Every fourth pause follows an "um" said there ("…the projects, um, I delivered").
    if (paused % 4 === 0) {
      words = [...words.slice(0, before), 'um,', ...words.slice(before)];
      before += 1;
      after = `um (after a ${after})`;
    }
    const text = words.join(' ');
    const ms = Math.round(MIN_PAUSE_MS + next() * (MAX_PAUSE_MS - MIN_PAUSE_MS));
    const { pcm, pauseAtMs } = await pausedSpeech(text, before, ms, voice);
    sentences.push({
      text,
      voice,
      pcm,
      voiceEndMs: voiceEnd(pcm),
      pause: { atMs: pauseAtMs, ms, after: `${after} "${words[before - 1]}"` },
    });
  }
  return sentences;
}
