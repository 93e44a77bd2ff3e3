// AudioWorklet processor (runs on the audio rendering thread, module loaded by capture.js): turns
// the microphone into what the service's recogniser takes (docs/realtime.md, "Voice"): PCM
// s16le, mono, 16 kHz, posted in chunks of ~40 ms together with the AudioContext time of the
// chunk's first sample. `sampleRate` and `currentTime` are globals of the worklet scope.

const TARGET_RATE = 16000;
/** Below the 8 kHz Nyquist limit of 16 kHz audio, with room for the filter's slope. */
const CUTOFF_HZ = 7000;
/** Q of the two sections of a 4th-order Butterworth low-pass. */
const BUTTERWORTH_Q = [0.5412, 1.3066];

/** RBJ cookbook low-pass biquad, direct form I. */
function lowPass(rate, cutoff, q) {
  const w0 = (2 * Math.PI * cutoff) / rate;
  const cos = Math.cos(w0);
  const alpha = Math.sin(w0) / (2 * q);
  const a0 = 1 + alpha;
  const b0 = (1 - cos) / 2 / a0;
  const b1 = (1 - cos) / a0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  return (x) => {
    const y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    return y;
  };
}

class PcmCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const chunkMs = options?.processorOptions?.chunkMs ?? 40;
    /** Input samples per output sample (3 at 48 kHz, 2.75625 at 44.1 kHz). */
    this.step = sampleRate / TARGET_RATE;
    // Without the low-pass, everything above 8 kHz would fold back into the speech band.
    this.filters = this.step > 1 ? BUTTERWORTH_Q.map((q) => lowPass(sampleRate, CUTOFF_HZ, q)) : [];
    this.chunkLength = Math.round((TARGET_RATE * chunkMs) / 1000);
    this.chunk = new Int16Array(this.chunkLength);
    this.filled = 0;
    this.chunkTime = 0;
    /** Where the next output sample falls, in input samples from the start of the next block. */
    this.position = 0;
    /** The last filtered sample of the previous block (interpolation across blocks). */
    this.last = 0;
    this.filtered = new Float32Array(128);
    this.running = true;
    this.port.onmessage = (event) => {
      if (event.data === 'stop') this.running = false;
    };
  }

  process(inputs) {
    if (!this.running) return false;
    const channel = inputs[0]?.[0];
    // No input yet (the source is connecting) or a muted, ended track: keep the node alive.
    if (!channel) return true;
    const n = channel.length;
    if (this.filtered.length < n) this.filtered = new Float32Array(n);
    const filtered = this.filtered;
    for (let i = 0; i < n; i += 1) {
      let sample = channel[i];
      for (const filter of this.filters) sample = filter(sample);
      filtered[i] = sample;
    }
    let position = this.position;
    while (position <= n - 1) {
      const index = Math.floor(position);
      const fraction = position - index;
      const a = index < 0 ? this.last : filtered[index];
      const b = index + 1 < n ? filtered[index + 1] : a;
      if (this.filled === 0) this.chunkTime = currentTime + position / sampleRate;
      const value = a + (b - a) * fraction;
      this.chunk[this.filled] = Math.max(-32768, Math.min(32767, Math.round(value * 32767)));
      this.filled += 1;
      if (this.filled === this.chunkLength) this.#post();
      position += this.step;
    }
    this.position = position - n;
    this.last = filtered[n - 1];
    return true;
  }

  #post() {
    const pcm = this.chunk.buffer;
    this.port.postMessage({ time: this.chunkTime, pcm }, [pcm]);
    this.chunk = new Int16Array(this.chunkLength);
    this.filled = 0;
  }
}

registerProcessor('pcm-capture', PcmCapture);
