// Test kit for voice over the realtime protocol: a recogniser that follows a script (the barge-in
// policy needs deterministic interim text), a synthesiser whose audio lasts a fixed time per word,
// and a microphone that streams PCM as binary frames.
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  RecognitionStream,
  SpeechRecognizer,
  SpeechSynthesizer,
  SynthesizedAudio,
} from '../../src/platform/speech/types.ts';
import { chunksOf } from '../speech/audio-fixtures.ts';
import type { Participant } from './helpers.ts';

export interface RecognitionScript {
  /** `[ms of audio heard, interim text]`, each emitted once that much audio has been written. */
  interims?: Array<[number, string]>;
  final: string;
}

export interface ScriptedRecognizer extends SpeechRecognizer {
  /** Streams opened so far, with the audio each was given. */
  streams: Array<{ bytes: number; finished: boolean; cancelled: boolean }>;
}

/** Each utterance gets the next script entry (the last one repeats). */
export function scriptedRecognizer(scripts: RecognitionScript[]): ScriptedRecognizer {
  const streams: ScriptedRecognizer['streams'] = [];
  return {
    engine: 'pocketsphinx',
    label: 'scripted (test)',
    streams,
    start(): RecognitionStream {
      const script = scripts[Math.min(streams.length, scripts.length - 1)]!;
      const state = { bytes: 0, finished: false, cancelled: false };
      streams.push(state);
      const pending = [...(script.interims ?? [])];
      const listeners: Array<(text: string) => void> = [];
      return {
        write(pcm) {
          state.bytes += pcm.length;
          while (pending.length > 0 && state.bytes / 32 >= pending[0]![0]) {
            const [, text] = pending.shift()!;
            for (const listener of listeners) listener(text);
          }
        },
        onInterim(listener) {
          listeners.push(listener);
        },
        async finish() {
          state.finished = true;
          await sleep(5);
          return { text: script.final };
        },
        cancel() {
          state.cancelled = true;
        },
      };
    },
    async close() {},
  };
}

/** Audio of `msPerWord` per word (a quiet tone), so a test controls how long the persona speaks. */
export function wordTimedSynthesizer(msPerWord: number, sampleRate = 16_000): SpeechSynthesizer {
  return {
    engine: 'flite',
    label: 'word-timed (test)',
    async synthesize(text): Promise<SynthesizedAudio> {
      const samples = Math.round((text.split(/\s+/).length * msPerWord * sampleRate) / 1000);
      const pcm = Buffer.alloc(samples * 2);
      for (let i = 0; i < samples; i += 1) pcm.writeInt16LE(Math.round(1000 * Math.sin(i / 10)), i * 2);
      return { pcm, sampleRate };
    },
    async close() {},
  };
}

/** Streams PCM as binary frames of `chunkMs`, in real time when `paced` (else as fast as it goes). */
export async function streamAudio(
  participant: Participant,
  pcm: Buffer,
  options: { chunkMs?: number; paced?: boolean } = {},
): Promise<void> {
  const chunkMs = options.chunkMs ?? 40;
  for (const chunk of chunksOf(pcm, chunkMs)) {
    participant.socket.send(chunk, { binary: true });
    if (options.paced) await sleep(chunkMs);
  }
}
