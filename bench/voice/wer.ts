// The accuracy part of bench/voice: the offline recogniser (PocketSphinx, through the service's own
// adapter and sidecar) on the fixed sentences, each spoken by every Flite voice at run time and
// streamed in 100 ms chunks as the room would. Word error rate is counted over the whole set
// (total word edits / total reference words), per voice and overall.
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  createPocketSphinxRecognizer,
  DEFAULT_PYTHON,
  detectPocketSphinx,
} from '../../server/src/platform/speech/stt/pocketsphinx.ts';
import type { FliteVoice } from '../../server/src/platform/speech/tts/flite-wasi.ts';
import { INPUT_SAMPLE_RATE } from '../../server/src/platform/speech/types.ts';
import { normalizeWords, wordEditDistance } from '../../server/src/platform/speech/wer.ts';
import { chunksOf, spokenPcm } from '../../server/test/speech/audio-fixtures.ts';

export interface WerResult {
  voice: FliteVoice | 'all';
  sentences: number;
  words: number;
  edits: number;
  /** Sentences recognised word for word. */
  exact: number;
  /** Recognition time (finish() included) per second of speech. */
  realTimeFactor: number;
}

export interface Recognised {
  voice: FliteVoice;
  said: string;
  heard: string;
}

/** Null when PocketSphinx is not installed (the reason is printed by the caller). */
export async function measureWer(
  sentences: readonly string[],
  voices: readonly FliteVoice[],
): Promise<{ results: WerResult[]; misheard: Recognised[] } | { unavailable: string }> {
  const detection = await detectPocketSphinx(DEFAULT_PYTHON);
  if (!detection.available) return { unavailable: detection.reason };
  const recognizer = createPocketSphinxRecognizer({
    modelDir: detection.modelDir,
    logger: pino({ level: 'error' }),
  });
  const results: WerResult[] = [];
  const misheard: Recognised[] = [];
  const total = { words: 0, edits: 0, exact: 0, speechMs: 0, workMs: 0 };
  try {
    for (const voice of voices) {
      const row = { words: 0, edits: 0, exact: 0, speechMs: 0, workMs: 0 };
      for (const said of sentences) {
        const pcm = await spokenPcm(said, voice);
        const started = performance.now();
        const stream = recognizer.start({ language: 'en-US' });
        for (const chunk of chunksOf(pcm, 100)) stream.write(chunk);
        const { text: heard } = await stream.finish();
        row.workMs += performance.now() - started;
        row.speechMs += (pcm.length / 2 / INPUT_SAMPLE_RATE) * 1000;
        const reference = normalizeWords(said);
        const edits = wordEditDistance(reference, normalizeWords(heard));
        row.words += reference.length;
        row.edits += edits;
        if (edits === 0) row.exact += 1;
        else misheard.push({ voice, said, heard });
      }
      results.push(result(voice, sentences.length, row));
      for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += row[key];
    }
  } finally {
    await recognizer.close();
  }
  results.push(result('all', sentences.length * voices.length, total));
  return { results, misheard };
}

function result(
  voice: WerResult['voice'],
  sentences: number,
  row: { words: number; edits: number; exact: number; speechMs: number; workMs: number },
): WerResult {
  return {
    voice,
    sentences,
    words: row.words,
    edits: row.edits,
    exact: row.exact,
    realTimeFactor: row.workMs / row.speechMs,
  };
}
