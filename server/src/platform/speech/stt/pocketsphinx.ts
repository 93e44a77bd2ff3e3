// The offline recogniser: Debian's PocketSphinx (python3-pocketsphinx + pocketsphinx-en-us) in one
// long-lived Python sidecar started on the first utterance (sidecar.ts). Needs no network and
// downloads nothing; US English only. Accuracy is modest (docs/speech.md).
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { SpeechEngineError } from '../errors.ts';
import type { Recognition, RecognitionContext, RecognitionStream, SpeechRecognizer } from '../types.ts';
import { FrameKind, Sidecar } from './sidecar.ts';

export const DEFAULT_PYTHON = '/usr/bin/python3';
export const POCKETSPHINX_LABEL = 'PocketSphinx (offline)';
export const POCKETSPHINX_INSTALL_HINT = 'apt-get install python3-pocketsphinx pocketsphinx-en-us';

export type PocketSphinxDetection =
  | { available: true; modelDir: string }
  | { available: false; reason: string };

const MODEL_FILES = ['en-us', 'en-us.lm.bin', 'cmudict-en-us.dict'];
const detections = new Map<string, Promise<PocketSphinxDetection>>();

/** Whether the binding and the US English model are installed; asked once per interpreter. */
export function detectPocketSphinx(python = DEFAULT_PYTHON): Promise<PocketSphinxDetection> {
  let detection = detections.get(python);
  if (!detection) {
    detection = probe(python);
    detections.set(python, detection);
  }
  return detection;
}

async function probe(python: string): Promise<PocketSphinxDetection> {
  const modelDir = await new Promise<string | Error>((resolve) => {
    execFile(
      python,
      ['-c', 'import pocketsphinx; print(pocketsphinx.get_model_path())'],
      { timeout: 10_000 },
      (error, stdout) => resolve(error ?? stdout.trim()),
    );
  });
  if (modelDir instanceof Error) {
    const missing = (modelDir as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      available: false,
      reason: missing ? `${python} not found` : `${python} cannot import pocketsphinx`,
    };
  }
  try {
    await Promise.all(MODEL_FILES.map((file) => access(join(modelDir, file))));
  } catch {
    return { available: false, reason: `the US English model is missing from ${modelDir}` };
  }
  return { available: true, modelDir };
}

export interface PocketSphinxOptions {
  modelDir: string;
  python?: string;
  logger: Logger;
  /** Decoders loaded at most at once in the sidecar (~90 MB each). Default 3. */
  maxDecoders?: number;
  /** A final that takes longer than this fails (a wedged sidecar). Default 30 s. */
  finishTimeoutMs?: number;
  /** Audio of one stream allowed to wait unprocessed before the stream fails. Default 30 s. */
  maxQueuedMs?: number;
  /**
   * After a sidecar dies before it is ready (python3 or the model broken), no new one is started
   * for this long (doubling on each further failure, up to a minute); streams meanwhile fail at
   * once. Default 5 s.
   */
  restartBackoffMs?: number;
}

const MAX_RESTART_BACKOFF_MS = 60_000;

export interface PocketSphinxRecognizer extends SpeechRecognizer {
  /** The sidecar's process id while it runs (diagnostics and tests). */
  readonly sidecarPid: number | null;
}

