import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { Thread } from '../messages/schemas.ts';
import { listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import type { ThreadService } from './service.ts';

const tags = ['Threads'];

export const threadRoutes: RouteModule<{ threads: ThreadService }> = (app, { threads }) => {
  app.get(
    '/inboxes/:inbox_id/threads',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'listThreads',
        summary: 'List threads, most recently active first',
        params: InboxIdParam,
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            page_token: Type.Optional(Type.String()),
            labels: Type.Optional(Type.Array(Type.String())),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: listEnvelope('threads', Thread) }),
      },
    },
    async (request) => threads.list(request.mailbox, request.params.inbox_id, request.query),
  );

  app.get(
    '/inboxes/:inbox_id/threads/:thread_id',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'getThread',
        summary: 'Get a thread with its messages, oldest first',
        params: Type.Object({ ...InboxIdParam.properties, thread_id: Type.String() }),
        response: withErrors({ 200: Thread }),
      },
    },
    async (request) => threads.get(request.mailbox, request.params.inbox_id, request.params.thread_id),
  );
};
