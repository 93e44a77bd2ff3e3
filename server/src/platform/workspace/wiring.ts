import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { workspaceRoutes } from './routes.ts';
import { WorkspaceService } from './service.ts';

/** The workspace's settings (`/v1/workspace`); the meetings module's retention sweep reads them. */
export function createWorkspaceModule(deps: Pick<CoreDeps, 'db'>) {
  const workspace = new WorkspaceService({ db: deps.db });
  return { workspace, routes: [(app: AppInstance) => workspaceRoutes(app, { workspace })] };
}
