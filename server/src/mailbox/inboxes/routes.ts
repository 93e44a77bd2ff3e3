import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { emptyBodyAsObject } from '../../core/http/validation.ts';
import { byCreation, keyset, ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';
import { toInbox } from './present.ts';
import { inboxesRepository } from './repository.ts';
import { CreateInboxBody, Inbox, UpdateInboxBody } from './schemas.ts';
import { loadInbox } from './service.ts';

const tags = ['Inboxes'];

export function inboxRoutes(app: AppInstance, deps: MailboxDeps): void {
  app.post(
    '/inboxes',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        operationId: 'createInbox',
        summary: 'Create an inbox',
        body: CreateInboxBody,
        response: withErrors({ 201: Inbox }),
      },
    },
    async (request, reply) => {
      const inbox = await deps.inboxes.create(request.mailbox, request.body);
      return reply.status(201).send(toInbox(inbox));
    },
  );

  app.get(
    '/inboxes',
    {
      schema: {
        tags,
        operationId: 'listInboxes',
        summary: 'List the inboxes visible to the key',
        querystring: Type.Object({ ...ListQuery.properties, pod_id: Type.Optional(Type.String()) }),
        response: withErrors({ 200: listEnvelope('inboxes', Inbox) }),
      },
    },
    async (request) => {
      const principal = request.mailbox;
      const page = deps.pageTokens.parse(request.query, 'inboxes', principal.subject);
      const rows = await inboxesRepository.list(deps.db, principal.reach, keyset(page), request.query.pod_id);
      return deps.pageTokens.envelope('inboxes', page, rows, byCreation, toInbox);
    },
  );

  app.get(
    '/inboxes/:inbox_id',
    {
      schema: {
        tags,
        operationId: 'getInbox',
        summary: 'Get an inbox',
        params: InboxIdParam,
        response: withErrors({ 200: Inbox }),
      },
    },
    async (request) => toInbox(await loadInbox(deps.db, request.mailbox, request.params.inbox_id)),
  );

  app.patch(
    '/inboxes/:inbox_id',
    {
      schema: {
        tags,
        operationId: 'updateInbox',
        summary: 'Change the display name',
        params: InboxIdParam,
        body: UpdateInboxBody,
        response: withErrors({ 200: Inbox }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      return toInbox(
        await inboxesRepository.update(deps.db, inbox.id, {
          display_name: request.body.display_name,
          updated_at: deps.clock.now(),
        }),
      );
    },
  );

  app.delete(
    '/inboxes/:inbox_id',
    {
      schema: {
        tags,
        operationId: 'deleteInbox',
        summary: 'Delete an inbox with its messages, threads and drafts',
        params: InboxIdParam,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deps.inboxes.delete(request.mailbox, request.params.inbox_id);
      return reply.status(204).send(null);
    },
  );
}
