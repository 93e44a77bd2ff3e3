import { Type } from 'typebox';
import { PageQuery, pageEnvelope } from '../../core/http/pagination.ts';
import { listName, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  CreateWebhookEndpointBody,
  DeliveryIdParams,
  EndpointIdParams,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryWithPayload,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './schemas.ts';
import type { WebhookEndpointService } from './service.ts';

const tags = ['Webhooks'];
const one = <T extends Parameters<typeof Type.Object>[0][string]>(data: T) => Type.Object({ data });

export const webhookRoutes: RouteModule<{ webhooks: WebhookEndpointService }> = (app, { webhooks }) => {
  app.post(
    '/webhooks/endpoints',
    {
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint. The signing secret is returned only in this response.',
        body: CreateWebhookEndpointBody,
        response: withErrors({ 201: one(WebhookEndpointWithSecret) }),
      },
    },
    async (request, reply) => {
      const data = await webhooks.create(request.principal, request.body);
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/webhooks/endpoints',
    {
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first. Send `limit` or `cursor` to page.',
        querystring: PageQuery,
        response: withErrors({
          200: Type.Object(
            {
              data: Type.Array(WebhookEndpoint),
              object: Type.Optional(Type.Literal('list')),
              has_more: Type.Optional(Type.Boolean()),
              next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            },
            listName(WebhookEndpoint),
          ),
        }),
      },
    },
    async (request) => {
      const page = webhooks.paginate(request.query, request.principal);
      const result = await webhooks.list(request.principal, page);
      return Array.isArray(result) ? { data: result } : result;
    },
  );

  app.get(
    '/webhooks/endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'getWebhookEndpoint',
        params: EndpointIdParams,
        response: withErrors({ 200: one(WebhookEndpoint) }),
      },
    },
    async (request) => ({ data: await webhooks.get(request.principal, request.params.id) }),
  );

  app.patch(
    '/webhooks/endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary:
          'Change an endpoint. `enabled: false` pauses it: deliveries are held, then sent on re-enable.',
        params: EndpointIdParams,
        body: UpdateWebhookEndpointBody,
        response: withErrors({ 200: one(WebhookEndpoint) }),
      },
    },
    async (request) => ({ data: await webhooks.update(request.principal, request.params.id, request.body) }),
  );

  app.delete(
    '/webhooks/endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint. Deliveries not yet made to it are cancelled.',
        params: EndpointIdParams,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await webhooks.delete(request.principal, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/endpoints/:id/rotate-secret',
    {
      schema: {
        tags,
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Issue a new signing secret. The previous one keeps signing beside it for 24 hours.',
        params: EndpointIdParams,
        response: withErrors({ 200: one(WebhookEndpointWithSecret) }),
      },
    },
    async (request) => ({ data: await webhooks.rotateSecret(request.principal, request.params.id) }),
  );

  app.get(
    '/webhooks/endpoints/:id/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveryAttempts',
        summary: 'The delivery attempt log of an endpoint, newest first; always paginated (default 25).',
        params: EndpointIdParams,
        querystring: PageQuery,
        response: withErrors({ 200: pageEnvelope(WebhookDeliveryAttempt) }),
      },
    },
    async (request) => webhooks.listAttempts(request.principal, request.params.id, request.query),
  );

  app.get(
    '/webhooks/deliveries/:deliveryId',
    {
      schema: {
        tags,
        operationId: 'getWebhookDelivery',
        summary:
          'One delivery with the body it sends (the event envelope), for inspecting what an endpoint got.',
        params: DeliveryIdParams,
        response: withErrors({ 200: one(WebhookDeliveryWithPayload) }),
      },
    },
    async (request) => ({ data: await webhooks.getDelivery(request.principal, request.params.deliveryId) }),
  );

  app.post(
    '/webhooks/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again now: same event id, same body, one extra attempt.',
        params: DeliveryIdParams,
        response: withErrors({ 202: one(WebhookDelivery) }),
      },
    },
    async (request, reply) => {
      const data = await webhooks.redeliver(request.principal, request.params.deliveryId);
      return reply.status(202).send({ data });
    },
  );
};
