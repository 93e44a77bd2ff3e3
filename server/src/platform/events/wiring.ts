import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { eventRoutes } from './routes.ts';
import { EventLogService } from './service.ts';

/** The event log and the event-type catalogue (the emitter itself is a shared adapter). */
export function createEventsModule(deps: Pick<CoreDeps, 'db' | 'paginator'>) {
  const eventLog = new EventLogService({ db: deps.db, paginator: deps.paginator });
  return { eventLog, routes: [(app: AppInstance) => eventRoutes(app, { eventLog })] };
}