export function createPocketSphinxRecognizer(options: PocketSphinxOptions): PocketSphinxRecognizer {
  let sidecar: Sidecar | null = null;
  let closed = false;
  let nextId = 1;
  const finishTimeoutMs = options.finishTimeoutMs ?? 30_000;
  const firstBackoffMs = options.restartBackoffMs ?? 5_000;
  /** A sidecar that cannot even start is not respawned for every utterance (a spawn storm). */
  let backoffMs = 0;
  let noStartBefore = 0;
  let lastStartFailure = '';

  function running(): Sidecar | SpeechEngineError {
    if (sidecar?.alive) return sidecar;
    const now = performance.now();
    if (now < noStartBefore) {
      const seconds = Math.ceil((noStartBefore - now) / 1000);
      return new SpeechEngineError(
        'engine_failed',
        `PocketSphinx sidecar failed to start (${lastStartFailure}); next attempt in ${seconds} s`,
      );
    }
    const started: Sidecar = new Sidecar(
      {
        python: options.python ?? DEFAULT_PYTHON,
        modelDir: options.modelDir,
        maxDecoders: options.maxDecoders ?? 3,
        maxQueuedMs: options.maxQueuedMs ?? 30_000,
        logger: options.logger,
      },
      ({ ready, reason }) => {
        if (sidecar === started) sidecar = null;
        if (ready || closed) {
          backoffMs = 0;
          return;
        }
        backoffMs = backoffMs === 0 ? firstBackoffMs : Math.min(backoffMs * 2, MAX_RESTART_BACKOFF_MS);
        noStartBefore = performance.now() + backoffMs;
        lastStartFailure = reason;
        options.logger.warn({ reason, retry_in_ms: backoffMs }, 'pocketsphinx sidecar failed to start');
      },
    );
    sidecar = started;
    return started;
  }

  return {
    engine: 'pocketsphinx',
    label: POCKETSPHINX_LABEL,
    get sidecarPid() {
      return sidecar?.alive ? (sidecar.pid ?? null) : null;
    },

    start({ context }): RecognitionStream {
      if (closed) return failedStream(new SpeechEngineError('closed', 'PocketSphinx recogniser is closed'));
      const target = running();
      if (target instanceof SpeechEngineError) return failedStream(target);
      return openStream(target, nextId++, finishTimeoutMs, context);
    },

    async close() {
      closed = true;
      await sidecar?.kill();
      sidecar = null;
    },
  };
}

function openStream(
  sidecar: Sidecar,
  id: number,
  finishTimeoutMs: number,
  context: RecognitionContext | undefined,
): RecognitionStream {
  const listeners: Array<(text: string) => void> = [];
  let outcome: { text: string } | { error: SpeechEngineError } | null = null;
  let settle: ((result: Recognition) => void) | null = null;
  let fail: ((error: SpeechEngineError) => void) | null = null;
  let state: 'open' | 'finishing' | 'done' = 'open';

  sidecar.open(
    id,
    {
      interim(text) {
        if (state !== 'done') for (const listener of listeners) listener(text);
      },
      final(text) {
        outcome = { text };
        settle?.({ text });
      },
      error(error) {
        outcome = { error };
        fail?.(error);
      },
    },
    context,
  );

  return {
    write(pcm) {
      if (state === 'open' && !outcome && pcm.length > 0) sidecar.audio(id, pcm);
    },
    onInterim(listener) {
      listeners.push(listener);
    },
    finish() {
      if (state === 'done')
        return Promise.reject(new SpeechEngineError('closed', 'recognition was cancelled'));
      state = 'finishing';
      if (outcome) {
        state = 'done';
        return 'error' in outcome ? Promise.reject(outcome.error) : Promise.resolve({ text: outcome.text });
      }
      sidecar.send(FrameKind.finish, id);
      return new Promise<Recognition>((resolve, reject) => {
        const timer = setTimeout(() => {
          sidecar.cancel(id);
          reject(new SpeechEngineError('timeout', `PocketSphinx gave no final within ${finishTimeoutMs} ms`));
        }, finishTimeoutMs);
        timer.unref();
        settle = (result) => {
          clearTimeout(timer);
          state = 'done';
          resolve(result);
        };
        fail = (error) => {
          clearTimeout(timer);
          state = 'done';
          reject(error);
        };
      });
    },
    cancel() {
      if (state === 'done') return;
      sidecar.cancel(id);
      // A finish() still waiting settles rather than hanging for ever.
      fail?.(new SpeechEngineError('aborted', 'recognition was cancelled'));
      state = 'done';
    },
  };
}

/** A stream that fails on finish (an engine closed or not starting): the caller's usual error path. */
function failedStream(error: SpeechEngineError): RecognitionStream {
  return {
    write() {},
    onInterim() {},
    finish: () => Promise.reject(error),
    cancel() {},
  };
}
