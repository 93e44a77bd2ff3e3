import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { Message, Thread } from '../messages/schemas.ts';
import { listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import { SearchQuery } from './schemas.ts';
import type { SearchService } from './service.ts';

const SEARCH =
  'Filters: `q` (full text over subject, body and participants), `from`, `to`, `labels`, `after`, `before`, `has_attachments`; all must match. Mail in the trash and blocked mail are left out unless their label is asked for.';

/** Every list of messages and threads: per inbox and across the inboxes the key reaches. */
export const searchRoutes: RouteModule<{ search: SearchService }> = (app, { search }) => {
  const scope = { scope: 'messages.read' } as const;

  app.get(
    '/inboxes/:inbox_id/messages',
    {
      config: scope,
      schema: {
        tags: ['Messages'],
        operationId: 'listMessages',
        summary: 'List or search the messages of an inbox, newest first',
        description: SEARCH,
        params: InboxIdParam,
        querystring: SearchQuery,
        response: withErrors({ 200: listEnvelope('messages', Message) }),
      },
    },
    async (request) => search.messages(request.mailbox, request.params.inbox_id, request.query),
  );

  app.get(
    '/inboxes/:inbox_id/threads',
    {
      config: scope,
      schema: {
        tags: ['Threads'],
        operationId: 'listThreads',
        summary: 'List or search the threads of an inbox, most recently active first',
        description: `${SEARCH} A thread matches when one of its messages matches every message filter; \`labels\` are the thread's.`,
        params: InboxIdParam,
        querystring: SearchQuery,
        response: withErrors({ 200: listEnvelope('threads', Thread) }),
      },
    },
    async (request) => search.threads(request.mailbox, request.params.inbox_id, request.query),
  );

  app.get(
    '/messages',
    {
      config: scope,
      schema: {
        tags: ['Messages'],
        operationId: 'searchMessages',
        summary: 'List or search messages across every inbox the key reaches, newest first',
        description: `${SEARCH} Each message carries its \`inbox_id\`.`,
        querystring: SearchQuery,
        response: withErrors({ 200: listEnvelope('messages', Message) }),
      },
    },
    async (request) => search.messages(request.mailbox, null, request.query),
  );

  app.get(
    '/threads',
    {
      config: scope,
      schema: {
        tags: ['Threads'],
        operationId: 'searchThreads',
        summary: 'List or search threads across every inbox the key reaches, most recently active first',
        description: `${SEARCH} A thread matches when one of its messages matches every message filter. Each thread carries its \`inbox_id\`.`,
        querystring: SearchQuery,
        response: withErrors({ 200: listEnvelope('threads', Thread) }),
      },
    },
    async (request) => search.threads(request.mailbox, null, request.query),
  );
};
