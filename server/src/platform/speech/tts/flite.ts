// The embedded text-to-speech engine: Flite compiled to WASI (run by wasi-shim.ts), in one worker thread started on
// the first sentence. Sentences are synthesised one at a time in arrival order; the queue lives
// here (not in the worker's message port) so an aborted sentence that has not started is dropped.
import { Worker } from 'node:worker_threads';
import { abortedError, SpeechEngineError } from '../errors.ts';
import type { SpeechSynthesizer, SynthesizedAudio, VoiceChoice } from '../types.ts';
import type { FliteVoice } from '../voices.ts';
import { fliteVoiceFor } from '../voices.ts';
import type { FliteReply, FliteRequest } from './flite-worker.ts';

export const FLITE_LABEL = 'Flite (embedded)';

/** Flite reads text aloud as written; a runaway reply should not hold the worker for seconds. */
const MAX_TEXT_CHARS = 2000;

interface Job {
  request: FliteRequest;
  signal?: AbortSignal;
  resolve(audio: SynthesizedAudio): void;
  reject(error: Error): void;
}

export function createFliteSynthesizer(): SpeechSynthesizer {
  let worker: Worker | null = null;
  let running: Job | null = null;
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function startWorker(): Worker {
    const started = new Worker(new URL('./flite-worker-entry.mjs', import.meta.url));
    started.on('message', (reply: FliteReply) => {
      const job = running;
      if (!job || job.request.id !== reply.id) return;
      running = null;
      if (reply.ok) job.resolve({ pcm: Buffer.from(reply.pcm), sampleRate: reply.sampleRate });
      else job.reject(new SpeechEngineError('engine_failed', `Flite failed: ${reply.message}`));
      next();
    });
    const onDeath = (error?: Error) => {
      if (worker !== started) return;
      worker = null;
      const job = running;
      running = null;
      job?.reject(
        new SpeechEngineError('engine_failed', `Flite worker stopped: ${error?.message ?? 'exited'}`, null, {
          cause: error,
        }),
      );
      // The queue goes on with a fresh worker.
      next();
    };
    started.on('error', onDeath);
    started.on('exit', () => onDeath());
    return started;
  }

  function next(): void {
    if (running || closed) return;
    let job = queue.shift();
    while (job?.signal?.aborted) job = queue.shift();
    if (!job) {
      // Idle: an idle worker must not keep the process alive.
      worker?.unref();
      return;
    }
    worker ??= startWorker();
    worker.ref();
    running = job;
    worker.postMessage(job.request);
  }

  return {
    engine: 'flite',
    label: FLITE_LABEL,

    synthesize(text: string, voice: VoiceChoice, signal?: AbortSignal): Promise<SynthesizedAudio> {
      if (closed) return Promise.reject(new SpeechEngineError('closed', 'Flite synthesiser is closed'));
      if (signal?.aborted) return Promise.reject(abortedError(signal));
      if (!/[\p{L}\p{N}]/u.test(text)) return Promise.resolve({ pcm: Buffer.alloc(0), sampleRate: 16_000 });
      return synthesizeQueued(text.slice(0, MAX_TEXT_CHARS), fliteVoiceFor(voice), signal);
    },

    async close(): Promise<void> {
      closed = true;
      const error = new SpeechEngineError('closed', 'Flite synthesiser is closed');
      for (const job of queue.splice(0)) job.reject(error);
      running?.reject(error);
      running = null;
      const stopping = worker;
      worker = null;
      await stopping?.terminate();
    },
  };

  function synthesizeQueued(
    text: string,
    voice: FliteVoice,
    signal?: AbortSignal,
  ): Promise<SynthesizedAudio> {
    return new Promise<SynthesizedAudio>((resolve, reject) => {
      let settled = false;
      const onAbort = () => settle(() => reject(abortedError(signal!)));
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        action();
      };
      // An abort settles at once; a sentence already in the worker finishes there and is discarded.
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push({
        request: { id: nextId++, text, voice },
        signal,
        resolve: (audio) => settle(() => resolve(audio)),
        reject: (error) => settle(() => reject(error)),
      });
      next();
    });
  }
}
