import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { ALL_EVENTS_WILDCARD, SUBSCRIBABLE_EVENT_TYPES } from '../events/catalog.ts';

const EventName = Type.Enum([...SUBSCRIBABLE_EVENT_TYPES, ALL_EVENTS_WILDCARD], {
  description: 'An event name from the catalog, or `*` for every event.',
});

const SubscribedEvents = Type.Array(EventName, {
  minItems: 1,
  maxItems: 50,
  description: 'Events this endpoint receives; `["*"]` (the default) means all.',
});

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    description: Type.String(),
    subscribed_events: Type.Array(Type.String()),
    enabled: Type.Boolean({ description: 'false pauses deliveries; they are held and sent on re-enable.' }),
    previous_secret_expires_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookEndpoint', title: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    signing_secret: Type.String({
      description: 'Starts with `whsec_`. Returned only by create and rotate-secret.',
      examples: ['whsec_3q2v0aH9cYkq7RZr0b1m1yPZl2X5n8dS'],
    }),
  },
  { $id: 'WebhookEndpointWithSecret', title: 'WebhookEndpointWithSecret' },
);

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS required in production.' });
const Description = Type.String({ maxLength: 500 });

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    subscribed_events: Type.Optional(SubscribedEvents),
    enabled: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://example.com/webhooks/understudy',
        description: 'Results into our ATS',
        subscribed_events: ['meeting.ended', 'session.analysis_complete'],
      },
    ],
  },
);

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    subscribed_events: Type.Optional(SubscribedEvents),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ enabled: false }] },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    endpoint_id: Type.String(),
    event_id: Type.String({ description: 'The envelope `id`: the same on every attempt.' }),
    event: Type.String(),
    status: Type.Enum(['pending', 'paused', 'succeeded', 'failed', 'dead', 'cancelled']),
    attempt_count: Type.Integer(),
    next_attempt_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

export const WebhookDeliveryWithPayload = Type.Object(
  {
    ...WebhookDelivery.properties,
    payload: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The body sent to the endpoint (the event envelope: `id`, `event`, `created_at`, `data`).',
      },
    ),
  },
  { $id: 'WebhookDeliveryWithPayload', title: 'WebhookDeliveryWithPayload' },
);

export const WebhookDeliveryAttempt = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    delivery_id: Type.String(),
    event_id: Type.String(),
    event: Type.String(),
    attempt_number: Type.Integer({ minimum: 1 }),
    trigger: Type.Enum(['automatic', 'manual'], { description: '`manual` for a redelivery.' }),
    url: Type.String(),
    status_code: Nullable(Type.Integer({ description: 'null when no HTTP answer arrived.' })),
    duration_ms: Type.Integer(),
    error: Nullable(Type.String({ description: 'e.g. `timeout: …`, `connect_failed: …`.' })),
    response_excerpt: Nullable(Type.String({ description: 'The first 1 KiB of the answer body.' })),
    outcome: Type.Enum(['succeeded', 'retry_scheduled', 'failed', 'dead']),
    next_retry_at: Nullable(Timestamp),
    delivery_status: Type.String({ description: 'The delivery status now.' }),
    created_at: Timestamp,
  },
  { $id: 'WebhookDeliveryAttempt', title: 'WebhookDeliveryAttempt' },
);

export const EndpointIdParams = Type.Object({ id: Type.String({ description: 'Webhook endpoint id.' }) });
export const DeliveryIdParams = Type.Object({ deliveryId: Type.String({ description: 'Delivery id.' }) });
