import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { SpeechSynthesizer } from '../speech/types.ts';
import { registerAvatarAssets } from './assets.ts';
import { personaRoutes } from './routes.ts';
import { PersonaService } from './service.ts';
import { VoiceSamples } from './voice-samples.ts';

/** Personas, voice samples, and the avatar images they link to (served outside /v1). */
export function createPersonasModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator' | 'config'> & {
    /** The service's text-to-speech engine (null when TTS_ENGINE=off): voice samples. */
    synthesizer: SpeechSynthesizer | null;
  },
) {
  const { db, clock, paginator, config } = deps;
  const personas = new PersonaService({ db, clock, paginator, publicUrl: config.publicUrl });
  const voiceSamples = new VoiceSamples(deps.synthesizer);
  return {
    personas,
    routes: [(app: AppInstance) => personaRoutes(app, { personas, paginator, config, voiceSamples })],
    publicRoutes: [registerAvatarAssets],
  };
}
