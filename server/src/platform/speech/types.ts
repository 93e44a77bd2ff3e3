// The two speech adapters the live loop talks to. Each has an OpenAI-compatible production
// implementation and an embedded offline default (docs/speech.md); the live module never knows
// which one it has.

/** What the recogniser made of one utterance. */
export interface Recognition {
  text: string;
}

/** One utterance being recognised while it is spoken. */
export interface RecognitionStream {
  /** PCM s16le mono 16 kHz, any length. */
  write(pcm: Buffer): void;
  /** The text so far, each time the engine has a new interim hypothesis (may never fire). */
  onInterim(listener: (text: string) => void): void;
  /** No more audio: the final text ('' when nothing was recognised). Rejects if the engine failed. */
  finish(): Promise<Recognition>;
  /** Abandon: nothing more is emitted. */
  cancel(): void;
}

/**
 * The meeting an utterance belongs to (docs/speech.md, "Meeting vocabulary"): the recogniser
 * expects the scenario's words, and keeps whatever it learns of a speaker to that meeting alone.
 */
export interface RecognitionContext {
  /** Recogniser state (PocketSphinx's running cepstral mean) is kept per meeting, never shared. */
  meetingId: string;
  /** The scenario's own text (prompt, goals, persona background, welcome), as written. */
  vocabulary: string;
}

export interface RecognitionOptions {
  language: string;
  /** Absent: a general recogniser with no meeting state (tests, tools). */
  context?: RecognitionContext;
}

export interface SpeechRecognizer {
  readonly engine: 'pocketsphinx' | 'openai-compatible';
  /** For the start-up banner and diagnostics, e.g. "PocketSphinx (offline)". */
  readonly label: string;
  start(options: RecognitionOptions): RecognitionStream;
  close(): Promise<void>;
}

/** The persona's voice as the catalog describes it; each engine maps it to one of its own. */
export interface VoiceChoice {
  ttsVoice: string | null;
  gender: string | null;
  voiceId: string | null;
  language: string;
}

/** PCM s16le mono. */
export interface SynthesizedAudio {
  pcm: Buffer;
  sampleRate: number;
}

export interface SpeechSynthesizer {
  readonly engine: 'flite' | 'openai-compatible';
  readonly label: string;
  synthesize(text: string, voice: VoiceChoice, signal?: AbortSignal): Promise<SynthesizedAudio>;
  close(): Promise<void>;
}

export interface SpeechEngines {
  recognizer: SpeechRecognizer | null;
  synthesizer: SpeechSynthesizer | null;
}

/** The participant's audio as the room sends it. */
export const INPUT_SAMPLE_RATE = 16_000;
