// End-of-speech detection in the service: cuts the participant's microphone stream into
// utterances with the WebRTC voice-activity detector (@echogarden/fvad-wasm). The browser sends
// raw audio; deciding here keeps every client (and a program speaking the protocol) equal.
import { INPUT_SAMPLE_RATE } from './types.ts';

export type SegmentEvent =
  /** Speech began; offset from the stream's first sample, pre-roll included. */
  | { type: 'start'; offsetMs: number }
  /** Speech audio to feed the recogniser (the pre-roll first). */
  | { type: 'audio'; pcm: Buffer }
  /**
   * The utterance is over. `offsetMs` is where the speech itself ended (the end of its last voiced
   * frame); the event is emitted `endSilenceMs` of silence later.
   */
  | { type: 'end'; offsetMs: number };

export interface SegmenterOptions {
  /** Silence that ends an utterance (VOICE_END_SILENCE_MS). */
  endSilenceMs?: number;
  /** An utterance is cut here even if the voice goes on (noise that never stops, a monologue). */
  maxSegmentMs?: number;
}

const FRAME_MS = 20;
const FRAME_SAMPLES = (INPUT_SAMPLE_RATE * FRAME_MS) / 1000;
const FRAME_BYTES = FRAME_SAMPLES * 2;
/** Voiced frames in a row before speech counts as started: a click or a knock is one or two. */
const START_FRAMES = 3;
/** Audio kept from before the detected start, so the first phoneme reaches the recogniser. */
const PRE_ROLL_FRAMES = 300 / FRAME_MS;
/** WebRTC VAD's most aggressive mode: fewest false "speech" verdicts on fans and keyboards. */
const VAD_MODE = 3;
/**
 * The WebRTC VAD calls steady noise (a fan, hiss, hum) speech for seconds, so a frame must also be
 * this much louder than the noise floor. The floor drops at once to a quieter frame and rises
 * slowly (time constant FLOOR_RISE_FRAMES), so the gaps between words keep it down while speaking.
 */
const NOISE_MARGIN_DB = 6;
const FLOOR_RISE_FRAMES = 100;

interface FvadModule {
  HEAPU8: Uint8Array;
  _fvad_new(): number;
  _fvad_free(handle: number): void;
  _fvad_set_mode(handle: number, mode: number): number;
  _fvad_set_sample_rate(handle: number, rate: number): number;
  _fvad_process(handle: number, frame: number, samples: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

/**
 * `load` run once and its promise shared, except that a rejected promise is forgotten: a failure
 * (a WASM file missing or unreadable for a moment) must not disable voice until the next restart.
 */
export function loadOnceUnlessFailed<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };
}

/** The WASM module is instantiated once per process; each segmenter gets its own detector state. */
const loadFvad = loadOnceUnlessFailed(() =>
  import('@echogarden/fvad-wasm').then((imported) => imported.default() as Promise<FvadModule>),
);

export class SpeechSegmenter {
  /** Milliseconds of voiced audio in the current utterance (0 between utterances). */
  speechMs = 0;

  readonly #vad: FvadModule;
  readonly #handle: number;
  readonly #frame: number;
  readonly #endSilenceFrames: number;
  readonly #maxSegmentFrames: number;
  #pending: Buffer = Buffer.alloc(0);
  /** Frames processed since the stream began. */
  #frameIndex = 0;
  #preRoll: Buffer[] = [];
  #voicedRun = 0;
  #speaking = false;
  #segmentFrames = 0;
  #silentRun = 0;
  #lastVoicedEnd = 0;
  #noiseFloorDb: number | null = null;
  #disposed = false;

