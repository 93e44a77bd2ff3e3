// A short sentence in each catalog voice, spoken by the service's own speech engine (the embedded
// Flite by default, or the OpenAI-compatible server of TTS_BASE_URL), so an author hears the voice a
// persona will have in the room (GET /v1/voices/{id}/sample). Each voice is synthesised once per
// process and kept in memory: the catalog is fixed and a sample is a few tens of kilobytes.
import { AppError } from '../../core/http/errors.ts';
import type { SpeechSynthesizer } from '../speech/types.ts';
import { encodeWav } from '../speech/wav.ts';
import type { Voice } from './catalog.ts';

export const sampleSentence = (voice: Voice) =>
  `Hello, I am ${voice.name}. This is how I will sound in your practice meetings.`;

export class VoiceSamples {
  readonly #synthesizer: SpeechSynthesizer | null;
  readonly #cache = new Map<string, Promise<Buffer>>();

  constructor(synthesizer: SpeechSynthesizer | null) {
    this.#synthesizer = synthesizer;
  }

  /** The WAV (PCM s16le mono) of the voice's sample sentence. */
  sample(voice: Voice): Promise<Buffer> {
    const synthesizer = this.#synthesizer;
    if (!synthesizer) {
      return Promise.reject(
        new AppError(
          'service_unavailable',
          'This server has no speech engine (TTS_ENGINE=off): voices are heard only through the participant’s browser.',
        ),
      );
    }
    let sample = this.#cache.get(voice.id);
    if (!sample) {
      sample = synthesizer
        .synthesize(sampleSentence(voice), {
          ttsVoice: voice.tts_voice,
          gender: voice.gender,
          voiceId: voice.id,
          language: voice.language,
        })
        .then(({ pcm, sampleRate }) => encodeWav(pcm, sampleRate))
        .catch((error: unknown) => {
          // A failure is not cached: the next request tries again.
          this.#cache.delete(voice.id);
          throw new AppError('upstream_error', 'The speech engine could not synthesise the sample.', {
            cause: error,
          });
        });
      this.#cache.set(voice.id, sample);
    }
    return sample;
  }
}
