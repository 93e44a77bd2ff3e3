import type { SecurityFixture } from '../security.ts';

export const workspaceSecurity: SecurityFixture = {
  resource: 'the workspace settings',
  routes: {
    'GET /workspace': { noForeignIds: 'the credential’s own workspace, named by no id' },
    'PATCH /workspace': {
      body: () => ({ meeting_retention_days: 30 }),
      noForeignIds: 'the credential’s own workspace, named by no id',
    },
  },
  async setup() {
    return {};
  },
};
