import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';
import { functionName, ORDER_LOOKUP_SCHEMA } from './helpers.ts';

const body = () => ({
  name: functionName(),
  description: 'Looks up an order.',
  parameters_schema: ORDER_LOOKUP_SCHEMA,
  // Loopback port 9 (discard), where nothing listens: the test call fails at once, on no network.
  webhook_url: 'http://127.0.0.1:9/lookup',
});

export const customFunctionsSecurity: SecurityFixture = {
  resource: 'custom functions and their attachments',
  routes: {
    'POST /custom-functions': { body, noForeignIds: 'creates in the caller’s workspace' },
    'GET /custom-functions': { noForeignIds: 'lists the caller’s workspace' },
    'GET /custom-functions/{id}': {},
    'PATCH /custom-functions/{id}': { body: () => ({ description: 'Changed.' }) },
    'DELETE /custom-functions/{id}': {},
    'POST /custom-functions/{id}/rotate-secret': {},
    // The call is refused by the closed port: 200 with `error`, all the security checks need.
    'POST /custom-functions/{id}/test': { body: () => ({ arguments: {} }) },
    'GET /scenarios/{scenarioId}/custom-functions': {},
    'POST /scenarios/{scenarioId}/custom-functions/{functionId}/attach': {},
    'DELETE /scenarios/{scenarioId}/custom-functions/{functionId}': {},
  },
  async setup(ws) {
    const { scenarioId } = await createAuthoring(ws);
    const created = ok(await ws.call('POST', '/custom-functions', body()), 201).data;
    ok(await ws.call('POST', `/scenarios/${scenarioId}/custom-functions/${created.id}/attach`));
    return { id: created.id, functionId: created.id, scenarioId };
  },
};
