import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { feedbackRoutes } from './routes.ts';
import { FeedbackService } from './service.ts';

export function createFeedbackModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'secretBox'>) {
  const feedback = new FeedbackService(deps);
  return { feedback, routes: [(app: AppInstance) => feedbackRoutes(app, { feedback })] };
}
