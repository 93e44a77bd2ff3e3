import { jsonResource, type McpResourceTemplate } from '../../core/mcp/tool.ts';

/** What a model reads rather than calls: a whole conversation, one message. */
export const mailboxResources: McpResourceTemplate[] = [
  jsonResource({
    uriTemplate: 'mailbox://inboxes/{inbox_id}/threads/{thread_id}',
    name: 'thread',
    title: 'A mail thread',
    description:
      'A conversation of an inbox with all its messages, oldest first (JSON, as get_thread returns it).',
    path: ({ inbox_id, thread_id }) => `/v0/inboxes/${inbox_id}/threads/${thread_id}`,
  }),
  jsonResource({
    uriTemplate: 'mailbox://inboxes/{inbox_id}/messages/{message_id}',
    name: 'message',
    title: 'A mail message',
    description:
      'One message in full (JSON, as get_message returns it); `message_id` is the Message-ID, percent-encoded.',
    path: ({ inbox_id, message_id }) => `/v0/inboxes/${inbox_id}/messages/${message_id}`,
  }),
];
