import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { peopleRoutes } from './routes.ts';
import { PeopleService } from './service.ts';

/** People and their history (docs/people.md); meetings resolve their person through the service. */
export function createPeopleModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator'>) {
  const people = new PeopleService(deps);
  return { people, routes: [(app: AppInstance) => peopleRoutes(app, { people })] };
}
