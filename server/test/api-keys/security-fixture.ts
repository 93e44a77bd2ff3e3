import type { SecurityFixture } from '../security.ts';

export const apiKeysSecurity: SecurityFixture = {
  resource: 'API keys',
  // docs/api-conventions.md: "/v1/api-secrets accepts user tokens only".
  userTokenOnly: true,
  routes: {
    'POST /api-secrets': { body: () => ({ name: 'key' }), noForeignIds: 'creates in the caller’s workspace' },
    'GET /api-secrets': { noForeignIds: 'lists the caller’s workspace' },
    'GET /api-secrets/scopes': { noForeignIds: 'the same list for every workspace' },
    'GET /api-secrets/{id}': {},
    'DELETE /api-secrets/{id}': {},
    'POST /api-secrets/{id}/revoke': {},
    'POST /api-secrets/{id}/reactivate': {},
  },
  async setup(ws) {
    return { id: String(ws.keyId) };
  },
};
