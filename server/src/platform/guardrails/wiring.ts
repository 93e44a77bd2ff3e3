import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { guardrailRoutes } from './routes.ts';
import { GuardrailService } from './service.ts';

export function createGuardrailsModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'secretBox' | 'paginator'>) {
  const guardrails = new GuardrailService(deps);
  return { guardrails, routes: [(app: AppInstance) => guardrailRoutes(app, { guardrails })] };
}
