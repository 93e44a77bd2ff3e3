import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

export const webhooksSecurity: SecurityFixture = {
  resource: 'webhook endpoints and deliveries',
  routes: {
    'POST /webhooks/endpoints': {
      body: () => ({ url: 'http://127.0.0.1:9/hook' }),
      noForeignIds: 'creates in the caller’s workspace',
    },
    'GET /webhooks/endpoints': { noForeignIds: 'lists the caller’s workspace' },
    'GET /webhooks/endpoints/{id}': {},
    'PATCH /webhooks/endpoints/{id}': { body: () => ({ enabled: false }) },
    'DELETE /webhooks/endpoints/{id}': {},
    'POST /webhooks/endpoints/{id}/rotate-secret': {},
    'GET /webhooks/endpoints/{id}/deliveries': {},
    'GET /webhooks/deliveries/{deliveryId}': {},
    'POST /webhooks/deliveries/{deliveryId}/redeliver': {},
  },
  async setup(ws, t) {
    const endpoint = ok(
      await ws.call('POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' }),
      201,
    );
    const endpointId: string = endpoint.data?.id ?? endpoint.id;
    // An event of the workspace queues one delivery to the endpoint.
    await t.deps.db.transaction().execute((tx) =>
      t.deps.events.emit(tx, {
        accountId: ws.accountId,
        event: 'meeting.created',
        data: { meeting_id: crypto.randomUUID(), scenario_id: crypto.randomUUID() },
      } as never),
    );
    const delivery = await t.deps.db
      .selectFrom('deliveries')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    return { id: endpointId, deliveryId: String(delivery.id) };
  },
};
