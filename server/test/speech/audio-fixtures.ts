// Real audio for the speech tests and the voice benchmark: sentences spoken by the embedded Flite
// voices, silence and noise, all PCM s16le mono 16 kHz like the room's microphone stream.
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import { INPUT_SAMPLE_RATE, type SpeechSynthesizer } from '../../src/platform/speech/types.ts';
import type { FliteVoice } from '../../src/platform/speech/voices.ts';
import { resamplePcm } from '../../src/platform/speech/wav.ts';

// Through the worker-thread synthesiser, not flite-wasi.ts directly: a pending in-thread
// WebAssembly.instantiate does not keep Node's event loop alive, so a test could end mid-await.
// The idle worker is unreferenced and does not hold the test process open.
let synthesizer: SpeechSynthesizer | null = null;

/** A sentence as the participant's microphone would send it. */
export async function spokenPcm(text: string, voice: FliteVoice = 'rms'): Promise<Buffer> {
  synthesizer ??= createFliteSynthesizer();
  const audio = await synthesizer.synthesize(text, {
    ttsVoice: voice,
    gender: null,
    voiceId: null,
    language: 'en-US',
  });
  return resamplePcm(audio.pcm, audio.sampleRate, INPUT_SAMPLE_RATE);
}

export function silencePcm(ms: number): Buffer {
  return Buffer.alloc(Math.round((INPUT_SAMPLE_RATE * ms) / 1000) * 2);
}

/** Deterministic white noise (a fan, a hiss) at `amplitude` of full scale. */
export function noisePcm(ms: number, amplitude: number, seed = 1): Buffer {
  const samples = Math.round((INPUT_SAMPLE_RATE * ms) / 1000);
  const out = Buffer.alloc(samples * 2);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < samples; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out.writeInt16LE(Math.round(((state >>> 0) / 0xffffffff - 0.5) * 2 * amplitude * 32767), i * 2);
  }
  return out;
}

/** Splits PCM into chunks like the room's 20–100 ms binary frames. */
export function chunksOf(pcm: Buffer, ms: number): Buffer[] {
  const size = Math.round((INPUT_SAMPLE_RATE * ms) / 1000) * 2;
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < pcm.length; offset += size) chunks.push(pcm.subarray(offset, offset + size));
  return chunks;
}
