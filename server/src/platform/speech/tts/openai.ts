// Text to speech through any OpenAI-compatible `POST /audio/speech` server (OpenAI, LocalAI,
// Kokoro-FastAPI, openedai-speech …): TTS_BASE_URL, TTS_API_KEY, TTS_MODEL. The catalog's
// `tts_voice` is sent as the voice; the answer is asked for as WAV so its rate is known.
import { SpeechEngineError } from '../errors.ts';
import { type OpenAiSpeechConfig, openAiLabel, postToSpeechServer } from '../openai-http.ts';
import type { SpeechSynthesizer, SynthesizedAudio, VoiceChoice } from '../types.ts';
import { openAiVoiceFor } from '../voices.ts';
import { decodeWav, WavError } from '../wav.ts';

/** OpenAI's `pcm` format: raw s16le mono at 24 kHz. */
const RAW_PCM_RATE = 24_000;
/** The API's documented input limit. */
const MAX_INPUT_CHARS = 4096;

export function createOpenAiSynthesizer(
  config: OpenAiSpeechConfig,
  fetchImpl: typeof fetch = fetch,
): SpeechSynthesizer {
  let closed = false;
  return {
    engine: 'openai-compatible',
    label: openAiLabel(config),

    async synthesize(text: string, voice: VoiceChoice, signal?: AbortSignal): Promise<SynthesizedAudio> {
      if (closed) throw new SpeechEngineError('closed', 'synthesiser is closed');
      const input = text.slice(0, MAX_INPUT_CHARS);
      if (!/[\p{L}\p{N}]/u.test(input)) return { pcm: Buffer.alloc(0), sampleRate: RAW_PCM_RATE };
      const reply = await postToSpeechServer(
        config,
        '/audio/speech',
        {
          body: JSON.stringify({
            model: config.model,
            input,
            voice: openAiVoiceFor(voice),
            response_format: 'wav',
          }),
          headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        },
        { signal, defaultTimeoutMs: 30_000, fetchImpl },
      );
      return toAudio(reply.body, reply.contentType);
    },

    async close() {
      closed = true;
    },
  };
}

function toAudio(body: Buffer, contentType: string): SynthesizedAudio {
  // A server that ignores response_format and streams raw PCM says so in its content type.
  const raw = /^audio\/pcm\b/i.exec(contentType);
  if (raw && body.toString('ascii', 0, 4) !== 'RIFF') {
    const rate = Number(/rate=(\d+)/i.exec(contentType)?.[1] ?? RAW_PCM_RATE);
    return { pcm: body.subarray(0, body.length - (body.length % 2)), sampleRate: rate };
  }
  try {
    return decodeWav(body);
  } catch (error) {
    if (!(error instanceof WavError)) throw error;
    throw new SpeechEngineError(
      'invalid_reply',
      `speech server /audio/speech did not answer a WAV (${contentType || 'no content type'}): ${error.message}`,
    );
  }
}
