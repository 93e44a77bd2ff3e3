// End-of-speech detection in the service: cuts the participant's microphone stream into
// utterances. The browser sends raw audio; deciding here keeps every client (and a program
// speaking the protocol) equal. Noise must never hold the floor (docs/speech.md, "End of speech"):
// a frame is voiced only when four independent models agree —
//   1. the WebRTC VAD (@echogarden/fvad-wasm): the spectrum could be a voice;
//   2. an adaptive noise floor: the frame is clearly louder than the quietest recent input;
//   3. RNNoise's voice probability (rnnoise.ts): a network that knows fans, hiss and keyboards;
//   4. syllabic modulation: speech dips between syllables and words several times a second, a
//      tone, a fan or a music bed does not — an utterance is announced only once its loudness has
//      dipped like speech, and stops counting as voice when it no longer does.
// Input that fails the last test, or never pauses, is declared noise: its level becomes the floor
// until it stops, so the same noise does not open utterance after utterance.
import { loadOnceUnlessFailed } from './load-once.ts';
import { RNNoiseStream } from './rnnoise.ts';
import { INPUT_SAMPLE_RATE } from './types.ts';

export { loadOnceUnlessFailed };

export type SegmentEvent =
  /** Speech began; offset from the stream's first sample, pre-roll included. */
  | { type: 'start'; offsetMs: number }
  /** Speech audio to feed the recogniser (the pre-roll first). */
  | { type: 'audio'; pcm: Buffer }
  /**
   * The utterance is over. `offsetMs` is where the speech itself ended (the end of its last voiced
   * frame); the event is emitted `endSilenceMs` of silence later. `noise`: the "utterance" went on
   * without a pause for `maxUnbrokenMs` and was declared noise: drop it, do not recognise it.
   */
  | { type: 'end'; offsetMs: number; noise?: true };

export interface SegmenterOptions {
  /** Silence that ends an utterance (VOICE_END_SILENCE_MS). */
  endSilenceMs?: number;
  /** An utterance is cut here even if the voice goes on (a monologue). */
  maxSegmentMs?: number;
  /**
   * An utterance whose voice has not paused (PAUSE_MS) for this long is declared noise (speech
   * pauses to breathe; music, an engine, a crowd do not).
   */
  maxUnbrokenMs?: number;
  /**
   * The recogniser gets RNNoise's noise-suppressed audio where that helps (default): for an
   * utterance that starts over a background RNNoise takes SUPPRESSION_HELPS_DB or more out of (a
   * fan, hiss, traffic, keyboards); over silence, a tone or music it gets the microphone's audio,
   * which suppression would only distort. `false`: always the microphone's. Detection uses both.
   */
  suppressNoise?: boolean;
}

const FRAME_MS = 20;
const FRAME_SAMPLES = (INPUT_SAMPLE_RATE * FRAME_MS) / 1000;
const FRAME_BYTES = FRAME_SAMPLES * 2;
/** Voiced frames in a row before speech may have started: a click or a knock is one or two. */
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
/** RNNoise's voice probability a frame needs (speech frames: mostly > 0.9; fans, keyboards: < 0.2). */
const VOICE_PROBABILITY = 0.5;
/**
 * Syllabic modulation. Speech's loudness dips between syllables and words: within a second of
 * speech, 10–60 % of the 20 ms frames are below half the mean amplitude of that second (still
 * 5–50 % with a fan or music 10 dB under it); a steady tone, a fan, hiss or a music bed: none.
 * A frame "dips" below DIP_RATIO of the window's mean amplitude; the window is the utterance's
 * last MODULATION_WINDOW frames (only its own frames: the silence before it does not count).
 */
const DIP_RATIO = 0.5;
const MODULATION_WINDOW = 50;
/** The window shows modulation with at least this many dips making this share of it. */
const MIN_DIPS = 3;
const MIN_DIP_SHARE = 0.1;
/**
 * A candidate utterance is announced (`start`) once it has shown modulation; one that has not
 * within this many frames (1 s) is noise. Speech shows it within a few syllables (≈ 0.2–0.5 s).
 */
