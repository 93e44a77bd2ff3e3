import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { UpdateWorkspaceBody, Workspace } from './schemas.ts';
import type { WorkspaceService } from './service.ts';

const tags = ['Workspace'];

export const workspaceRoutes: RouteModule<{ workspace: WorkspaceService }> = (app, { workspace }) => {
  app.get(
    '/workspace',
    {
      schema: {
        tags,
        operationId: 'getWorkspace',
        summary:
          'The workspace the credential belongs to: its name, its meeting retention, and which engine plays its personas.',
        response: withErrors({ 200: Workspace }),
      },
    },
    async (request) => workspace.get(request.principal),
  );

  app.patch(
    '/workspace',
    {
      schema: {
        tags,
        operationId: 'updateWorkspace',
        summary:
          'Rename the workspace or set `meeting_retention_days` (1 to 3650, null keeps meetings forever): only the fields sent change.',
        body: UpdateWorkspaceBody,
        response: withErrors({ 200: Workspace }),
      },
    },
    async (request) => workspace.update(request.principal, request.body),
  );
};
