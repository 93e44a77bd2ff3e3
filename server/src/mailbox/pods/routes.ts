import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { Timestamp } from '../schemas.ts';
import { toPod } from './present.ts';
import type { PodService } from './service.ts';

const tags = ['Pods'];

export const Pod = Type.Object(
  {
    pod_id: Type.String({ examples: ['pod_5n2k8q0c1x7m3v9b4h6d'] }),
    name: Type.String(),
    client_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Pod', title: 'Pod' },
);

/** Pods group inboxes (and domains) of one namespace, e.g. one per end customer of an agent product. */
export const podRoutes: RouteModule<{ pods: PodService }> = (app, { pods }) => {
  app.post(
    '/pods',
    {
      config: { scope: 'inboxes.write' },
      schema: {
        tags,
        operationId: 'createPod',
        summary: 'Create a pod',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          },
          { additionalProperties: false, examples: [{ name: 'customer-42' }] },
        ),
        response: withErrors({ 201: Pod }),
      },
    },
    async (request, reply) => reply.status(201).send(toPod(await pods.create(request.mailbox, request.body))),
  );

  app.get(
    '/pods',
    {
      config: { scope: 'inboxes.read' },
      schema: {
        tags,
        operationId: 'listPods',
        summary: 'List pods',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('pods', Pod) }),
      },
    },
    async (request) => pods.list(request.mailbox, request.query),
  );

  app.get(
    '/pods/:pod_id',
    {
      config: { scope: 'inboxes.read' },
      schema: {
        tags,
        operationId: 'getPod',
        summary: 'Get a pod',
        params: Type.Object({ pod_id: Type.String() }),
        response: withErrors({ 200: Pod }),
      },
    },
    async (request) => toPod(await pods.get(request.mailbox, request.params.pod_id)),
  );

  app.delete(
    '/pods/:pod_id',
    {
      config: { scope: 'inboxes.write' },
      schema: {
        tags,
        operationId: 'deletePod',
        summary: 'Delete an empty pod',
        description:
          'Only a pod without inboxes, domains, unrevoked keys restricted to it and webhooks (409 `resource_conflict` naming what is left); its allow and block lists go with it. Needs a key that is not restricted to inboxes or a pod.',
        params: Type.Object({ pod_id: Type.String() }),
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await pods.delete(request.mailbox, request.params.pod_id);
      return reply.status(204).send(null);
    },
  );
};