const CONFIRM_FRAMES = 50;
/** Once announced, frames count as voice only while modulation was seen this recently (1.5 s). */
const MODULATION_MEMORY_FRAMES = 75;
/** A pause: this many frames without voice in a row (300 ms). */
const PAUSE_FRAMES = 15;
/**
 * Declared noise sets the floor to a high percentile (NOISE_PERCENTILE) of the rejected input's
 * loudness, plus NOISE_MARGIN_DB. That level follows the noise down, never up (it is at most the
 * same percentile of the last NOISE_HISTORY_FRAMES, 2 s), and is forgotten once the input stays
 * NOISE_GONE_DB under it for NOISE_GONE_FRAMES (the noise stopped).
 */
const NOISE_HISTORY_FRAMES = 100;
const NOISE_PERCENTILE = 0.9;
const NOISE_GONE_DB = 6;
const NOISE_GONE_FRAMES = 25;
/** Suppression helps where RNNoise removes this much of the background between utterances. */
const SUPPRESSION_HELPS_DB = 6;
/** A background quieter than this (dBFS) has nothing worth suppressing (digital silence: -100). */
const AUDIBLE_BACKGROUND_DB = -70;
/** Time constant (frames) of the background's power, raw and suppressed, between utterances. */
const BACKGROUND_FRAMES = 50;

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

/** The WASM module is instantiated once per process; each segmenter gets its own detector state. */
const loadFvad = loadOnceUnlessFailed(() =>
  import('@echogarden/fvad-wasm').then((imported) => imported.default() as Promise<FvadModule>),
);

/** Where the segmenter is: between utterances, in one not yet announced, or in an announced one. */
type State = 'idle' | 'candidate' | 'speaking';

export class SpeechSegmenter {
  /** Milliseconds of voiced audio in the current utterance (0 between utterances). */
  speechMs = 0;
  /**
   * Silence that ends the current utterance, read at every frame: the turn-end policy
   * (live/voice/turn-end.ts) changes it while the participant pauses. Starts at options.endSilenceMs.
   */
  endSilenceMs: number;

  readonly #vad: FvadModule;
  readonly #handle: number;
  readonly #frame: number;
  readonly #rnnoise: RNNoiseStream;
  readonly #maxSegmentFrames: number;
  readonly #maxUnbrokenFrames: number;
  readonly #suppressNoise: boolean;
  #pending: Buffer = Buffer.alloc(0);
  /** Frames processed since the stream began. */
  #frameIndex = 0;
  /** Frames before a candidate (pre-roll), then the candidate's own frames until it is announced. */
  #held: Array<{ raw: Buffer; denoised: Buffer }> = [];
  /**
   * RNNoise takes SUPPRESSION_HELPS_DB or more out of the background the utterance started over:
   * its modulation is judged on the suppressed audio, and the recogniser gets that (suppressNoise).
   */
  #suppressionHelps = false;
  /** Mean power of the background between utterances, as heard and after suppression. */
  #background = { raw: 0, denoised: 0 };
  #voicedRun = 0;
  #state: State = 'idle';
  #segmentFrames = 0;
  #silentRun = 0;
  /** Frames since the voice last paused (PAUSE_FRAMES without voice). */
  #unbrokenFrames = 0;
  #lastVoicedEnd = 0;
  /** Offset of the candidate's start, pre-roll included. */
  #candidateStart = 0;
  /** Voiced frames of the candidate/utterance (speechMs once announced). */
  #voicedFrames = 0;
  /** Amplitudes (RMS) of the utterance's own frames, the last MODULATION_WINDOW of them. */
  #amplitudes: number[] = [];
  /** Energies (dB) of the utterance's own frames, the last NOISE_HISTORY_FRAMES. */
  #energies: number[] = [];
  /** Frame index at which the utterance last showed modulation (-Infinity: never). */
  #modulatedAt = Number.NEGATIVE_INFINITY;
  #noiseFloorDb: number | null = null;
  /** Energies (dB) of the last NOISE_HISTORY_FRAMES frames. */
  #history: number[] = [];
  /** The level of input declared noise (dB), or null; frames must pass it by NOISE_MARGIN_DB. */
  #declaredNoiseDb: number | null = null;
  #quietRun = 0;
  #disposed = false;

