// The participant's microphone on one connection (docs/realtime.md#voice): PCM frames go through
// the voice-activity segmenter; each stretch of speech gets its own recognition stream, announced
// as `speech.started`, followed by `transcript.interim` while it is recognised and closed by
// `speech.stopped` with the final text, which the session then stores and answers like a spoken
// `utterance`. Times come from the audio itself: `audio.start`'s start_ms plus sample offsets.
// Speech that starts while the persona talks is judged by the barge-in policy (barge-in.ts):
// backchannels and the persona's own echo neither interrupt it nor become a turn. How much silence
// ends an utterance is decided while the participant pauses, from the interim text and the pitch of
// the last words (turn-end.ts), unless the end of turn is configured fixed. With PocketSphinx the
// adaptive end of turn also finishes the recognition speculatively when a pause looks like the end:
// the final text is then ready about when the turn ends. If the participant goes on instead, that
// final is dropped and the whole utterance is recognised again by a new stream (decoding runs at a
// fifth of real time), so no word loses the words around it.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { type SegmentEvent, type SegmenterOptions, SpeechSegmenter } from '../../speech/segmenter.ts';
import {
  INPUT_SAMPLE_RATE,
  type RecognitionContext,
  type RecognitionStream,
  type SpeechRecognizer,
} from '../../speech/types.ts';
import type { RoomErrorCode, ServerMessage } from '../protocol.ts';
import { isBackchannel, isEcho, shouldBargeIn } from './barge-in.ts';
import { PitchTracker } from './prosody.ts';
import { readText, turnEndSilence } from './turn-end.ts';

export interface VoiceInputHost {
  send(message: ServerMessage): void;
  error(code: RoomErrorCode, message: string): void;
  /** The persona is talking: a turn is running or its audio is still playing. */
  personaSpeaking(): boolean;
  /** The words the persona said lately (its running turn and the last seconds): its echo. */
  personaWords(): ReadonlySet<string>;
  /** Cut the persona off (barge-in). */
  bargeIn(): void;
  /** The participant said something (the idle clock restarts). */
  heard(): void;
  /** A recognised utterance, to be stored and answered like a final `utterance` with input voice. */
  utterance(text: string, startMs: number, endMs: number): void;
  logger: Logger;
}

/**
 * What VoiceInput needs of the voice-activity segmenter. Without `silenceMs` and `endSilenceMs`
 * (a test's stand-in) the end of turn stays fixed.
 */
export type Segmenter = Pick<SpeechSegmenter, 'push' | 'flush' | 'dispose' | 'speechMs'> &
  Partial<Pick<SpeechSegmenter, 'silenceMs' | 'endSilenceMs'>>;
/** Builds a stream's segmenter (SpeechSegmenter.create; tests inject others, e.g. one that fails). */
export type SegmenterFactory = (options: SegmenterOptions) => Promise<Segmenter>;

export interface VoiceInputOptions {
  /** Meeting offset of the stream's first sample. */
  startMs: number;
  language: string;
  /** The meeting and its scenario's text, for a recogniser that expects its words. */
  recognition?: RecognitionContext;
  /** VOICE_END_SILENCE_MS: the fixed end silence, and the adaptive policy's default (turn-end.ts). */
  endSilenceMs?: number;
  /** VOICE_END_OF_TURN: `adaptive` (default) decides each pause from the words and the voice. */
  endOfTurn?: EndOfTurn;
  createSegmenter?: SegmenterFactory;
}

export type EndOfTurn = 'adaptive' | 'fixed';

/** The policy is asked again at least this often (ms of audio): the room's frames may be longer. */
const POLICY_STEP_MS = 20;
/** An interim that came this long after the pause began holds the words said before it. */
const INTERIM_AFTER_PAUSE_MS = 40;
/** Allowance over the recogniser's interim cadence for the hypothesis to reach us. */
const CADENCE_MARGIN_MS = 60;
/** Gaps between interim texts kept to estimate the recogniser's cadence (their median). */
const INTERIM_GAPS_KEPT = 16;
/**
 * Silence after which the recognition is finished speculatively, once the interim text covers the
 * pause and its words do not promise more. Only then: PocketSphinx's final pass weighs how likely a
 * sentence is to end there, and drops a trailing "on" or "and" that the interim text still had.
 * The final pass takes 100–250 ms, so the final text is there about when the shortest end of turn
 * (turn-end.ts, 300 ms) comes. Gaps inside a sentence reach 160 ms about once a sentence (p90 of
 * the segmenter's gaps: 140–180 ms); each then costs a new decoding of the utterance so far when
 * the participant goes on (a fifth of its duration in CPU).
 */
