import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

/** One page by default, so a list never floods a model's context; `limit` goes up to 100. */
export const PAGE = { limit: 25 };

export const PAGING =
  'One page at a time (default 25, `limit` up to 100): when `next_page_token` is not null, call again with `page_token` set to it.';

/** Inboxes and threads: where an agent looks first. */
export const inboxTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_inboxes',
    title: 'List inboxes',
    route: 'GET /v0/inboxes',
    queryDefaults: PAGE,
    description: `List the inboxes this key can reach, newest first. An inbox's id is its email address (\`inbox_id\`); every other mailbox tool takes it. ${PAGING} \`pod_id\` keeps only one pod's inboxes.`,
  }),
  routeTool(routes, {
    name: 'create_inbox',
    title: 'Create an inbox',
    route: 'POST /v0/inboxes',
    description:
      'Create a new email inbox that can send and receive real mail. `username` is the local part (random when omitted), `domain` the service domain (default) or a verified custom domain, `display_name` the name shown to recipients. Pass a `client_id` of your choosing to make the call safe to retry: the same client_id returns the same inbox instead of a second one. Returns the inbox; its `inbox_id` is the new address.',
  }),
  routeTool(routes, {
    name: 'get_inbox',
    title: 'Get an inbox',
    route: 'GET /v0/inboxes/:inbox_id',
    description: 'Read one inbox: its address (`inbox_id`), display name, pod and creation time.',
  }),
  routeTool(routes, {
    name: 'list_threads',
    title: 'List threads',
    route: 'GET /v0/inboxes/:inbox_id/threads',
    queryDefaults: PAGE,
    description: `List the conversations (threads) of an inbox, most recently active first. Each has its subject, senders, recipients, a preview of the last message, \`message_count\` and labels (\`unread\` while a received message is unread). \`labels\` keeps only threads carrying every label given; \`q\`, \`from\`, \`to\`, \`after\`, \`before\` and \`has_attachments\` search them (see search_threads). ${PAGING} Read a whole conversation with get_thread.`,
  }),
  routeTool(routes, {
    name: 'get_thread',
    title: 'Read a thread',
    route: 'GET /v0/inboxes/:inbox_id/threads/:thread_id',
    description:
      'Read a conversation: the thread with all its messages, oldest first, each with sender, recipients, subject, text and HTML bodies and attachment metadata. To answer the last message, call reply_to_message with its `message_id`.',
  }),
];