  private constructor(vad: FvadModule, rnnoise: RNNoiseStream, options: SegmenterOptions) {
    this.#vad = vad;
    this.#rnnoise = rnnoise;
    this.#handle = vad._fvad_new();
    if (!this.#handle) {
      rnnoise.dispose();
      throw new Error('fvad_new failed');
    }
    if (
      vad._fvad_set_mode(this.#handle, VAD_MODE) !== 0 ||
      vad._fvad_set_sample_rate(this.#handle, INPUT_SAMPLE_RATE) !== 0
    ) {
      vad._fvad_free(this.#handle);
      rnnoise.dispose();
      throw new Error('fvad rejected its configuration');
    }
    this.#frame = vad._malloc(FRAME_BYTES);
    this.endSilenceMs = options.endSilenceMs ?? 600;
    this.#maxSegmentFrames = Math.round((options.maxSegmentMs ?? 30_000) / FRAME_MS);
    this.#maxUnbrokenFrames = Math.round((options.maxUnbrokenMs ?? 10_000) / FRAME_MS);
    this.#suppressNoise = options.suppressNoise ?? true;
  }

  static async create(options: SegmenterOptions = {}): Promise<SpeechSegmenter> {
    const [vad, rnnoise] = await Promise.all([loadFvad(), RNNoiseStream.create()]);
    return new SpeechSegmenter(vad, rnnoise, options);
  }

  /** Silence since the last voiced frame of the utterance in progress (0 while voiced or between). */
  get silenceMs(): number {
    return this.#state === 'speaking' ? this.#silentRun * FRAME_MS : 0;
  }

  /** The input is declared noise (a tone, a fan, music): its level is the floor until it stops. */
  get hearingNoise(): boolean {
    return this.#declaredNoiseDb !== null;
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
    if (this.#state === 'speaking') {
      if (this.#pending.length >= 2) events.push({ type: 'audio', pcm: this.#pending });
      events.push({ type: 'end', offsetMs: this.#lastVoicedEnd });
    }
    this.#pending = Buffer.alloc(0);
    this.#resetSegment();
    this.#voicedRun = 0;
    return events;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#vad._free(this.#frame);
    this.#vad._fvad_free(this.#handle);
    this.#rnnoise.dispose();
  }

  /** The frame's evidence: whether it may be voice, its energy and amplitude, what to pass on. */
  #analyse(frame: Buffer): {
    voiced: boolean;
    energy: number;
    amplitude: number;
    denoisedAmplitude: number;
    denoised: Buffer;
  } {
    // HEAPU8 is re-read every time: the WASM memory may grow and replace the view.
    this.#vad.HEAPU8.set(frame, this.#frame);
    const vadSaysSpeech = this.#vad._fvad_process(this.#handle, this.#frame, FRAME_SAMPLES) === 1;
    const { voice, denoised } = this.#rnnoise.process(frame);
    const power = meanPower(frame);
    const energy = 10 * Math.log10(power + 1e-10);
    const floor = this.#noiseFloorDb ?? energy;
    this.#noiseFloorDb = energy < floor ? energy : floor + (energy - floor) / FLOOR_RISE_FRAMES;
    pushBounded(this.#history, energy, NOISE_HISTORY_FRAMES);
    if (this.#declaredNoiseDb !== null) {
      this.#declaredNoiseDb = Math.min(this.#declaredNoiseDb, percentile(this.#history, NOISE_PERCENTILE));
      this.#quietRun = energy < this.#declaredNoiseDb - NOISE_GONE_DB ? this.#quietRun + 1 : 0;
      if (this.#quietRun >= NOISE_GONE_FRAMES) this.#declaredNoiseDb = null;
    }
    const gate = Math.max(floor, this.#declaredNoiseDb ?? Number.NEGATIVE_INFINITY) + NOISE_MARGIN_DB;
    return {
      voiced: vadSaysSpeech && voice >= VOICE_PROBABILITY && energy >= gate,
      energy,
      amplitude: Math.sqrt(power),
      denoisedAmplitude: Math.sqrt(meanPower(denoised)),
      denoised,
    };
  }

  #processFrame(frame: Buffer, events: SegmentEvent[], speech: Buffer[]): void {
    const analysed = this.#analyse(frame);
    const { voiced: mayBeVoice, energy, denoised } = analysed;
    const raw = Buffer.from(frame);
    const index = this.#frameIndex++;
    // Over a background RNNoise removes (a fan, hiss), speech still dips in the suppressed audio
    // where it would not in the microphone's; elsewhere the microphone's is judged (RNNoise,
    // adapting to a noise that has just begun, makes its onset fade: a dip of its own making).
    const amplitude = this.#suppressionHelps ? analysed.denoisedAmplitude : analysed.amplitude;
    if (this.#state === 'idle') {
      this.#held.push({ raw, denoised });
      if (this.#held.length > PRE_ROLL_FRAMES) this.#held.shift();
      this.#voicedRun = mayBeVoice ? this.#voicedRun + 1 : 0;
      if (!mayBeVoice) {
        const background = this.#background;
        background.raw += (10 ** (energy / 10) - background.raw) / BACKGROUND_FRAMES;
        background.denoised += (analysed.denoisedAmplitude ** 2 - background.denoised) / BACKGROUND_FRAMES;
      }
      if (this.#voicedRun < START_FRAMES) return;
      // A candidate: held back until it shows speech's modulation.
      this.#state = 'candidate';
      const { raw: heard, denoised: left } = this.#background;
      this.#suppressionHelps =
        heard >= 10 ** (AUDIBLE_BACKGROUND_DB / 10) && heard >= left * 10 ** (SUPPRESSION_HELPS_DB / 10);
      this.#candidateStart = (index + 1 - this.#held.length) * FRAME_MS;
      this.#segmentFrames = this.#held.length;
      this.#voicedFrames = this.#voicedRun;
      this.#lastVoicedEnd = (index + 1) * FRAME_MS;
      this.#amplitudes = [this.#suppressionHelps ? analysed.denoisedAmplitude : analysed.amplitude];
      this.#energies = [energy];
      this.#voicedRun = 0;
      this.#checkModulation(index);
      if (this.#modulatedAt === index) this.#announce(events, speech);
      return;
    }
    this.#segmentFrames++;
    pushBounded(this.#amplitudes, amplitude, MODULATION_WINDOW);
    pushBounded(this.#energies, energy, NOISE_HISTORY_FRAMES);
    this.#checkModulation(index);
    // Voice that has stopped dipping like speech is not voice any more (a tone after a word).
    const voiced =
      mayBeVoice && (this.#state === 'candidate' || index - this.#modulatedAt <= MODULATION_MEMORY_FRAMES);
    if (voiced) {
      this.#voicedFrames++;
      this.#silentRun = 0;
      this.#lastVoicedEnd = (index + 1) * FRAME_MS;
    } else {
      this.#silentRun++;
    }
    this.#unbrokenFrames = this.#silentRun >= PAUSE_FRAMES ? 0 : this.#unbrokenFrames + 1;
    const ended = this.#silentRun >= Math.max(1, Math.round(this.endSilenceMs / FRAME_MS));
    if (this.#state === 'candidate') {
      this.#held.push({ raw, denoised });
      if (this.#modulatedAt === index) {
        this.#announce(events, speech);
      } else if (ended) {
        // A blip (a knock, a cough too short to dip): nothing was announced, nothing to say.
        this.#resetSegment();
      } else if (this.#segmentFrames - PRE_ROLL_FRAMES >= CONFIRM_FRAMES) {
        // Loud and voice-like for a second without a single dip: a tone, an engine, music.
        this.#declareNoise();
        this.#resetSegment();
      }
      return;
    }
    speech.push(this.#recognisesSuppressed ? denoised : raw);
    this.speechMs = this.#voicedFrames * FRAME_MS;
    if (this.#unbrokenFrames >= this.#maxUnbrokenFrames) {
      flushSpeech(events, speech);
      events.push({ type: 'end', offsetMs: this.#lastVoicedEnd, noise: true });
      this.#declareNoise();
      this.#resetSegment();
    } else if (ended || this.#segmentFrames >= this.#maxSegmentFrames) {
      flushSpeech(events, speech);
      events.push({ type: 'end', offsetMs: this.#lastVoicedEnd });
      this.#resetSegment();
    }
  }

  /** Records whether the utterance's recent loudness dips like speech. */
  get #recognisesSuppressed(): boolean {
    return this.#suppressNoise && this.#suppressionHelps;
  }

  #checkModulation(index: number): void {
    const window = this.#amplitudes;
    const mean = window.reduce((sum, value) => sum + value, 0) / window.length;
    let dips = 0;
    for (const amplitude of window) if (amplitude < DIP_RATIO * mean) dips++;
    if (dips >= MIN_DIPS && dips >= MIN_DIP_SHARE * window.length) this.#modulatedAt = index;
  }

  /** The candidate is speech: `start`, then everything held since its pre-roll. */
  #announce(events: SegmentEvent[], speech: Buffer[]): void {
    this.#state = 'speaking';
    this.speechMs = this.#voicedFrames * FRAME_MS;
    events.push({ type: 'start', offsetMs: this.#candidateStart });
    for (const held of this.#held) speech.push(this.#recognisesSuppressed ? held.denoised : held.raw);
    this.#held = [];
  }

  /** The rejected utterance is noise: its level (a high percentile of its frames) becomes the floor. */
  #declareNoise(): void {
    const level = percentile(this.#energies, NOISE_PERCENTILE);
    this.#declaredNoiseDb = Math.max(level, this.#declaredNoiseDb ?? Number.NEGATIVE_INFINITY);
    this.#quietRun = 0;
  }

  #resetSegment(): void {
    this.#state = 'idle';
    this.#held = [];
    this.#segmentFrames = 0;
    this.#silentRun = 0;
    this.#unbrokenFrames = 0;
    this.#voicedFrames = 0;
    this.#amplitudes = [];
    this.#energies = [];
    this.#modulatedAt = Number.NEGATIVE_INFINITY;
    this.speechMs = 0;
  }
}

/** Mean power of one frame, full scale = 1 (digital silence: 0). */
function meanPower(frame: Buffer): number {
  let sum = 0;
  for (let at = 0; at < frame.length; at += 2) {
    const sample = frame.readInt16LE(at) / 32768;
    sum += sample * sample;
  }
  return sum / (frame.length / 2);
}

function pushBounded(values: number[], value: number, max: number): void {
  values.push(value);
  if (values.length > max) values.shift();
}

/** The `share` percentile of `values` (not empty). */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** Speech frames of one push go out as one 'audio' event (before any 'end'). */
function flushSpeech(events: SegmentEvent[], speech: Buffer[]): void {
  if (speech.length === 0) return;
  events.push({ type: 'audio', pcm: Buffer.concat(speech) });
  speech.length = 0;
}
