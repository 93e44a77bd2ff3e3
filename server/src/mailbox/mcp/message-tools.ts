import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool, McpToolAnnotations } from '../../core/mcp/tool.ts';
import { PAGE } from './inbox-tools.ts';

/** Where the HTTP method's defaults (routeTool) say less than the operation does. */
const annotate = (tool: McpTool, annotations: Partial<McpToolAnnotations>): McpTool => ({
  ...tool,
  annotations: { ...tool.annotations, ...annotations },
});

/** Mail that leaves the service reaches the outside world. */
const OUTWARD = { openWorldHint: true };

const SENDS =
  "This sends real email: the recipients receive it and it cannot be recalled (only a scheduled one can be cancelled before it goes). Usually answers once the relay accepted or refused it: `status` is `sent` or `rejected` (with `rejection_reason`); `sending` means the relay is slow or down and the service keeps retrying (read the message later: `recipients` shows each one's status). `send_at` (RFC 3339, up to 30 days ahead) schedules it: `status` is then `scheduled`.";

/** Messages (read, label, send, reply) and drafts (write now, send after a review). */
export const messageTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_messages',
    title: 'List messages',
    route: 'GET /v0/inboxes/:inbox_id/messages',
    queryDefaults: PAGE,
    description:
      'List the messages of an inbox, received and sent, newest first, with sender, recipients, subject, a preview, labels and `thread_id`. `labels` keeps only messages carrying every label given (e.g. ["unread"] for the unread ones, ["blocked"] for blocked mail, ["trash"] for the trash). `q`, `from`, `to`, `after`, `before` and `has_attachments` search them (see search_messages). One page at a time (default 25, `limit` up to 100): when `next_page_token` is not null, call again with `page_token` set to it.',
  }),
  routeTool(routes, {
    name: 'get_message',
    title: 'Read a message',
    route: 'GET /v0/inboxes/:inbox_id/messages/:message_id',
    description:
      'Read one message in full: headers, `text` and `html` bodies, attachment metadata, labels and its thread. `message_id` is the RFC 5322 Message-ID as the lists return it (angle brackets may be left out). Reading does not mark it read: use update_message_labels with remove_labels ["unread"].',
  }),
  annotate(
    routeTool(routes, {
      name: 'update_message_labels',
      title: 'Label a message',
      route: 'PATCH /v0/inboxes/:inbox_id/messages/:message_id',
      description:
        'Add or remove labels on a message, e.g. remove_labels ["unread"] once it has been handled, or add your own labels (such as "needs-human") to sort mail. Returns the message with its new labels.',
    }),
    { idempotentHint: true },
  ),
  annotate(
    routeTool(routes, {
      name: 'send_message',
      title: 'Send an email',
      route: 'POST /v0/inboxes/:inbox_id/messages/send',
      description: `Send a new email from an inbox: \`to\` (one address or a list; "Name <addr>" accepted), optional \`cc\`, \`bcc\`, \`reply_to\`, \`subject\`, \`text\` and/or \`html\`, \`attachments\` as base64 \`content\` or a \`url\` the service fetches, \`headers\` for custom headers such as X-* or List-Unsubscribe. Starts a new thread; to answer a message use reply_to_message instead so it stays in its thread. ${SENDS}`,
    }),
    OUTWARD,
  ),
  annotate(
    routeTool(routes, {
      name: 'reply_to_message',
      title: 'Reply to a message',
      route: 'POST /v0/inboxes/:inbox_id/messages/:message_id/reply',
      description: `Reply to a message of the inbox, in its thread (In-Reply-To and References are set, the subject gets "Re:"). Addressed to the original's Reply-To (else its sender) unless \`to\` is given; \`reply_all\` also addresses the original To and Cc. ${SENDS}`,
    }),
    OUTWARD,
  ),
  annotate(
    routeTool(routes, {
      name: 'forward_message',
      title: 'Forward a message',
      route: 'POST /v0/inboxes/:inbox_id/messages/:message_id/forward',
      description: `Forward a message of the inbox to new recipients (\`to\`, optional \`cc\`/\`bcc\`), with an optional note in \`text\` or \`html\` above the original ("Forwarded message" with its From, Date, Subject and To). The subject gets "Fwd:" and the original's attachments go along (\`include_attachments: false\` leaves them out). ${SENDS}`,
    }),
    OUTWARD,
  ),
  routeTool(routes, {
    name: 'cancel_scheduled_message',
    title: 'Cancel a scheduled email',
    route: 'POST /v0/inboxes/:inbox_id/messages/:message_id/cancel',
    description:
      'Cancel a message sent with `send_at` before it goes: answers it with `status` "cancelled". Once it went (or for a message that was never scheduled) the call fails with `resource_conflict`. List what is still scheduled with list_messages and labels ["scheduled"].',
  }),
  routeTool(routes, {
    name: 'create_draft',
    title: 'Create a draft',
    route: 'POST /v0/inboxes/:inbox_id/drafts',
    description:
      'Save an email as a draft without sending it, e.g. for a human to review first: the same fields as send_message, plus `in_reply_to` (a Message-ID) to make it a reply. Nothing leaves the inbox until send_draft. A `client_id` of your choosing makes the call safe to retry.',
  }),
  annotate(
    routeTool(routes, {
      name: 'update_draft',
      title: 'Change a draft',
      route: 'PATCH /v0/inboxes/:inbox_id/drafts/:draft_id',
      description:
        'Change a draft before it is sent, e.g. after a human review: give only the fields to change (the same as create_draft); null clears a field; `attachments` replaces the whole list. Returns the draft as it now is.',
    }),
    { idempotentHint: true },
  ),
  routeTool(routes, {
    name: 'list_drafts',
    title: 'List drafts',
    route: 'GET /v0/inboxes/:inbox_id/drafts',
    queryDefaults: PAGE,
    description:
      'List the unsent drafts of an inbox, newest first. One page at a time (default 25, `limit` up to 100): when `next_page_token` is not null, call again with `page_token` set to it.',
  }),
  routeTool(routes, {
    name: 'get_draft',
    title: 'Read a draft',
    route: 'GET /v0/inboxes/:inbox_id/drafts/:draft_id',
    description: 'Read one draft: its recipients, subject, bodies and attachment metadata.',
  }),
  annotate(
    routeTool(routes, {
      name: 'send_draft',
      title: 'Send a draft',
      route: 'POST /v0/inboxes/:inbox_id/drafts/:draft_id/send',
      description: `Send a draft as it stands: the draft is removed and the sent message returned (a second call finds no draft). ${SENDS}`,
    }),
    OUTWARD,
  ),
  routeTool(routes, {
    name: 'delete_draft',
    title: 'Delete a draft',
    route: 'DELETE /v0/inboxes/:inbox_id/drafts/:draft_id',
    description: 'Discard a draft without sending it. It cannot be recovered.',
  }),
];
