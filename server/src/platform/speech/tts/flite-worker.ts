// Worker thread of the Flite synthesiser (flite.ts): the WASI run is synchronous and takes up to
// ~170 ms a sentence, which must not stall the event loop that carries every room's audio.
import { parentPort } from 'node:worker_threads';
import { compileFlite, type FliteVoice, synthesizeWithFlite } from './flite-wasi.ts';

export interface FliteRequest {
  id: number;
  text: string;
  voice: FliteVoice;
}

export type FliteReply =
  /** The module is compiled (or failed to: each sentence then reports why); sentences are timed from here. */
  | { ready: true }
  | { id: number; ok: true; pcm: ArrayBuffer; sampleRate: number; elapsedMs: number }
  | { id: number; ok: false; message: string };

if (!parentPort) throw new Error('flite-worker.ts runs as a worker thread');
const port = parentPort;

// Compiling is the worker's start-up (0.3–1.2 s), not part of any sentence's time budget.
compileFlite().then(
  () => port.postMessage({ ready: true } satisfies FliteReply),
  () => port.postMessage({ ready: true } satisfies FliteReply),
);

port.on('message', async (request: FliteRequest) => {
  const started = performance.now();
  try {
    const audio = await synthesizeWithFlite(request.text, request.voice);
    // A copy in an ArrayBuffer of its own (a Buffer may sit in a shared pool), transferred, not cloned.
    const pcm = new Uint8Array(audio.pcm).buffer;
    const reply: FliteReply = {
      id: request.id,
      ok: true,
      pcm,
      sampleRate: audio.sampleRate,
      elapsedMs: performance.now() - started,
    };
    port.postMessage(reply, [pcm]);
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, message: (error as Error).message } satisfies FliteReply);
  }
});
