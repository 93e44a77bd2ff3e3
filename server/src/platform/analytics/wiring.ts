import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { analyticsRoutes } from './routes.ts';
import { AnalyticsService } from './service.ts';

/** Team analytics over analysed meetings and assignments (docs/analytics.md). */
export function createAnalyticsModule(deps: Pick<CoreDeps, 'db' | 'clock'>) {
  const analytics = new AnalyticsService(deps);
  return { analytics, routes: [(app: AppInstance) => analyticsRoutes(app, { analytics })] };
}
