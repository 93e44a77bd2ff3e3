import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { DraftSendBody, Message } from '../messages/schemas.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import { toDraft } from './present.ts';
import { CreateDraftBody, Draft, DraftParams, UpdateDraftBody } from './schemas.ts';
import type { DraftService } from './service.ts';

const tags = ['Drafts'];

export const draftRoutes: RouteModule<{ drafts: DraftService }> = (app, { drafts }) => {
  app.post(
    '/inboxes/:inbox_id/drafts',
    {
      config: { scope: 'drafts.write', messageBody: true },
      schema: {
        tags,
        operationId: 'createDraft',
        summary: 'Create a draft (fires draft.created)',
        params: InboxIdParam,
        body: CreateDraftBody,
        response: withErrors({ 201: Draft }),
      },
    },
    async (request, reply) => {
      const draft = await drafts.create(request.mailbox, request.params.inbox_id, request.body);
      return reply.status(201).send(toDraft(draft));
    },
  );

  app.get(
    '/inboxes/:inbox_id/drafts',
    {
      config: { scope: 'drafts.read' },
      schema: {
        tags,
        operationId: 'listDrafts',
        summary: 'List drafts, newest first',
        params: InboxIdParam,
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('drafts', Draft) }),
      },
    },
    async (request) => drafts.list(request.mailbox, request.params.inbox_id, request.query),
  );

  app.get(
    '/inboxes/:inbox_id/drafts/:draft_id',
    {
      config: { scope: 'drafts.read' },
      schema: {
        tags,
        operationId: 'getDraft',
        summary: 'Get a draft',
        params: DraftParams,
        response: withErrors({ 200: Draft }),
      },
    },
    async (request) => {
      const { draft } = await drafts.get(request.mailbox, request.params.inbox_id, request.params.draft_id);
      return toDraft(draft);
    },
  );

  app.patch(
    '/inboxes/:inbox_id/drafts/:draft_id',
    {
      config: { scope: 'drafts.write', messageBody: true },
      schema: {
        tags,
        operationId: 'updateDraft',
        summary: 'Change a draft (fires draft.updated)',
        description: 'Only the fields given change; null clears one; `attachments` replaces the list.',
        params: DraftParams,
        body: UpdateDraftBody,
        response: withErrors({ 200: Draft }),
      },
    },
    async (request) =>
      toDraft(
        await drafts.update(request.mailbox, request.params.inbox_id, request.params.draft_id, request.body),
      ),
  );

  app.delete(
    '/inboxes/:inbox_id/drafts/:draft_id',
    {
      config: { scope: 'drafts.write' },
      schema: {
        tags,
        operationId: 'deleteDraft',
        summary: 'Delete a draft',
        params: DraftParams,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await drafts.delete(request.mailbox, request.params.inbox_id, request.params.draft_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/inboxes/:inbox_id/drafts/:draft_id/send',
    {
      config: { scope: 'messages.send' },
      schema: {
        tags,
        operationId: 'sendDraft',
        summary: 'Send a draft; the draft is removed and the sent message returned',
        description:
          'Queued and answered like `messages/send` (`sent`, `rejected`, or `sending` when the relay is slow); optional body `{ send_at }` schedules it.',
        params: DraftParams,
        body: DraftSendBody,
        response: withErrors({ 200: Message }),
      },
      // The body is optional: a bare POST sends at once.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) =>
      drafts.send(request.mailbox, request.params.inbox_id, request.params.draft_id, request.body),
  );
};
