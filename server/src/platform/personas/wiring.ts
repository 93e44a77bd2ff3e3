import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { registerAvatarAssets } from './assets.ts';
import { personaRoutes } from './routes.ts';
import { PersonaService } from './service.ts';

/** Personas, and the avatar images they link to (served outside /v1). */
export function createPersonasModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator' | 'config'>) {
  const { db, clock, paginator, config } = deps;
  const personas = new PersonaService({ db, clock, paginator, publicUrl: config.publicUrl });
  return {
    personas,
    routes: [(app: AppInstance) => personaRoutes(app, { personas, paginator, config })],
    publicRoutes: [registerAvatarAssets],
  };
}
