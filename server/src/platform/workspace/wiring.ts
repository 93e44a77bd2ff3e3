import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { workspaceRoutes } from './routes.ts';
import { WorkspaceService } from './service.ts';

/**
 * The workspace's settings (`/v1/workspace`); the meetings module's retention sweep reads them. The
 * read also says which engine plays the personas (the server's LLM or the offline engine).
 */
export function createWorkspaceModule(deps: Pick<CoreDeps, 'db' | 'config'>) {
  const workspace = new WorkspaceService({ db: deps.db, llmModel: deps.config.llm?.model ?? null });
  return { workspace, routes: [(app: AppInstance) => workspaceRoutes(app, { workspace })] };
}
