// Voice on one connection of a live session: the persona's audio when the client asked for it
// (`join.audio.output`) and the microphone once it sends `audio.start`. Voice belongs to the
// connection, not to the meeting: a reconnect starts without it and re-sends `audio.start`.
import type { Logger } from 'pino';
import { VOICES } from '../../personas/catalog.ts';
import { INPUT_SAMPLE_RATE, type SpeechEngines, type VoiceChoice } from '../../speech/types.ts';
import type { MeetingContext } from '../context.ts';
import { AUDIO_INPUT } from '../protocol.ts';
import { recognitionContext } from './meeting-vocabulary.ts';
import { type EndOfTurn, type SegmenterFactory, VoiceInput, type VoiceInputHost } from './voice-input.ts';
import { VoiceOutput, type VoiceOutputHost } from './voice-output.ts';

export type ConnectionVoiceHost = Omit<VoiceInputHost, 'logger'> & Omit<VoiceOutputHost, 'logger'>;

export interface ConnectionVoiceOptions {
  /** The client plays the persona's audio. */
  output: boolean;
  context: MeetingContext;
  endSilenceMs?: number;
  endOfTurn?: EndOfTurn;
  /** The voice-activity segmenter of each microphone stream (the WebRTC VAD when absent). */
  createSegmenter?: SegmenterFactory;
  logger: Logger;
}

export class ConnectionVoice {
  /** Null when the client did not ask for audio, or no synthesiser is configured. */
  readonly output: VoiceOutput | null;
  readonly #engines: SpeechEngines;
  readonly #host: ConnectionVoiceHost;
  readonly #options: ConnectionVoiceOptions;
  #input: VoiceInput | null = null;
  #disposed = false;

  constructor(engines: SpeechEngines, host: ConnectionVoiceHost, options: ConnectionVoiceOptions) {
    this.#engines = engines;
    this.#host = host;
    this.#options = options;
    this.output =
      options.output && engines.synthesizer
        ? new VoiceOutput(engines.synthesizer, voiceChoiceOf(options.context), {
            ...host,
            logger: options.logger,
          })
        : null;
  }

  /** The microphone stream is on: binary frames are expected. */
  get listening(): boolean {
    return this.#input !== null;
  }

  get canListen(): boolean {
    return this.#engines.recognizer !== null;
  }

  /**
   * `audio.start`: a (new) microphone stream whose first sample is at `startMs`. When the stream
   * cannot start (the voice-activity detector's WASM failed to load), the client is told
   * `speech_unavailable` and the meeting goes on without the microphone: typing still works, and
   * the next `audio.start` tries again.
   */
  async startInput(startMs: number): Promise<void> {
    const recognizer = this.#engines.recognizer;
    if (!recognizer || this.#disposed) return;
    const previous = this.#input;
    this.#input = null;
    void previous?.stop();
    let input: VoiceInput;
    try {
      input = await VoiceInput.open(
        recognizer,
        { ...this.#host, logger: this.#options.logger },
        {
          startMs,
          language: this.#options.context.scenario.language,
          recognition: recognitionContext(this.#options.context),
          endSilenceMs: this.#options.endSilenceMs,
          endOfTurn: this.#options.endOfTurn,
          createSegmenter: this.#options.createSegmenter,
        },
      );
    } catch (error) {
      this.#options.logger.error({ err: error }, 'the microphone stream could not start');
      if (!this.#disposed)
        this.#host.error(
          'speech_unavailable',
          'The service could not start listening just now; type instead, or turn the microphone off and on again.',
        );
      return;
    }
    if (this.#disposed) input.dispose();
    else this.#input = input;
  }

  /** `audio.stop`: the utterance in progress is finalised. */
  async stopInput(): Promise<void> {
    const input = this.#input;
    this.#input = null;
    await input?.stop();
  }

  audio(pcm: Buffer): void {
    this.#input?.write(pcm);
  }

  dispose(): void {
    this.#disposed = true;
    this.#input?.dispose();
    this.#input = null;
    this.output?.dispose();
  }
}

/** The persona's voice as the catalog describes it, for the synthesiser to map to one of its own. */
export function voiceChoiceOf(context: MeetingContext): VoiceChoice {
  const { persona, scenario } = context;
  const voice = persona ? VOICES.find((v) => v.id === persona.voice_id) : undefined;
  return {
    ttsVoice: voice?.tts_voice ?? null,
    gender: persona?.gender ?? voice?.gender ?? null,
    voiceId: persona?.voice_id ?? null,
    language: voice?.language ?? scenario.language,
  };
}

export type SpeechCapabilities = ReturnType<typeof speechCapabilities>;

/** What the welcome data and `joined` say about speech in the service (docs/realtime.md#voice). */
export function speechCapabilities(engines: SpeechEngines) {
  return {
    recognition: engines.recognizer?.engine ?? null,
    synthesis: engines.synthesizer?.engine ?? null,
    input: { ...AUDIO_INPUT, sample_rate: INPUT_SAMPLE_RATE },
  };
}
