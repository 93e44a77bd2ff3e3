import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { reportRoutes } from './routes.ts';
import { ReportService } from './service.ts';

/** Learner reports and coaches' comments (docs/reports.md). */
export function createReportsModule(deps: Pick<CoreDeps, 'db' | 'clock'>) {
  const reports = new ReportService(deps);
  return { reports, routes: [(app: AppInstance) => reportRoutes(app, { reports })] };
}
