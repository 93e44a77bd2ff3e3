import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { goalRoutes } from './routes.ts';
import { GoalService } from './service.ts';

export function createGoalsModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator'>) {
  const goals = new GoalService(deps);
  return { goals, routes: [(app: AppInstance) => goalRoutes(app, { goals })] };
}
