import { type McpResourceTemplate, matchUriTemplate } from '../../core/mcp/tool.ts';

const path = (value: string) => encodeURIComponent(value);

/** What a model reads rather than calls: a whole conversation, one message. */
export const mailboxResources: McpResourceTemplate[] = [
  {
    uriTemplate: 'mailbox://inboxes/{inbox_id}/threads/{thread_id}',
    name: 'thread',
    title: 'A mail thread',
    description:
      'A conversation of an inbox with all its messages, oldest first (JSON, as get_thread returns it).',
    mimeType: 'application/json',
    rest(uri) {
      const match = matchUriTemplate(this.uriTemplate, uri);
      if (!match) return null;
      return { method: 'GET', url: `/v0/inboxes/${path(match.inbox_id!)}/threads/${path(match.thread_id!)}` };
    },
  },
  {
    uriTemplate: 'mailbox://inboxes/{inbox_id}/messages/{message_id}',
    name: 'message',
    title: 'A mail message',
    description:
      'One message in full (JSON, as get_message returns it); `message_id` is the Message-ID, percent-encoded.',
    mimeType: 'application/json',
    rest(uri) {
      const match = matchUriTemplate(this.uriTemplate, uri);
      if (!match) return null;
      return {
        method: 'GET',
        url: `/v0/inboxes/${path(match.inbox_id!)}/messages/${path(match.message_id!)}`,
      };
    },
  },
];
