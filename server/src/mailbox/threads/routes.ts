import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { notFound } from '../auth/principal.ts';
import { loadInbox } from '../inboxes/service.ts';
import { toMessage, toThread } from '../messages/present.ts';
import { messagesRepository } from '../messages/repository.ts';
import { Thread } from '../messages/schemas.ts';
import { byTimestamp, keyset, listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';
import { threadsRepository } from './repository.ts';

const tags = ['Threads'];

export function threadRoutes(app: AppInstance, deps: MailboxDeps): void {
  app.get(
    '/inboxes/:inbox_id/threads',
    {
      schema: {
        tags,
        operationId: 'listThreads',
        summary: 'List threads, most recently active first',
        params: InboxIdParam,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          page_token: Type.Optional(Type.String()),
          labels: Type.Optional(Type.Array(Type.String())),
        }),
        response: withErrors({ 200: listEnvelope('threads', Thread) }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const page = deps.pageTokens.parse(request.query, `threads:${inbox.id}`, request.mailbox.subject);
      const rows = await threadsRepository.list(deps.db, inbox.id, keyset(page), request.query.labels);
      return deps.pageTokens.envelope('threads', page, rows, byTimestamp, (r) => toThread(r));
    },
  );

  app.get(
    '/inboxes/:inbox_id/threads/:thread_id',
    {
      schema: {
        tags,
        operationId: 'getThread',
        summary: 'Get a thread with its messages, oldest first',
        params: Type.Object({ ...InboxIdParam.properties, thread_id: Type.String() }),
        response: withErrors({ 200: Thread }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const thread = await threadsRepository.get(deps.db, [inbox.id], request.params.thread_id);
      if (!thread) throw notFound('thread', 'thread_id');
      const rows = await messagesRepository.inThread(deps.db, thread.id);
      const attachments = await messagesRepository.attachmentsFor(
        deps.db,
        rows.map((r) => r.id),
      );
      return toThread(
        thread,
        rows.map((r) => toMessage(r, attachments.get(r.id))),
      );
    },
  );
}
