// The PocketSphinx sidecar process (pocketsphinx_worker.py) and its wire format: length-prefixed
// binary frames in, JSON lines out. One process serves every recognition stream of the service;
// when it dies, the streams it held fail and the next stream starts a new one.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { SpeechEngineError } from '../errors.ts';

export const SIDECAR_SCRIPT = fileURLToPath(new URL('./pocketsphinx_worker.py', import.meta.url));

export const FrameKind = { open: 1, audio: 2, finish: 3, cancel: 4 } as const;

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
  logger: Logger;
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
  #exited = false;
  #onExit: () => void;
  #stderrTail = '';

  constructor(options: SidecarOptions, onExit: () => void) {
    this.#onExit = onExit;
    this.#child = spawn(options.python, [SIDECAR_SCRIPT, options.modelDir, String(options.maxDecoders)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONUNBUFFERED: '1' },
    });
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
        options.logger.debug({ ms: Math.round(performance.now() - started) }, 'pocketsphinx sidecar ready');
        return;
      }
      const handlers = this.#streams.get(message.id);
      if (!handlers) return;
      if (message.type === 'interim') handlers.interim(message.text);
      else {
        this.#streams.delete(message.id);
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

  /** Registers the stream and tells the sidecar to open it. */
  open(id: number, handlers: StreamHandlers): void {
    this.#streams.set(id, handlers);
    this.send(FrameKind.open, id);
    this.#updateRef();
  }

  /** Forgets the stream here (its further messages are dropped) and tells the sidecar. */
  cancel(id: number): void {
    if (this.#streams.delete(id)) this.send(FrameKind.cancel, id);
    this.#updateRef();
  }

  send(kind: number, id: number, payload?: Buffer): void {
    if (this.#exited) return;
    const header = Buffer.alloc(9);
    header.writeUInt32BE(5 + (payload?.length ?? 0), 0);
    header.writeUInt8(kind, 4);
    header.writeUInt32BE(id, 5);
    this.#child.stdin.write(payload ? Buffer.concat([header, payload]) : header);
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

  #died(reason: string): void {
    if (this.#exited) return;
    this.#exited = true;
    const streams = [...this.#streams.values()];
    this.#streams.clear();
    for (const handlers of streams) {
      handlers.error(new SpeechEngineError('engine_failed', `PocketSphinx sidecar ${reason}`));
    }
    this.#onExit();
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
