// Speech to text through any OpenAI-compatible `POST /audio/transcriptions` server (OpenAI,
// faster-whisper-server, whisper.cpp's server, LocalAI, vLLM): STT_BASE_URL, STT_API_KEY,
// STT_MODEL. These APIs take a whole file, so the utterance is buffered and sent as a WAV when it
// ends; while it is spoken, the audio so far is re-sent every STT_INTERIM_INTERVAL_MS (one request
// at a time) so the participant sees interim text. Re-sent audio is billed again by APIs that
// charge per second of audio, so interim requests stop once an utterance passes 10 s (its text
// then comes with the final) and STT_INTERIM_INTERVAL_MS=0 turns them off (docs/speech.md).
import { SpeechEngineError } from '../errors.ts';
import { type OpenAiSpeechConfig, openAiLabel, postToSpeechServer } from '../openai-http.ts';
import {
  INPUT_SAMPLE_RATE,
  type Recognition,
  type RecognitionContext,
  type RecognitionStream,
  type SpeechRecognizer,
} from '../types.ts';
import { encodeWav } from '../wav.ts';
import { promptTerms } from './prompt-terms.ts';

export interface OpenAiRecognizerOptions {
  /** Interim re-transcription period (STT_INTERIM_INTERVAL_MS); 0 turns interim text off. Default 1500 ms. */
  interimEveryMs?: number;
  /** Budget of one interim request (a late interim is useless). Default 10 s. */
  interimTimeoutMs?: number;
}

/** Audio kept per utterance (10 minutes); the segmenter cuts long before this. */
const MAX_BUFFER_BYTES = 10 * 60 * INPUT_SAMPLE_RATE * 2;
/** Less than this is not worth an interim request. */
const MIN_INTERIM_BYTES = INPUT_SAMPLE_RATE * 2 * 0.5;
/**
 * No interim request for an utterance longer than this: each one re-sends (and re-bills) all the
 * audio so far, so the cost of interims grows with the square of the utterance's length.
 */
export const MAX_INTERIM_AUDIO_MS = 10_000;
const MAX_INTERIM_BYTES = (INPUT_SAMPLE_RATE * 2 * MAX_INTERIM_AUDIO_MS) / 1000;
/** STT_INTERIM_INTERVAL_MS's default. */
export const DEFAULT_INTERIM_INTERVAL_MS = 1500;

export function createOpenAiRecognizer(
  config: OpenAiSpeechConfig,
  options: OpenAiRecognizerOptions = {},
  fetchImpl: typeof fetch = fetch,
): SpeechRecognizer {
  let closed = false;
  const interimEveryMs = options.interimEveryMs ?? DEFAULT_INTERIM_INTERVAL_MS;
  const interimTimeoutMs = options.interimTimeoutMs ?? 10_000;

  /** The last scenario's terms: every utterance of a meeting asks for the same ones. */
  let lastTerms = { vocabulary: '', prompt: '' };
  function promptFor(context: RecognitionContext | undefined): string {
    if (!context) return '';
    if (lastTerms.vocabulary !== context.vocabulary)
      lastTerms = { vocabulary: context.vocabulary, prompt: promptTerms(context.vocabulary) };
    return lastTerms.prompt;
  }

  async function transcribe(
    pcm: Buffer,
    language: string,
    prompt: string,
    signal: AbortSignal,
    timeoutMs?: number,
  ) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(encodeWav(pcm, INPUT_SAMPLE_RATE))], { type: 'audio/wav' }),
      'speech.wav',
    );
    form.append('model', config.model);
    form.append('response_format', 'json');
    // The API wants ISO 639-1 ("en"), the catalog speaks BCP 47 ("en-US").
    const iso = language.split('-')[0]?.toLowerCase();
    if (iso && /^[a-z]{2,3}$/.test(iso)) form.append('language', iso);
    // The scenario's names and terms, which Whisper then spells as the author did.
    if (prompt) form.append('prompt', prompt);
    const reply = await postToSpeechServer(
      { ...config, timeoutMs: timeoutMs ?? config.timeoutMs },
      '/audio/transcriptions',
      { body: form, headers: { accept: 'application/json' } },
      { signal, defaultTimeoutMs: 30_000, fetchImpl },
    );
    let payload: unknown;
    try {
      payload = JSON.parse(reply.body.toString('utf8'));
    } catch {
      throw new SpeechEngineError('invalid_reply', 'speech server /audio/transcriptions did not answer JSON');
    }
    const text = (payload as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') {
      throw new SpeechEngineError('invalid_reply', 'speech server /audio/transcriptions answered no text');
    }
    return text.trim();
  }

  return {
    engine: 'openai-compatible',
    label: openAiLabel(config),

    start({ language, context }): RecognitionStream {
      const prompt = promptFor(context);
      const chunks: Buffer[] = [];
      let buffered = 0;
      let state: 'open' | 'finishing' | 'done' = 'open';
      const controller = new AbortController();
      const listeners: Array<(text: string) => void> = [];
      let interimInFlight = false;
      let lastInterimAt = performance.now();
      let interimBytes = 0;

      function maybeInterim(): void {
        if (interimEveryMs <= 0 || interimInFlight || listeners.length === 0) return;
        if (buffered < MIN_INTERIM_BYTES || buffered === interimBytes || buffered > MAX_INTERIM_BYTES) return;
        if (performance.now() - lastInterimAt < interimEveryMs) return;
        interimInFlight = true;
        lastInterimAt = performance.now();
        interimBytes = buffered;
        transcribe(Buffer.concat(chunks), language, prompt, controller.signal, interimTimeoutMs)
          .then((text) => {
            if (state === 'open' && text) for (const listener of listeners) listener(text);
          })
          // An interim that fails costs nothing: the final is what counts.
          .catch(() => {})
          .finally(() => {
            interimInFlight = false;
          });
      }

      return {
        write(pcm) {
          if (state !== 'open' || closed || buffered + pcm.length > MAX_BUFFER_BYTES) return;
          chunks.push(Buffer.from(pcm));
          buffered += pcm.length;
          maybeInterim();
        },
        onInterim(listener) {
          listeners.push(listener);
        },
        async finish(): Promise<Recognition> {
          if (state !== 'open')
            throw new SpeechEngineError('closed', 'recognition already finished or cancelled');
          state = 'finishing';
          if (closed) throw new SpeechEngineError('closed', 'recogniser is closed');
          if (buffered < 2) return { text: '' };
          try {
            return { text: await transcribe(Buffer.concat(chunks), language, prompt, controller.signal) };
          } finally {
            state = 'done';
          }
        },
        cancel() {
          state = 'done';
          controller.abort(new SpeechEngineError('aborted', 'recognition was cancelled'));
        },
      };
    },

    async close() {
      closed = true;
    },
  };
}
