// A microphone for bench/voice: PCM s16le mono 16 kHz sent in 20 ms binary frames at the pace a
// real microphone produces them (frame k leaves when its last sample has been "captured"), with a
// faint noise floor between and under the sentences, as a room's capture worklet would.
//
// It also runs the service's own end-of-speech detector (SpeechSegmenter, same code, same
// settings) over exactly the frames it sends. The detector is deterministic, so this tells the
// benchmark, on its own clock and without asking the server, which frame held the last voiced
// audio (the end of the participant's speech) and which frame completed the end silence (the
// instant the service decides the utterance is over).
import { performance } from 'node:perf_hooks';
import { type SegmentEvent, SpeechSegmenter } from '../../server/src/platform/speech/segmenter.ts';
import { INPUT_SAMPLE_RATE } from '../../server/src/platform/speech/types.ts';

export const FRAME_MS = 20;
const FRAME_BYTES = (INPUT_SAMPLE_RATE * FRAME_MS * 2) / 1000;
/** About -66 dBFS of white noise: a quiet room through a laptop microphone. */
const NOISE_AMPLITUDE = 0.0005;

/** One utterance as the detector saw it, in frames sent and the instants they left. */
export interface DetectedUtterance {
  /** Stream offset of the end of the last voiced frame (the segmenter's `end.offsetMs`). */
  speechEndMs: number;
  /** When the frame holding the last voiced audio was sent: the participant stopped speaking. */
  speechEndSentAt: number;
  /** When the frame that completed the end silence was sent: the service's decision point. */
  detectedSentAt: number;
  startMs: number;
}

export class PacedMicrophone {
  readonly #send: (frame: Buffer) => void;
  readonly #segmenter: SpeechSegmenter;
  /** performance.now() at which each frame was sent, by frame index. */
  readonly #sentAt: number[] = [];
  #queue: Buffer = Buffer.alloc(0);
  #startedAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #noiseState = 0x2545f491;
  #startMs: number | null = null;
  #waiting: ((utterance: DetectedUtterance) => void) | null = null;

  private constructor(send: (frame: Buffer) => void, segmenter: SpeechSegmenter) {
    this.#send = send;
    this.#segmenter = segmenter;
  }

  static async create(send: (frame: Buffer) => void, endSilenceMs: number): Promise<PacedMicrophone> {
    return new PacedMicrophone(send, await SpeechSegmenter.create({ endSilenceMs }));
  }

  start(): void {
    this.#startedAt = performance.now();
    this.#tick();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#segmenter.dispose();
  }

  /** Queues a sentence; resolves when the detector has ended the utterance it makes. */
  say(pcm: Buffer): Promise<DetectedUtterance> {
    this.#queue = Buffer.concat([this.#queue, pcm.subarray(0, pcm.length - (pcm.length % 2))]);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  #tick(): void {
    const due = Math.floor((performance.now() - this.#startedAt) / FRAME_MS);
    while (this.#sentAt.length < due) this.#sendFrame();
    const next = this.#startedAt + (this.#sentAt.length + 1) * FRAME_MS;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, next - performance.now()));
  }

  #sendFrame(): void {
    const frame = this.#noise();
    if (this.#queue.length > 0) {
      const speech = this.#queue.subarray(0, FRAME_BYTES);
      this.#queue = this.#queue.subarray(speech.length);
      for (let at = 0; at < speech.length; at += 2) {
        const mixed = frame.readInt16LE(at) + speech.readInt16LE(at);
        frame.writeInt16LE(Math.max(-32768, Math.min(32767, mixed)), at);
      }
    }
    const index = this.#sentAt.length;
    this.#send(frame);
    this.#sentAt.push(performance.now());
    for (const event of this.#segmenter.push(frame)) this.#onSegment(event, index);
  }

  #onSegment(event: SegmentEvent, index: number): void {
    if (event.type === 'start') this.#startMs = event.offsetMs;
    if (event.type !== 'end') return;
    const lastVoicedFrame = Math.max(0, event.offsetMs / FRAME_MS - 1);
    const utterance: DetectedUtterance = {
      speechEndMs: event.offsetMs,
      speechEndSentAt: this.#sentAt[lastVoicedFrame] ?? this.#sentAt[index]!,
      detectedSentAt: this.#sentAt[index]!,
      startMs: this.#startMs ?? 0,
    };
    // An utterance nobody waits for (noise taken for speech) is not a measurement.
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.(utterance);
  }

  /** Deterministic xorshift white noise. */
  #noise(): Buffer {
    const frame = Buffer.alloc(FRAME_BYTES);
    let state = this.#noiseState;
    for (let at = 0; at < FRAME_BYTES; at += 2) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      frame.writeInt16LE(Math.round(((state >>> 0) / 0xffffffff - 0.5) * 2 * NOISE_AMPLITUDE * 32767), at);
    }
    this.#noiseState = state;
    return frame;
  }
}
