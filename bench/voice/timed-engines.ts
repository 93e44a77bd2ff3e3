// How bench/voice learns the engines' compute time without touching the protocol or the live
// module: the benchmark's server hands the platform its speech engines wrapped in these
// decorators (the same injection point tests use), which note how long each recognition took to
// finish once the audio had ended and how long each sentence took to synthesise. The benchmark
// subtracts these from the latency its client measures; what remains is the platform's own share.
import { performance } from 'node:perf_hooks';
import type {
  RecognitionStream,
  SpeechEngines,
  SpeechRecognizer,
  SpeechSynthesizer,
} from '../../server/src/platform/speech/types.ts';

/**
 * `recognition`: finish() called (the utterance's audio has ended) → the final text.
 * `synthesis`: synthesize() called → the audio returned.
 * `startedAt`/`endedAt` are wall-clock instants (wallNow) for splitting what lies between them.
 */
export interface EngineTiming {
  kind: 'recognition' | 'synthesis';
  text: string;
  ms: number;
  startedAt: number;
  endedAt: number;
}

export class EngineTimings {
  readonly entries: EngineTiming[] = [];

  /** Takes the entries noted so far (the server answers them once). */
  drain(): EngineTiming[] {
    return this.entries.splice(0, this.entries.length);
  }
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
export const wallNow = () => performance.timeOrigin + performance.now();

export function timeEngines(engines: SpeechEngines, timings: EngineTimings): SpeechEngines {
  return {
    recognizer: engines.recognizer ? timeRecognizer(engines.recognizer, timings) : null,
    synthesizer: engines.synthesizer ? timeSynthesizer(engines.synthesizer, timings) : null,
  };
}

function timeRecognizer(inner: SpeechRecognizer, timings: EngineTimings): SpeechRecognizer {
  return {
    engine: inner.engine,
    label: inner.label,
    close: () => inner.close(),
    start(options): RecognitionStream {
      const stream = inner.start(options);
      return {
        write: (pcm) => stream.write(pcm),
        onInterim: (listener) => stream.onInterim(listener),
        cancel: () => stream.cancel(),
        async finish() {
          const startedAt = wallNow();
          const result = await stream.finish();
          const endedAt = wallNow();
          timings.entries.push({
            kind: 'recognition',
            text: result.text,
            ms: endedAt - startedAt,
            startedAt,
            endedAt,
          });
          return result;
        },
      };
    },
  };
}

function timeSynthesizer(inner: SpeechSynthesizer, timings: EngineTimings): SpeechSynthesizer {
  return {
    engine: inner.engine,
    label: inner.label,
    close: () => inner.close(),
    async synthesize(text, voice, signal) {
      const startedAt = wallNow();
      const audio = await inner.synthesize(text, voice, signal);
      const endedAt = wallNow();
      timings.entries.push({ kind: 'synthesis', text, ms: endedAt - startedAt, startedAt, endedAt });
      return audio;
    },
  };
}
