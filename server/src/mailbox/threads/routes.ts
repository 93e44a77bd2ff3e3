import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { DeletedThread, DeleteQuery, Thread } from '../messages/schemas.ts';
import { InboxIdParam } from '../schemas.ts';
import type { ThreadService } from './service.ts';

const tags = ['Threads'];

const ThreadParams = Type.Object({ ...InboxIdParam.properties, thread_id: Type.String() });

export const threadRoutes: RouteModule<{ threads: ThreadService }> = (app, { threads }) => {
  app.get(
    '/inboxes/:inbox_id/threads/:thread_id',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'getThread',
        summary: 'Get a thread with its messages, oldest first',
        params: ThreadParams,
        response: withErrors({ 200: Thread }),
      },
    },
    async (request) => threads.get(request.mailbox, request.params.inbox_id, request.params.thread_id),
  );

  app.delete(
    '/inboxes/:inbox_id/threads/:thread_id',
    {
      config: { scope: 'messages.write' },
      schema: {
        tags,
        operationId: 'deleteThread',
        summary: 'Move a thread to the trash, or delete it for good with `permanent=true`',
        description:
          'Without `permanent` every message of the thread gets the label `trash` (the thread is hidden from lists and searches unless `labels=trash`; POST …/restore brings it back). With `permanent=true` the thread and its messages are deleted with their raw bytes and attachments, and `thread.deleted` fires.',
        params: ThreadParams,
        querystring: DeleteQuery,
        response: withErrors({ 200: DeletedThread }),
      },
    },
    async (request) =>
      threads.delete(
        request.mailbox,
        request.params.inbox_id,
        request.params.thread_id,
        request.query.permanent ?? false,
      ),
  );

  app.post(
    '/inboxes/:inbox_id/threads/:thread_id/restore',
    {
      config: { scope: 'messages.write' },
      schema: {
        tags,
        operationId: 'restoreThread',
        summary: 'Take a thread (every message of it) out of the trash',
        params: ThreadParams,
        response: withErrors({ 200: Thread }),
      },
    },
    async (request) => threads.restore(request.mailbox, request.params.inbox_id, request.params.thread_id),
  );
};
