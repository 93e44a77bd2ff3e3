import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import { toInbox } from './present.ts';
import { CreateInboxBody, Inbox, UpdateInboxBody } from './schemas.ts';
import type { InboxService } from './service.ts';

const tags = ['Inboxes'];

export const inboxRoutes: RouteModule<{ inboxes: InboxService }> = (app, { inboxes }) => {
  app.post(
    '/inboxes',
    {
      config: { scope: 'inboxes.write' },
      schema: {
        tags,
        operationId: 'createInbox',
        summary: 'Create an inbox',
        body: CreateInboxBody,
        response: withErrors({ 201: Inbox }),
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.create(request.mailbox, request.body);
      return reply.status(201).send(toInbox(inbox));
    },
  );

  app.get(
    '/inboxes',
    {
      config: { scope: 'inboxes.read' },
      schema: {
        tags,
        operationId: 'listInboxes',
        summary: 'List the inboxes visible to the key',
        querystring: Type.Object(
          { ...ListQuery.properties, pod_id: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: listEnvelope('inboxes', Inbox) }),
      },
    },
    async (request) => inboxes.list(request.mailbox, request.query),
  );

  app.get(
    '/inboxes/:inbox_id',
    {
      config: { scope: 'inboxes.read' },
      schema: {
        tags,
        operationId: 'getInbox',
        summary: 'Get an inbox',
        params: InboxIdParam,
        response: withErrors({ 200: Inbox }),
      },
    },
    async (request) => toInbox(await inboxes.get(request.mailbox, request.params.inbox_id)),
  );

  app.patch(
    '/inboxes/:inbox_id',
    {
      config: { scope: 'inboxes.write' },
      schema: {
        tags,
        operationId: 'updateInbox',
        summary: 'Change the display name',
        params: InboxIdParam,
        body: UpdateInboxBody,
        response: withErrors({ 200: Inbox }),
      },
    },
    async (request) => toInbox(await inboxes.update(request.mailbox, request.params.inbox_id, request.body)),
  );

  app.delete(
    '/inboxes/:inbox_id',
    {
      config: { scope: 'inboxes.write' },
      schema: {
        tags,
        operationId: 'deleteInbox',
        summary: 'Delete an inbox with its messages, threads and drafts',
        params: InboxIdParam,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await inboxes.delete(request.mailbox, request.params.inbox_id);
      return reply.status(204).send(null);
    },
  );
};
