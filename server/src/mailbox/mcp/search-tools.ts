import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';
import { PAGE, PAGING } from './inbox-tools.ts';

/** The search filters, as a model should read them (the routes' own schema describes each field). */
export const FILTERS =
  '`q` searches subject, body and participants (names and addresses) for whole words, any case: `"a phrase"`, `or`, `-word` to exclude. Also `from` / `to` (an address, or a domain with its subdomains), `labels` (every one must be carried), `after` / `before` (a date or date-time, `after` inclusive), `has_attachments`. Mail in the trash is left out unless `labels` has "trash".';

/** Restoring twice leaves the same state (POST's default annotations say otherwise). */
const idempotent = (tool: McpTool): McpTool => ({
  ...tool,
  annotations: { ...tool.annotations, idempotentHint: true },
});

/** Search across inboxes, and the trash: delete, restore, delete for good. */
export const searchTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'search_messages',
    title: 'Search messages',
    route: 'GET /v0/messages',
    queryDefaults: PAGE,
    description: `Search the messages of every inbox this key can reach, newest first; each result has its \`inbox_id\`. ${FILTERS} To search one inbox use list_messages, which takes the same filters. ${PAGING}`,
  }),
  routeTool(routes, {
    name: 'search_threads',
    title: 'Search threads',
    route: 'GET /v0/threads',
    queryDefaults: PAGE,
    description: `Search the conversations of every inbox this key can reach, most recently active first; a thread matches when one of its messages matches every filter. ${FILTERS} To search one inbox use list_threads. ${PAGING}`,
  }),
  routeTool(routes, {
    name: 'delete_message',
    title: 'Delete a message',
    route: 'DELETE /v0/inboxes/:inbox_id/messages/:message_id',
    description:
      'Move a message to the trash: it gets the label "trash" and leaves lists and searches; restore_message brings it back, and deleting it again changes nothing. With `permanent: true` it is deleted for good, with its raw message and attachments: that cannot be undone.',
  }),
  idempotent(
    routeTool(routes, {
      name: 'restore_message',
      title: 'Restore a message',
      route: 'POST /v0/inboxes/:inbox_id/messages/:message_id/restore',
      description: 'Take a message out of the trash (remove its "trash" label). Returns the message.',
    }),
  ),
  routeTool(routes, {
    name: 'delete_thread',
    title: 'Delete a thread',
    route: 'DELETE /v0/inboxes/:inbox_id/threads/:thread_id',
    description:
      'Move a whole conversation to the trash (every message gets the label "trash"); restore_thread brings it back. With `permanent: true` the thread and all its messages are deleted for good: that cannot be undone.',
  }),
  idempotent(
    routeTool(routes, {
      name: 'restore_thread',
      title: 'Restore a thread',
      route: 'POST /v0/inboxes/:inbox_id/threads/:thread_id/restore',
      description:
        'Take every message of a conversation out of the trash. Returns the thread with its messages.',
    }),
  ),
];
