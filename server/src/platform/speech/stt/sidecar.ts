// The PocketSphinx sidecar process (pocketsphinx_worker.py) and its wire format: length-prefixed
// binary frames in, JSON lines out. One process serves every recognition stream of the service;
// when it dies, the streams it held fail and the next stream starts a new one (pocketsphinx.ts
// decides when). A stream whose audio piles up unread (a sidecar that cannot keep up) fails rather
// than buffering without bound; the child gets only the environment Python needs, never the
// service's secrets.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { sourcePath } from '../../../core/paths.ts';
import { SpeechEngineError } from '../errors.ts';
import type { RecognitionContext } from '../types.ts';

export const SIDECAR_SCRIPT = sourcePath('platform', 'speech', 'stt', 'pocketsphinx_worker.py');

export const FrameKind = { open: 1, audio: 2, finish: 3, cancel: 4, context: 5 } as const;

export interface StreamHandlers {
  interim(text: string): void;
  final(text: string): void;
  error(error: SpeechEngineError): void;
}

export interface SidecarOptions {
  python: string;
  modelDir: string;
  /** Decoders loaded at most at once (~90 MB each); further streams wait their turn. */
  maxDecoders: number;
  /**
   * Audio of one stream allowed to wait unprocessed, in ms: written but not yet taken by the
   * sidecar (here), or taken but waiting for a decoder (in the sidecar). More fails the stream.
   */
  maxQueuedMs: number;
  logger: Logger;
}

/** How the sidecar ended: `ready` is false when it died before it had loaded its first decoder. */
export interface SidecarExit {
  ready: boolean;
  reason: string;
}

/** PCM s16le mono 16 kHz. */
const BYTES_PER_MS = 32;
/** Scenario language models the sidecar keeps built (a few hundred KB each, on disk). */
const CONTEXTS_KEPT = 32;

/**
 * The child's environment: what Python needs to start and find its modules, nothing else. The
 * service's own environment holds the database URL, API keys and the encryption key.
 */
export function sidecarEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (name === 'PATH' || name === 'HOME' || name === 'LANG' || name.startsWith('PYTHON'))
      kept[name] = value;
  }
  return { ...kept, PYTHONUNBUFFERED: '1' };
}

type SidecarMessage =
  | { type: 'ready' }
  | { type: 'interim'; id: number; text: string }
  | { type: 'final'; id: number; text: string }
  | { type: 'error'; id: number; message: string };

export class Sidecar {
  readonly pid: number | undefined;
  #child: ChildProcessWithoutNullStreams;
  #streams = new Map<number, StreamHandlers>();
  /**
   * Keys of the scenario texts the process holds, least recently used first: it keeps
   * CONTEXTS_KEPT and drops in this same order, so a text is sent again exactly when it was dropped.
   */
  #contextsSent = new Set<string>();
  /** Per stream: audio bytes handed to stdin whose write has not completed yet. */
  #unwritten = new Map<number, number>();
  readonly #maxQueuedMs: number;
  #ready = false;
  #exited = false;
  #onExit: (exit: SidecarExit) => void;
  #stderrTail = '';

