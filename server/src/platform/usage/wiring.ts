import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { usageRoutes } from './routes.ts';
import { UsageService } from './service.ts';

export function createUsageModule(deps: Pick<CoreDeps, 'db' | 'clock'>) {
  const usage = new UsageService({ db: deps.db, clock: deps.clock });
  return { usage, routes: [(app: AppInstance) => usageRoutes(app, { usage })] };
}
