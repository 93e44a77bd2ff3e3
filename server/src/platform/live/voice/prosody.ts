// The melody of the participant's last words, for the turn-end policy (turn-end.ts). Speakers
// signal whether they are done with their voice as much as with their words: a statement ends with
// the pitch falling to the bottom of the speaker's range, while a voice that stops on a rising or
// level pitch ("and then… ", "I went to the… ") is holding the turn. This tracker follows the pitch
// of the utterance's audio (a normalised autocorrelation per 20 ms frame, on the signal decimated to
// 8 kHz: about 30k multiply-adds a frame) and, when the voice stops, says which way the last voiced
// stretch went.
import { INPUT_SAMPLE_RATE } from '../../speech/types.ts';

export type PitchCue = 'falling' | 'rising' | 'level' | 'unknown';

const FRAME_MS = 20;
const FRAME_SAMPLES = (INPUT_SAMPLE_RATE * FRAME_MS) / 1000;
/** Decimated rate for the pitch search (speech pitch is far below its 4 kHz Nyquist). */
const RATE = 8_000;
/** Two 20 ms frames at 8 kHz: enough for two periods of a 100 Hz voice. */
const WINDOW = (RATE * 2 * FRAME_MS) / 1000;
/** Pitch search range: 70–400 Hz covers adult voices, low male to high female. */
const MIN_LAG = Math.floor(RATE / 400);
const MAX_LAG = Math.ceil(RATE / 70);
/** A frame is voiced when its signal repeats this well at the pitch period… */
const MIN_PERIODICITY = 0.5;
/** …and it is no more than this far below the loudest frame so far (breath and noise are not voice). */
const MAX_BELOW_PEAK_DB = 30;
/** How much of the voice before a pause decides its direction. */
export const CUE_WINDOW_MS = 300;
/** Voiced frames needed in that window to say anything. */
const MIN_CUE_FRAMES = 4;
/**
 * A fall or rise over the window of at least this many semitones (2 st is a clearly heard
 * movement; a held syllable wobbles by less than one).
 */
const MOVE_SEMITONES = 2;
/** Ending this far below the speaker's median pitch in the utterance also counts as a fall. */
const LOW_END_SEMITONES = 2.5;

interface Frame {
  /** Semitones above 100 Hz, or null when the frame is not voiced. */
  pitch: number | null;
  energyDb: number;
}

export class PitchTracker {
  /** The last frames (enough for the cue window), oldest first. */
  readonly #recent: Frame[] = [];
  /** Pitch of every voiced frame of the utterance, for the speaker's median. */
  readonly #pitches: number[] = [];
  #pending: Buffer = Buffer.alloc(0);
  /** The previous frame, decimated (the window spans it and the current one). */
  #previous = new Float64Array(WINDOW / 2);
  #peakDb = -100;

  /** PCM s16le mono 16 kHz, any length: the utterance's audio, in order. */
  push(pcm: Buffer): void {
    const bytes = this.#pending.length > 0 ? Buffer.concat([this.#pending, pcm]) : pcm;
    let offset = 0;
    for (; offset + FRAME_SAMPLES * 2 <= bytes.length; offset += FRAME_SAMPLES * 2) {
      this.#frame(bytes.subarray(offset, offset + FRAME_SAMPLES * 2));
    }
    this.#pending = Buffer.from(bytes.subarray(offset));
  }

  /** A new utterance: forget the last one's voice. */
  reset(): void {
    this.#recent.length = 0;
    this.#pitches.length = 0;
    this.#pending = Buffer.alloc(0);
    this.#previous = new Float64Array(WINDOW / 2);
    this.#peakDb = -100;
  }

  /**
   * Which way the voice went over its last CUE_WINDOW_MS before it stopped (trailing unvoiced
   * frames are skipped): falling (a statement's end), rising or level (more to come), or unknown
   * (too little voice to tell).
   */
  cue(): PitchCue {
    let last = this.#recent.length - 1;
    while (last >= 0 && this.#recent[last]!.pitch === null) last -= 1;
    if (last < 0) return 'unknown';
    const first = Math.max(0, last - CUE_WINDOW_MS / FRAME_MS + 1);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = first; i <= last; i += 1) {
      const pitch = this.#recent[i]!.pitch;
      if (pitch === null) continue;
      xs.push(i);
      ys.push(pitch);
    }
    if (ys.length < MIN_CUE_FRAMES) return 'unknown';
    const slope = regressionSlope(xs, ys);
    // The fitted line's rise (semitones) from the window's first frame to its last.
    const span = (last - first) * slope;
    const end = median(ys.slice(-3));
    const speaker = median(this.#pitches);
    if (span <= -MOVE_SEMITONES || end <= speaker - LOW_END_SEMITONES) return 'falling';
    if (span >= MOVE_SEMITONES) return 'rising';
    return 'level';
  }

  #frame(frame: Buffer): void {
    const current = new Float64Array(WINDOW / 2);
    let power = 0;
    for (let i = 0; i < current.length; i += 1) {
      // Decimate by two with a two-tap average (a crude low-pass, enough for pitch).
      const a = frame.readInt16LE(i * 4) / 32768;
      const b = frame.readInt16LE(i * 4 + 2) / 32768;
      current[i] = (a + b) / 2;
      power += a * a + b * b;
    }
    const energyDb = 10 * Math.log10(power / FRAME_SAMPLES + 1e-10);
    this.#peakDb = Math.max(this.#peakDb, energyDb);
    const window = new Float64Array(WINDOW);
    window.set(this.#previous, 0);
    window.set(current, WINDOW / 2);
    this.#previous = current;
    const pitch = energyDb >= this.#peakDb - MAX_BELOW_PEAK_DB ? estimatePitch(window) : null;
    if (pitch !== null) this.#pitches.push(pitch);
    this.#recent.push({ pitch, energyDb });
    if (this.#recent.length > (2 * CUE_WINDOW_MS) / FRAME_MS) this.#recent.shift();
  }
}

/** Semitones above 100 Hz of a window's pitch, or null when it is not periodic enough. */
function estimatePitch(window: Float64Array): number | null {
  let mean = 0;
  for (const value of window) mean += value;
  mean /= window.length;
  const x = window.map((value) => value - mean);
  const correlations = new Float64Array(MAX_LAG + 1);
  let best = 0;
  for (let lag = MIN_LAG; lag <= MAX_LAG; lag += 1) {
    let cross = 0;
    let head = 0;
    let tail = 0;
    for (let i = 0; i + lag < x.length; i += 1) {
      cross += x[i]! * x[i + lag]!;
      head += x[i]! * x[i]!;
      tail += x[i + lag]! * x[i + lag]!;
    }
    const r = head > 0 && tail > 0 ? cross / Math.sqrt(head * tail) : 0;
    correlations[lag] = r;
    if (r > best) best = r;
  }
  if (best < MIN_PERIODICITY) return null;
  // The shortest lag nearly as good as the best: a period's multiples correlate as well, and
  // taking one of them would halve the pitch (an octave error).
  for (let lag = MIN_LAG + 1; lag < MAX_LAG; lag += 1) {
    const r = correlations[lag]!;
    if (r >= 0.9 * best && r >= correlations[lag - 1]! && r >= correlations[lag + 1]!) {
      return 12 * Math.log2(RATE / lag / 100);
    }
  }
  return null;
}

function regressionSlope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
