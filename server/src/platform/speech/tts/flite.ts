// The embedded text-to-speech engine: Flite compiled to WASI (run by wasi-shim.ts), in one worker thread started on
// the first sentence. Sentences are synthesised one at a time in arrival order; the queue lives
// here (not in the worker's message port) so an aborted sentence that has not started is dropped.
// A run cannot be interrupted inside the worker, so a stuck one is timed out here and its worker
// terminated.
import { Worker } from 'node:worker_threads';
import { abortedError, SpeechEngineError } from '../errors.ts';
import type { SpeechSynthesizer, SynthesizedAudio, VoiceChoice } from '../types.ts';
import type { FliteVoice } from '../voices.ts';
import { fliteVoiceFor } from '../voices.ts';
import type { FliteReply, FliteRequest } from './flite-worker.ts';

export const FLITE_LABEL = 'Flite (embedded)';

/** Flite reads text aloud as written; a runaway reply should not hold the worker for seconds. */
const MAX_TEXT_CHARS = 2000;
/** A sentence takes 20–170 ms (the longest allowed text ~1 s): this long means Flite is stuck. */
const DEFAULT_SENTENCE_TIMEOUT_MS = 15_000;
/** Starting the worker compiles the 21 MB module (0.3–1.2 s); this long means it never will. */
const WORKER_START_TIMEOUT_MS = 60_000;

export interface FliteOptions {
  /**
   * A sentence not synthesised within this (once the worker is ready) is failed, and the worker
   * — stuck in a synchronous WASM run that cannot be interrupted — is terminated; the next
   * sentence starts a fresh one. Default 15 s.
   */
  sentenceTimeoutMs?: number;
}

interface Job {
  request: FliteRequest;
  signal?: AbortSignal;
  resolve(audio: SynthesizedAudio): void;
  reject(error: Error): void;
}

interface FliteWorker {
  thread: Worker;
  /** The module is compiled: jobs can be timed from now on. */
  ready: boolean;
  /** The running job's deadline (or the start-up's). */
  deadline: NodeJS.Timeout | undefined;
}

/** Compiled (dist/), the worker module runs as it is; from source, its entry registers tsx first. */
const WORKER_MODULE = import.meta.url.endsWith('.ts') ? './flite-worker-entry.mjs' : './flite-worker.js';

export function createFliteSynthesizer(options: FliteOptions = {}): SpeechSynthesizer {
  const sentenceTimeoutMs = options.sentenceTimeoutMs ?? DEFAULT_SENTENCE_TIMEOUT_MS;
  let worker: FliteWorker | null = null;
  let running: Job | null = null;
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function startWorker(): FliteWorker {
    const started: FliteWorker = {
      thread: new Worker(new URL(WORKER_MODULE, import.meta.url)),
      ready: false,
      deadline: undefined,
    };
    started.deadline = setTimeout(
      () => stuck(started, `the worker did not start within ${WORKER_START_TIMEOUT_MS / 1000} s`),
      WORKER_START_TIMEOUT_MS,
    );
    started.thread.on('message', (reply: FliteReply) => {
      if (worker !== started) return;
      if ('ready' in reply) {
        clearTimeout(started.deadline);
        started.ready = true;
        if (running) dispatch(started, running);
        return;
      }
      const job = running;
      if (!job || job.request.id !== reply.id) return;
      clearTimeout(started.deadline);
      running = null;
      if (reply.ok) job.resolve({ pcm: Buffer.from(reply.pcm), sampleRate: reply.sampleRate });
      else job.reject(new SpeechEngineError('engine_failed', `Flite failed: ${reply.message}`));
      next();
    });
    const onDeath = (error?: Error) => {
      if (worker !== started) return;
      clearTimeout(started.deadline);
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
    started.thread.on('error', onDeath);
    started.thread.on('exit', () => onDeath());
    return started;
  }

  function dispatch(target: FliteWorker, job: Job): void {
    target.deadline = setTimeout(
      () => stuck(target, `no audio within ${sentenceTimeoutMs} ms`),
      sentenceTimeoutMs,
    );
    target.thread.postMessage(job.request);
  }

  /** The worker is wedged: its sentence fails, it is terminated, the queue goes on with a new one. */
  function stuck(target: FliteWorker, reason: string): void {
    if (worker !== target) return;
    worker = null;
    const job = running;
    running = null;
    job?.reject(new SpeechEngineError('timeout', `Flite: ${reason}`));
    void target.thread.terminate();
    next();
  }

  function next(): void {
    if (running || closed) return;
    let job = queue.shift();
    while (job?.signal?.aborted) job = queue.shift();
    if (!job) {
      // Idle: an idle worker must not keep the process alive.
      worker?.thread.unref();
      return;
    }
    worker ??= startWorker();
    worker.thread.ref();
    running = job;
    // A worker still compiling takes the job once it says it is ready.
    if (worker.ready) dispatch(worker, job);
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
      clearTimeout(stopping?.deadline);
      await stopping?.thread.terminate();
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