  constructor(options: SidecarOptions, onExit: (exit: SidecarExit) => void) {
    this.#onExit = onExit;
    this.#maxQueuedMs = options.maxQueuedMs;
    this.#child = spawn(
      options.python,
      [
        SIDECAR_SCRIPT,
        options.modelDir,
        String(options.maxDecoders),
        String(options.maxQueuedMs * BYTES_PER_MS),
        String(CONTEXTS_KEPT),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], env: sidecarEnvironment() },
    );
    this.pid = this.#child.pid;
    const started = performance.now();
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      let message: SidecarMessage;
      try {
        message = JSON.parse(line) as SidecarMessage;
      } catch {
        options.logger.warn(
          { line: line.slice(0, 200) },
          'pocketsphinx sidecar wrote a line that is not JSON',
        );
        return;
      }
      if (message.type === 'ready') {
        this.#ready = true;
        options.logger.debug({ ms: Math.round(performance.now() - started) }, 'pocketsphinx sidecar ready');
        return;
      }
      const handlers = this.#streams.get(message.id);
      if (!handlers) return;
      if (message.type === 'interim') handlers.interim(message.text);
      else {
        this.#forget(message.id);
        if (message.type === 'final') handlers.final(message.text);
        else handlers.error(new SpeechEngineError('engine_failed', `PocketSphinx: ${message.message}`));
        this.#updateRef();
      }
    });
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-2000);
    });
    // A write after the process died fails with EPIPE; the exit handler reports it to the streams.
    this.#child.stdin.on('error', () => {});
    this.#child.on('error', (error) => this.#died(`could not start: ${error.message}`));
    this.#child.on('exit', (code, signal) => {
      const tail = this.#stderrTail.trim().split('\n').slice(-3).join(' | ');
      this.#died(`exited (${signal ?? `code ${code}`})${tail ? `: ${tail}` : ''}`);
      if (code !== 0 || this.#streams.size > 0)
        options.logger.warn({ code, signal, stderr: tail }, 'pocketsphinx sidecar stopped');
    });
    this.#updateRef();
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /**
   * Registers the stream and tells the sidecar to open it, in its meeting's context when it has
   * one: the scenario's text goes to this sidecar once, keyed by its hash.
   */
  open(id: number, handlers: StreamHandlers, context?: RecognitionContext): void {
    this.#streams.set(id, handlers);
    if (!context) {
      this.send(FrameKind.open, id);
    } else {
      const key = createHash('sha256').update(context.vocabulary).digest('hex').slice(0, 24);
      if (this.#contextsSent.delete(key)) {
        this.#contextsSent.add(key);
      } else {
        this.#contextsSent.add(key);
        this.send(FrameKind.context, 0, Buffer.from(JSON.stringify({ key, text: context.vocabulary })));
        if (this.#contextsSent.size > CONTEXTS_KEPT) {
          this.#contextsSent.delete(this.#contextsSent.values().next().value as string);
        }
      }
      this.send(
        FrameKind.open,
        id,
        Buffer.from(JSON.stringify({ meeting: context.meetingId, context: key })),
      );
    }
    this.#updateRef();
  }

  /** Forgets the stream here (its further messages are dropped) and tells the sidecar. */
  cancel(id: number): void {
    if (this.#forget(id)) this.send(FrameKind.cancel, id);
    this.#updateRef();
  }

  /**
   * Audio for one stream. The microphone cannot be paused, so stdin's backpressure is met by a
   * bound instead: when more than maxQueuedMs of this stream's audio is still waiting to be
   * written, the sidecar is not keeping up, and the stream fails (its finish rejects) rather than
   * growing the service's memory and answering long after the moment.
   */
  audio(id: number, pcm: Buffer): void {
    const handlers = this.#streams.get(id);
    if (!handlers || this.#exited) return;
    const unwritten = (this.#unwritten.get(id) ?? 0) + pcm.length;
    if (unwritten > this.#maxQueuedMs * BYTES_PER_MS) {
      this.cancel(id);
      handlers.error(
        new SpeechEngineError(
          'engine_failed',
          `PocketSphinx fell more than ${this.#maxQueuedMs / 1000} s behind; the utterance was dropped`,
        ),
      );
      return;
    }
    this.#unwritten.set(id, unwritten);
    this.send(FrameKind.audio, id, pcm, () => {
      const left = this.#unwritten.get(id);
      if (left !== undefined) this.#unwritten.set(id, left - pcm.length);
    });
  }

  send(kind: number, id: number, payload?: Buffer, written?: () => void): void {
    if (this.#exited) return;
    const header = Buffer.alloc(9);
    header.writeUInt32BE(5 + (payload?.length ?? 0), 0);
    header.writeUInt8(kind, 4);
    header.writeUInt32BE(id, 5);
    this.#child.stdin.write(payload ? Buffer.concat([header, payload]) : header, written);
  }

  kill(): Promise<void> {
    if (this.#exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.#child.once('exit', () => resolve());
      // An idle sidecar is unreferenced; without this the process could end before 'exit' arrives.
      this.#child.ref();
      this.#child.kill('SIGKILL');
    });
  }

  #forget(id: number): boolean {
    this.#unwritten.delete(id);
    return this.#streams.delete(id);
  }

  #died(reason: string): void {
    if (this.#exited) return;
    this.#exited = true;
    const streams = [...this.#streams.values()];
    this.#streams.clear();
    this.#unwritten.clear();
    for (const handlers of streams) {
      handlers.error(new SpeechEngineError('engine_failed', `PocketSphinx sidecar ${reason}`));
    }
    this.#onExit({ ready: this.#ready, reason });
  }

  /** An idle sidecar must not keep the service (or a test run) alive. */
  #updateRef(): void {
    if (this.#exited) return;
    const busy = this.#streams.size > 0;
    for (const handle of [this.#child, this.#child.stdin, this.#child.stdout, this.#child.stderr] as const) {
      const refable = handle as unknown as { ref?(): void; unref?(): void };
      if (busy) refable.ref?.();
      else refable.unref?.();
    }
  }
}
