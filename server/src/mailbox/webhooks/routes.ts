import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { CreatedWebhook, CreateWebhookBody, Delivery, UpdateWebhookBody, Webhook } from './schemas.ts';
import { toWebhook, type WebhookService } from './service.ts';

const tags = ['Webhooks'];
const WebhookParams = Type.Object({ webhook_id: Type.String() });

export const webhookRoutes: RouteModule<{ webhooks: WebhookService }> = (app, { webhooks }) => {
  app.post(
    '/webhooks',
    {
      config: { scope: 'webhooks.write' },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook',
        body: CreateWebhookBody,
        response: withErrors({ 201: CreatedWebhook }),
      },
    },
    async (request, reply) => {
      const { row, secret } = await webhooks.create(request.mailbox, request.body);
      return reply.status(201).send({ ...toWebhook(row), secret });
    },
  );

  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks.read' },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('webhooks', Webhook) }),
      },
    },
    async (request) => webhooks.list(request.mailbox, request.query),
  );

  app.get(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'webhooks.read' },
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        params: WebhookParams,
        response: withErrors({ 200: Webhook }),
      },
    },
    async (request) => toWebhook(await webhooks.get(request.mailbox, request.params.webhook_id)),
  );

  app.patch(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'webhooks.write' },
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change url, event_types or enabled',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: withErrors({ 200: Webhook }),
      },
    },
    async (request) =>
      toWebhook(await webhooks.update(request.mailbox, request.params.webhook_id, request.body)),
  );

  app.delete(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'webhooks.write' },
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        params: WebhookParams,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await webhooks.delete(request.mailbox, request.params.webhook_id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      config: { scope: 'webhooks.read' },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery history, newest first, with every attempt',
        params: WebhookParams,
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('deliveries', Delivery) }),
      },
    },
    async (request) => webhooks.deliveries(request.mailbox, request.params.webhook_id, request.query),
  );

  app.post(
    '/webhooks/deliveries/:delivery_id/retry',
    {
      config: { scope: 'webhooks.write' },
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again now (same delivery id, same body)',
        params: Type.Object({ delivery_id: Type.String() }),
        response: withErrors({ 202: Delivery }),
      },
    },
    async (request, reply) =>
      reply.status(202).send(await webhooks.retry(request.mailbox, request.params.delivery_id)),
  );
};