  private constructor(vad: FvadModule, options: SegmenterOptions) {
    this.#vad = vad;
    this.#handle = vad._fvad_new();
    if (!this.#handle) throw new Error('fvad_new failed');
    if (
      vad._fvad_set_mode(this.#handle, VAD_MODE) !== 0 ||
      vad._fvad_set_sample_rate(this.#handle, INPUT_SAMPLE_RATE) !== 0
    ) {
      vad._fvad_free(this.#handle);
      throw new Error('fvad rejected its configuration');
    }
    this.#frame = vad._malloc(FRAME_BYTES);
    this.#endSilenceFrames = Math.max(1, Math.round((options.endSilenceMs ?? 600) / FRAME_MS));
    this.#maxSegmentFrames = Math.round((options.maxSegmentMs ?? 30_000) / FRAME_MS);
  }

  static async create(options: SegmenterOptions = {}): Promise<SpeechSegmenter> {
    return new SpeechSegmenter(await loadFvad(), options);
  }

  /** PCM s16le mono 16 kHz, any length (odd trailing bytes wait for the next push). */
  push(pcm: Buffer): SegmentEvent[] {
    if (this.#disposed) return [];
    const bytes = this.#pending.length > 0 ? Buffer.concat([this.#pending, pcm]) : pcm;
    const events: SegmentEvent[] = [];
    const speech: Buffer[] = [];
    let offset = 0;
    for (; offset + FRAME_BYTES <= bytes.length; offset += FRAME_BYTES) {
      this.#processFrame(bytes.subarray(offset, offset + FRAME_BYTES), events, speech);
    }
    this.#pending = Buffer.from(bytes.subarray(offset));
    flushSpeech(events, speech);
    return events;
  }

  /** The stream ended (muted, disconnected): an utterance in progress ends here. */
  flush(): SegmentEvent[] {
    const events: SegmentEvent[] = [];
    if (this.#speaking) {
      if (this.#pending.length >= 2) events.push({ type: 'audio', pcm: this.#pending });
      events.push({ type: 'end', offsetMs: this.#lastVoicedEnd });
    }
    this.#pending = Buffer.alloc(0);
    this.#resetSegment();
    this.#preRoll = [];
    this.#voicedRun = 0;
    return events;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#vad._free(this.#frame);
    this.#vad._fvad_free(this.#handle);
  }

  #isVoiced(frame: Buffer): boolean {
    // HEAPU8 is re-read every time: the WASM memory may grow and replace the view.
    this.#vad.HEAPU8.set(frame, this.#frame);
    const vadSaysSpeech = this.#vad._fvad_process(this.#handle, this.#frame, FRAME_SAMPLES) === 1;
    const energy = energyDb(frame);
    const floor = this.#noiseFloorDb ?? energy;
    this.#noiseFloorDb = energy < floor ? energy : floor + (energy - floor) / FLOOR_RISE_FRAMES;
    return vadSaysSpeech && energy >= floor + NOISE_MARGIN_DB;
  }

  #processFrame(frame: Buffer, events: SegmentEvent[], speech: Buffer[]): void {
    const voiced = this.#isVoiced(frame);
    const index = this.#frameIndex++;
    if (!this.#speaking) {
      this.#preRoll.push(Buffer.from(frame));
      if (this.#preRoll.length > PRE_ROLL_FRAMES) this.#preRoll.shift();
      this.#voicedRun = voiced ? this.#voicedRun + 1 : 0;
      if (this.#voicedRun < START_FRAMES) return;
      this.#speaking = true;
      this.#segmentFrames = this.#preRoll.length;
      this.speechMs = this.#voicedRun * FRAME_MS;
      this.#lastVoicedEnd = (index + 1) * FRAME_MS;
      events.push({ type: 'start', offsetMs: (index + 1 - this.#preRoll.length) * FRAME_MS });
      speech.push(...this.#preRoll);
      this.#preRoll = [];
      this.#voicedRun = 0;
      return;
    }
    speech.push(Buffer.from(frame));
    this.#segmentFrames++;
    if (voiced) {
      this.speechMs += FRAME_MS;
      this.#silentRun = 0;
      this.#lastVoicedEnd = (index + 1) * FRAME_MS;
    } else {
      this.#silentRun++;
    }
    if (this.#silentRun >= this.#endSilenceFrames || this.#segmentFrames >= this.#maxSegmentFrames) {
      flushSpeech(events, speech);
      events.push({ type: 'end', offsetMs: this.#lastVoicedEnd });
      this.#resetSegment();
    }
  }

  #resetSegment(): void {
    this.#speaking = false;
    this.#segmentFrames = 0;
    this.#silentRun = 0;
    this.speechMs = 0;
  }
}

/** Mean power of one frame in dB relative to full scale (digital silence ≈ -100). */
function energyDb(frame: Buffer): number {
  let sum = 0;
  for (let at = 0; at < frame.length; at += 2) {
    const sample = frame.readInt16LE(at) / 32768;
    sum += sample * sample;
  }
  return 10 * Math.log10(sum / (frame.length / 2) + 1e-10);
}

/** Speech frames of one push go out as one 'audio' event (before any 'end'). */
function flushSpeech(events: SegmentEvent[], speech: Buffer[]): void {
  if (speech.length === 0) return;
  events.push({ type: 'audio', pcm: Buffer.concat(speech) });
  speech.length = 0;
}
