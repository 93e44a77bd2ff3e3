import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { usageRoutes } from './routes.ts';

export function createUsageModule(deps: Pick<CoreDeps, 'db' | 'clock'>) {
  return { routes: [(app: AppInstance) => usageRoutes(app, deps)] };
}
