// The mailbox's event payloads (docs/mailbox.md "Events"): the webhook body and the WebSocket
// `event` frame are the same object. The OpenAPI `webhooks` section and the AsyncAPI document are
// generated from these schemas.
import { type TObject, type TProperties, Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import type { WebhookDoc } from '../../core/http/webhook-doc.ts';
import { Domain } from '../domains/routes.ts';
import { Draft } from '../drafts/schemas.ts';
import { Message, Thread } from '../messages/schemas.ts';
import { FIRING_EVENT_TYPES, type FiringEventType } from './types.ts';

const messageAndThread = { message: Message, thread: Nullable(Thread) };

const BODIES = {
  'message.received': {
    message: Message,
    thread: Thread,
    matched_by: Nullable(
      Type.Enum(['in_reply_to', 'references', 'quote', 'subject', 'new'], {
        description: 'How the message found its thread.',
      }),
    ),
    auto_reply: Type.Boolean(),
    auto_reply_reason: Nullable(Type.String()),
  },
  'message.received.blocked': {
    message: Message,
    thread: Type.Null(),
    blocked_by: Type.Object({
      list: Type.Enum(['block', 'allow']),
      scope: Type.String({ description: '`namespace`, `pod` or `inbox`.' }),
      entry_id: Nullable(Type.String()),
      kind: Nullable(Type.String()),
      value: Nullable(Type.String()),
    }),
  },
  'message.sent': {
    ...messageAndThread,
    recipients: Type.Object({
      internal: Type.Array(Type.String(), { description: 'Delivered locally.' }),
      external: Type.Array(Type.String(), { description: 'Meant for the relay.' }),
      rejected: Type.Array(Type.String(), { description: 'Never got it.' }),
    }),
  },
  'message.rejected': { ...messageAndThread, reason: Type.String() },
  'message.deleted': {
    message_id: Type.String(),
    thread_id: Nullable(Type.String()),
    thread: Nullable(Thread),
  },
  'thread.deleted': { thread_id: Type.String(), message_ids: Type.Array(Type.String()) },
  'draft.created': { draft: Draft },
  'draft.updated': { draft: Draft },
  'domain.verified': { domain: Domain },
} satisfies Record<FiringEventType, TProperties>;

const WHEN: Record<FiringEventType, string> = {
  'message.received': 'Mail arrived in the inbox.',
  'message.received.blocked': 'Mail arrived and a block or allow list refused it.',
  'message.sent': 'An outgoing message is done: no recipient is left to try and at least one got it.',
  'message.rejected': 'An outgoing message is done and nobody got it.',
  'message.deleted': 'A message was deleted for good.',
  'thread.deleted': 'A thread and its messages were deleted for good.',
  'draft.created': 'A draft was created.',
  'draft.updated': 'A draft was changed.',
  'domain.verified': 'A custom domain’s DNS records were verified (`inbox_id` is null).',
};

/** `MessageReceivedBlockedEvent` for `message.received.blocked`. */
const eventName = (event: string) =>
  `${event
    .split('.')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;

const payload = <E extends FiringEventType>(event: E): TObject =>
  Type.Object(
    {
      type: Type.Literal('event'),
      event_type: Type.Literal(event),
      event_id: Type.String({ description: '`evt_…`' }),
      inbox_id: Nullable(Type.String()),
      created_at: Timestamp,
      ...BODIES[event],
    },
    { $id: eventName(event), title: eventName(event), description: WHEN[event] },
  );

/** One payload schema per event type that fires. */
export const EVENT_PAYLOADS = Object.fromEntries(
  FIRING_EVENT_TYPES.map((event) => [event, payload(event)]),
) as Record<FiringEventType, TObject>;

export const MAILBOX_WEBHOOKS: WebhookDoc[] = FIRING_EVENT_TYPES.map((event) => ({
  event,
  summary: WHEN[event],
  payload: EVENT_PAYLOADS[event],
  headers: {
    'X-Mailbox-Signature': {
      description: 'The hex HMAC-SHA256 of the raw body, keyed with the webhook’s `whsec_…` secret.',
    },
    'X-Mailbox-Event': { description: 'The event type.', example: event },
    'X-Mailbox-Delivery': { description: 'The delivery id, stable across retries: deduplicate on it.' },
  },
}));