export const SPECULATE_AFTER_MS = 160;

/** Words that promise more (a trailing "and", "the"…): no end comes soon, nothing to speculate on. */
function promisesMore(text: string): boolean {
  const verdict = readText(text).verdict;
  return verdict === 'incomplete' || verdict === 'weak-incomplete';
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const BYTES_PER_MS = (INPUT_SAMPLE_RATE * 2) / 1000;
/** Audio may run ahead of the wall clock by this much (a client flushing its buffer); more is refused. */
export const AUDIO_AHEAD_ALLOWANCE_MS = 15_000;

interface Utterance {
  /** The recognition under way; null after a speculative final, until the voice comes back. */
  stream: RecognitionStream | null;
  /** The speculative final of the words up to a pause; `text` once known. */
  speculation: { final: Promise<string>; text: string | null } | null;
  /** The utterance's audio so far, recognised again if it goes on after a speculative final. */
  audio: Buffer[];
  startMs: number;
  bytes: number;
  interim: string;
  /** Stream offset (ms of audio written) when the last interim text arrived. */
  interimAtMs: number;
  /** It began while the persona was talking: backchannels are ignored, the rest barges in. */
  overPersona: boolean;
  bargedIn: boolean;
}

export class VoiceInput {
  readonly #recognizer: SpeechRecognizer;
  readonly #segmenter: Segmenter;
  readonly #host: VoiceInputHost;
  readonly #options: VoiceInputOptions;
  readonly #openedAt = performance.now();
  #receivedMs = 0;
  #current: Utterance | null = null;
  /** Finals are delivered one after the other, in the order they were spoken. */
  #finals: Promise<void> = Promise.resolve();
  #closed = false;
  #warnedAhead = false;
  /** Audio handed to the segmenter so far, in ms (the stream's clock). */
  #writtenMs = 0;
  /** The last gaps between two interim texts (ms of audio): how often the recogniser sends one. */
  readonly #interimGaps: number[] = [];
  readonly #pitch = new PitchTracker();
  #lastDecision = '';

  private constructor(
    recognizer: SpeechRecognizer,
    segmenter: Segmenter,
    host: VoiceInputHost,
    options: VoiceInputOptions,
  ) {
    this.#recognizer = recognizer;
    this.#segmenter = segmenter;
    this.#host = host;
    this.#options = options;
  }

  static async open(
    recognizer: SpeechRecognizer,
    host: VoiceInputHost,
    options: VoiceInputOptions,
  ): Promise<VoiceInput> {
    const create = options.createSegmenter ?? ((o: SegmenterOptions) => SpeechSegmenter.create(o));
    const segmenter = await create({ endSilenceMs: options.endSilenceMs });
    return new VoiceInput(recognizer, segmenter, host, options);
  }

  /** One frame of PCM s16le mono 16 kHz (its length already checked). */
  write(pcm: Buffer): void {
    if (this.#closed) return;
    const frameMs = pcm.length / BYTES_PER_MS;
    if (this.#receivedMs + frameMs > performance.now() - this.#openedAt + AUDIO_AHEAD_ALLOWANCE_MS) {
      if (!this.#warnedAhead) {
        this.#warnedAhead = true;
        this.#host.error('rate_limited', 'Audio arrives faster than real time; the excess is dropped.');
      }
      return;
    }
    this.#receivedMs += frameMs;
    if (!this.#adaptive) {
      this.#writtenMs += frameMs;
      this.#handle(this.#segmenter.push(pcm));
      return;
    }
    // The policy is asked before every 20 ms: the frame that completes the silence must be judged
    // with what is known just before it.
    const step = POLICY_STEP_MS * BYTES_PER_MS;
    for (let at = 0; at < pcm.length; at += step) {
      const slice = pcm.subarray(at, at + step);
      this.#decideEndSilence();
      this.#writtenMs += slice.length / BYTES_PER_MS;
      this.#handle(this.#segmenter.push(slice));
      const utterance = this.#current;
      // The voice came back after a speculative final: the utterance goes on.
      if (utterance && !utterance.stream && this.#segmenter.silenceMs === 0) this.#resume(utterance);
    }
  }

  /** PocketSphinx's finals are local and quick; a Whisper server would be asked (and paid) again. */
  get #speculative(): boolean {
    return this.#adaptive && this.#recognizer.engine === 'pocketsphinx';
  }

  get #adaptive(): boolean {
    return (
      this.#options.endOfTurn !== 'fixed' &&
      this.#segmenter.silenceMs !== undefined &&
      this.#segmenter.endSilenceMs !== undefined
    );
  }

  /** Sets the silence that ends the utterance in progress (turn-end.ts). */
  #decideEndSilence(): void {
    const defaultMs = this.#options.endSilenceMs ?? 600;
    const silenceMs = this.#segmenter.silenceMs ?? 0;
    const utterance = this.#current;
    if (!utterance || silenceMs === 0) {
      this.#segmenter.endSilenceMs = defaultMs;
      return;
    }
    const pauseAtMs = this.#writtenMs - silenceMs;
    const cadence = this.#interimGaps.length >= 2 ? median(this.#interimGaps) : null;
    const interimCurrent =
      utterance.interimAtMs >= pauseAtMs + INTERIM_AFTER_PAUSE_MS ||
      (cadence !== null && silenceMs >= cadence + CADENCE_MARGIN_MS);
    if (
      this.#speculative &&
      utterance.stream &&
      silenceMs >= SPECULATE_AFTER_MS &&
      interimCurrent &&
      !promisesMore(utterance.interim)
    )
      this.#speculate(utterance);
    // A speculative final is exactly the words before the pause.
    const final = utterance.speculation?.text ?? null;
    const decision = turnEndSilence(
      final !== null
        ? { text: final, textCurrent: true, pitch: this.#pitch.cue() }
        : { text: utterance.interim, textCurrent: interimCurrent, pitch: this.#pitch.cue() },
      defaultMs,
    );
    this.#segmenter.endSilenceMs = decision.silenceMs;
    this.#lastDecision = `${decision.silenceMs} ms: ${decision.reason}`;
  }

  /** The stream ends (audio.stop): an utterance in progress is finalised. Resolves once delivered. */
  stop(): Promise<void> {
    if (this.#closed) return this.#finals;
    this.#handle(this.#segmenter.flush());
    if (this.#current)
      this.#finalise(this.#current, this.#current.startMs + this.#current.bytes / BYTES_PER_MS);
    this.#closed = true;
    this.#segmenter.dispose();
    return this.#finals;
  }

  /** The connection is gone: nothing more is recognised or sent. */
  dispose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#current?.stream?.cancel();
    this.#current = null;
    this.#segmenter.dispose();
  }

  #handle(events: SegmentEvent[]): void {
    for (const event of events) {
      if (event.type === 'start') this.#begin(this.#options.startMs + event.offsetMs);
      else if (event.type === 'audio') this.#audio(event.pcm);
      else if (this.#current)
        this.#finalise(this.#current, this.#options.startMs + event.offsetMs, event.noise === true);
    }
    const utterance = this.#current;
    if (utterance?.overPersona && !utterance.bargedIn) this.#judge(utterance);
  }

  #begin(startMs: number): void {
    const utterance: Utterance = {
      stream: null,
      speculation: null,
      audio: [],
      startMs: Math.round(startMs),
      bytes: 0,
      interim: '',
      interimAtMs: 0,
      overPersona: this.#host.personaSpeaking(),
      bargedIn: false,
    };
    this.#current = utterance;
    this.#pitch.reset();
    this.#recognition(utterance);
    this.#host.heard();
    this.#host.send({ type: 'speech.started', start_ms: utterance.startMs });
  }

  /** A recognition stream for the utterance (its interim text becomes the utterance's). */
  #recognition(utterance: Utterance): RecognitionStream {
    const stream = this.#recognizer.start({
      language: this.#options.language,
      context: this.#options.recognition,
    });
    utterance.stream = stream;
    let previousInterimAtMs: number | null = null;
    stream.onInterim((text) => {
      if (this.#current !== utterance || utterance.stream !== stream || this.#closed) return;
      utterance.interim = text;
      utterance.interimAtMs = this.#writtenMs;
      if (previousInterimAtMs !== null) {
        const gap = this.#writtenMs - previousInterimAtMs;
        this.#interimGaps.push(gap);
        if (this.#interimGaps.length > INTERIM_GAPS_KEPT) this.#interimGaps.shift();
      }
      previousInterimAtMs = this.#writtenMs;
      this.#host.send({ type: 'transcript.interim', text });
      if (utterance.overPersona && !utterance.bargedIn) this.#judge(utterance);
    });
    return stream;
  }

  /** Finishes the recognition while the participant pauses (see SPECULATE_AFTER_MS). */
  #speculate(utterance: Utterance): void {
    const stream = utterance.stream!;
    utterance.stream = null;
    const speculation: NonNullable<Utterance['speculation']> = {
      final: this.#finalText(stream),
      text: null,
    };
    utterance.speculation = speculation;
    void speculation.final.then((text) => {
      speculation.text = text;
    });
  }

  /**
   * The participant goes on after a speculative final: it is dropped, and a new stream recognises
   * the whole utterance again, so the words before the pause keep their context.
   */
  #resume(utterance: Utterance): void {
    utterance.speculation = null;
    const stream = this.#recognition(utterance);
    stream.write(Buffer.concat(utterance.audio));
  }

  /** The final text of a stream ('' when the recogniser failed: the participant is told). */
  #finalText(stream: RecognitionStream): Promise<string> {
    return stream.finish().then(
      (result) => result.text.trim(),
      (error: unknown) => {
        this.#host.logger.warn({ err: error }, 'speech recognition failed');
        this.#host.error('speech_unavailable', 'The speech recogniser failed on that utterance.');
        return '';
      },
    );
  }

  #audio(pcm: Buffer): void {
    const utterance = this.#current;
    if (!utterance) return;
    utterance.stream?.write(pcm);
    utterance.bytes += pcm.length;
    if (this.#speculative) utterance.audio.push(pcm);
    if (this.#adaptive) this.#pitch.push(pcm);
  }

  /** Speech over the persona: interrupt once it is more than a backchannel, and not its echo. */
  #judge(utterance: Utterance): void {
    if (!this.#host.personaSpeaking()) return;
    if (!shouldBargeIn(utterance.interim, this.#segmenter.speechMs, this.#host.personaWords())) return;
    utterance.bargedIn = true;
    this.#host.bargeIn();
  }

  /** `noise`: the segmenter declared it noise (it never paused): not recognised, ends with no text. */
  #finalise(utterance: Utterance, endMs: number, noise = false): void {
    if (this.#current === utterance) this.#current = null;
    if (this.#lastDecision !== '') {
      this.#host.logger.debug({ end_of_turn: this.#lastDecision }, 'utterance ended');
      this.#lastDecision = '';
    }
    const startMs = utterance.startMs;
    const end = Math.max(startMs, Math.round(endMs));
    const stream = utterance.stream;
    utterance.stream = null;
    utterance.audio = [];
    if (noise) stream?.cancel();
    const recognised = noise
      ? Promise.resolve('')
      : stream
        ? this.#finalText(stream)
        : (utterance.speculation?.final ?? Promise.resolve(''));
    // Delivered even when the connection has gone meanwhile: the words were said before it did.
    this.#finals = this.#finals
      .then(async () => {
        const text = await recognised;
        // A murmur over the persona's speech ("yeah", "mhm") is encouragement, not a turn; the
        // persona's own words coming back through the microphone are not the participant's.
        const ignored =
          utterance.overPersona &&
          !utterance.bargedIn &&
          (isBackchannel(text) || isEcho(text, this.#host.personaWords()));
        const said = ignored ? '' : text;
        this.#host.send({ type: 'speech.stopped', start_ms: startMs, end_ms: end, text: said });
        if (said !== '') this.#host.utterance(said, startMs, end);
      })
      // One final that fails to be delivered (a send or store that throws) is logged and lost on
      // its own: the chain must stay resolved, or every later final would be skipped, and an
      // unhandled rejection would bring the whole service down.
      .catch((error: unknown) => {
        this.#host.logger.error(
          { err: error, start_ms: startMs },
          'a spoken utterance could not be delivered',
        );
      });
  }
}
