import { Type } from 'typebox';
import { EVENT_TYPES } from '../events/types.ts';
import { Nullable, Timestamp } from '../schemas.ts';

export const EventTypeName = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'message.delivered, message.bounced and message.complained are accepted but never fire.' },
);

const webhookFields = {
  webhook_id: Type.String({ examples: ['whk_3k9m2p7q1r5s8t0v4w6x'] }),
  url: Type.String(),
  event_types: Type.Array(Type.String()),
  inbox_ids: Nullable(
    Type.Array(Type.String(), { description: 'null: every inbox visible to the key that created it.' }),
  ),
  pod_id: Nullable(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(
    Type.String({
      description:
        'Why the service disabled it: `api key revoked` when the scoped key that created it was revoked. null otherwise.',
    }),
  ),
  client_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { $id: 'Webhook', title: 'Webhook' });
export const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: '`whsec_…`: shown once, here. Verify X-Mailbox-Signature with it.' }),
  },
  { $id: 'CreatedWebhook', title: 'CreatedWebhook' },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, format: 'uri' }),
    event_types: Type.Array(EventTypeName, { minItems: 1, maxItems: 20 }),
    inbox_ids: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 100 })),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://agent.example.com/hooks/mail', event_types: ['message.received'] }],
  },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 8, maxLength: 2048, format: 'uri' })),
    event_types: Type.Optional(Type.Array(EventTypeName, { minItems: 1, maxItems: 20 })),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false pauses deliveries (they are held, then sent on re-enable).' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Only the fields given change; without any (`{}`) nothing changes and the webhook is answered.',
    examples: [{ enabled: false }],
  },
);

export const DeliveryAttempt = Type.Object({
  attempt_number: Type.Integer(),
  manual: Type.Boolean(),
  status_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  outcome: Type.String(),
  next_retry_at: Nullable(Timestamp),
  created_at: Timestamp,
});

export const Delivery = Type.Object(
  {
    delivery_id: Type.String({ description: 'Equals the X-Mailbox-Delivery header; stable across retries.' }),
    webhook_id: Nullable(Type.String()),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.String({ description: 'pending, paused, succeeded, failed or cancelled.' }),
    attempt_count: Type.Integer(),
    next_attempt_at: Nullable(Timestamp),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    attempts: Type.Array(DeliveryAttempt),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
