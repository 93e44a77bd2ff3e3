// RNNoise (@echogarden/rnnoise-wasm: xiph's recurrent noise suppressor compiled to WASM, its model
// built in, nothing downloaded) on the participant's 16 kHz microphone stream. For every 20 ms it
// gives the network's probability that a voice is present — it has learnt what fans, hiss, traffic
// and keyboards sound like, where the WebRTC VAD calls most steady noise "speech" — and the audio
// with the noise suppressed. RNNoise works at 48 kHz in 10 ms frames: each 20 ms frame is
// upsampled ×3 (linear interpolation; nothing above 8 kHz is invented) and run as two frames.
import { loadOnceUnlessFailed } from './load-once.ts';
import { INPUT_SAMPLE_RATE } from './types.ts';

/** 20 ms at 16 kHz, the segmenter's frame. */
export const RNNOISE_INPUT_SAMPLES = (INPUT_SAMPLE_RATE * 20) / 1000;
const RATE_FACTOR = 3;
/** RNNoise's own frame: 10 ms at 48 kHz. */
const NATIVE_SAMPLES = 480;
const NATIVE_BYTES = NATIVE_SAMPLES * 4;
const HALF = RNNOISE_INPUT_SAMPLES / 2;

interface RNNoiseModule {
  HEAPF32: Float32Array;
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

/** The WASM module is instantiated once per process; each stream gets its own network state. */
export const loadRNNoise = loadOnceUnlessFailed(() =>
  import('@echogarden/rnnoise-wasm').then((imported) => imported.default() as Promise<RNNoiseModule>),
);

export interface RNNoiseResult {
  /** The network's voice probability for the frame (the larger of its two 10 ms halves), 0–1. */
  voice: number;
  /** The frame with the noise suppressed (PCM s16le, same length; RNNoise delays it by 10 ms). */
  denoised: Buffer;
}

/** One stream's RNNoise state (about 18 KB of WASM memory); `dispose()` frees it. */
export class RNNoiseStream {
  readonly #module: RNNoiseModule;
  readonly #state: number;
  readonly #input: number;
  readonly #output: number;
  readonly #upsampled = new Float32Array(NATIVE_SAMPLES);
  #previous = 0;
  #disposed = false;

  constructor(module: RNNoiseModule) {
    this.#module = module;
    this.#state = module._rnnoise_create(0);
    if (!this.#state) throw new Error('rnnoise_create failed');
    this.#input = module._malloc(NATIVE_BYTES);
    this.#output = module._malloc(NATIVE_BYTES);
  }

  static async create(): Promise<RNNoiseStream> {
    return new RNNoiseStream(await loadRNNoise());
  }

  /** One 20 ms frame (RNNOISE_INPUT_SAMPLES samples of PCM s16le). */
  process(frame: Buffer): RNNoiseResult {
    const denoised = Buffer.alloc(frame.length);
    let voice = 0;
    if (this.#disposed) return { voice, denoised };
    for (let half = 0; half < 2; half++) {
      const up = this.#upsampled;
      for (let i = 0; i < HALF; i++) {
        const sample = frame.readInt16LE((half * HALF + i) * 2);
        const step = (sample - this.#previous) / RATE_FACTOR;
        up[i * RATE_FACTOR] = this.#previous + step;
        up[i * RATE_FACTOR + 1] = this.#previous + 2 * step;
        up[i * RATE_FACTOR + 2] = sample;
        this.#previous = sample;
      }
      // HEAPF32 is re-read every time: the WASM memory may grow and replace the view.
      this.#module.HEAPF32.set(up, this.#input / 4);
      voice = Math.max(voice, this.#module._rnnoise_process_frame(this.#state, this.#output, this.#input));
      const out = this.#module.HEAPF32.subarray(this.#output / 4, this.#output / 4 + NATIVE_SAMPLES);
      for (let i = 0; i < HALF; i++) {
        // The sample at 3i+2 is the original one; its neighbours average the images away.
        const value = (out[i * RATE_FACTOR]! + out[i * RATE_FACTOR + 1]! + out[i * RATE_FACTOR + 2]!) / 3;
        denoised.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), (half * HALF + i) * 2);
      }
    }
    return { voice, denoised };
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#module._free(this.#input);
    this.#module._free(this.#output);
    this.#module._rnnoise_destroy(this.#state);
  }
}
