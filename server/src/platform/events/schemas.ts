// The bodies the platform POSTs to webhook endpoints (docs/webhooks.md), one schema per event of
// the catalog: the OpenAPI document's `webhooks` section is generated from them, and the type
// check at the end keeps them in step with what the emitter is allowed to send.
import { type Static, type TObject, type TProperties, Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import type { WebhookDoc } from '../../core/http/webhook-doc.ts';
import { HighlightSchema } from '../analyses/schemas.ts';
import { Participant } from '../meetings/schemas.ts';
import {
  EVENT_DESCRIPTIONS,
  FIRING_EVENT_TYPES,
  type PlatformEventData,
  type PlatformEventType,
} from './catalog.ts';

const meetingRef = {
  meeting_id: Type.String(),
  scenario_id: Type.String(),
};

/** `analysis.goal_results[]` of the webhook: the goal by name and its result (not `GoalResult`). */
const WebhookGoalResult = Type.Object(
  {
    goal: Type.String({ description: 'The goal’s name when it was scored.' }),
    result: Type.Object(
      { score: Type.Number(), feedback: Type.String() },
      { $id: 'WebhookGoalScore', title: 'WebhookGoalScore' },
    ),
  },
  { $id: 'WebhookGoalResult', title: 'WebhookGoalResult' },
);

/** The analysis as `session.analysis_complete` carries it: a shape of its own, not `Analysis`. */
const AnalysisSummary = Type.Object(
  {
    analysis_id: Type.String(),
    average_score: Nullable(Type.Number({ description: 'Mean of the goal scores; null without goals.' })),
    total_score: Nullable(Type.Number({ description: 'Sum of the goal scores; null without goals.' })),
    summary: Nullable(Type.String()),
    call_summary: Nullable(Type.String()),
    strengths: Type.String({
      description: 'One strength per line: `Analysis.strengths` joined with `\\n` (empty without any).',
    }),
    growth_areas: Type.String({
      description: 'One growth area per line: `Analysis.growth_areas` joined with `\\n` (empty without any).',
    }),
    recommendations: Type.Array(Type.String()),
    goal_results: Type.Array(WebhookGoalResult, { description: 'One per goal, in the scenario’s order.' }),
    highlights: Type.Array(HighlightSchema),
    conversation_length: Type.Integer({ description: 'Length of the meeting in seconds.' }),
  },
  { $id: 'WebhookAnalysis', title: 'WebhookAnalysis' },
);

/** `data` of each event: the meeting and its scenario, and what the event adds. */
const EVENT_DATA = {
  'meeting.created': Type.Object(meetingRef),
  'meeting.ended': Type.Object({ ...meetingRef, ended_at: Timestamp, duration_seconds: Type.Number() }),
  'participant.joined': Type.Object({ ...meetingRef, participant: Participant }),
  'participant.left': Type.Object({ ...meetingRef, participant: Participant }),
  'transcript.ready': Type.Object({
    ...meetingRef,
    transcript_id: Type.Integer(),
    sentence_count: Type.Integer(),
  }),
  'recording.ready': Type.Object({ ...meetingRef, recording_id: Type.String() }),
  'session.analysis_complete': Type.Object({ ...meetingRef, analysis: AnalysisSummary }),
  'analysis.failed': Type.Object({ ...meetingRef, error: Type.String() }),
  'meeting.deleted': Type.Object({
    ...meetingRef,
    deleted_at: Timestamp,
    reason: Type.Union([Type.Literal('api'), Type.Literal('retention')], {
      description:
        '`api`: `DELETE /meetings/{id}`. `retention`: the workspace’s `meeting_retention_days` passed.',
    }),
  }),
  'assignment.completed': Type.Object({
    ...meetingRef,
    assignment_id: Type.String(),
    person_id: Type.String({ description: 'The person whose assignment is done (GET /v1/people/{id}).' }),
    completed_at: Timestamp,
  }),
} satisfies Record<PlatformEventType, TObject>;

const WHEN: Record<PlatformEventType, string> = EVENT_DESCRIPTIONS;

/** `MeetingEndedEvent` for `meeting.ended`. */
const eventName = (event: string) =>
  `${event
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;

const envelope = <E extends string, D extends TProperties>(event: E, data: TObject<D>, description: string) =>
  Type.Object(
    {
      id: Type.String({
        description: 'The event id: the same on every attempt and redelivery; deduplicate on it.',
      }),
      event: Type.Literal(event),
      created_at: Timestamp,
      data,
    },
    { $id: eventName(event), title: eventName(event), description },
  );

const SIGNED_HEADERS = {
  'Service-Signature': {
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole `whsec_…` secret; ' +
      'two `v1=` entries during the 24 hours after a rotation. Reject timestamps more than 5 minutes away.',
    example: 't=1793534400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  },
  'Service-Event': { description: 'The event type.', example: 'meeting.created' },
  'Service-Delivery-Id': {
    description: 'This delivery (one event to one endpoint): the id `redeliver` takes.',
  },
};

export const PLATFORM_WEBHOOKS: WebhookDoc[] = [
  ...FIRING_EVENT_TYPES.map((event) => ({
    event,
    summary: WHEN[event],
    payload: envelope(event, EVENT_DATA[event], WHEN[event]),
    headers: {
      ...SIGNED_HEADERS,
      'Service-Delivery-Attempt': { description: 'The attempt number, from 1.', example: '1' },
    },
  })),
  {
    event: 'meeting.completed',
    summary:
      'The legacy per-scenario webhook (session options `webhook_url`), deprecated: sent until the sunset ' +
      '(2026-09-25), never after. Move to an endpoint subscribed to `session.analysis_complete`.',
    deprecated: true,
    payload: envelope(
      'meeting.completed',
      Type.Object({
        ...meetingRef,
        person_name: Nullable(Type.String()),
        goals: Type.Array(
          Type.Object(
            { name: Type.String(), score: Nullable(Type.Number()) },
            { additionalProperties: true },
          ),
        ),
        completed_at: Timestamp,
      }),
      'A meeting’s analysis completed (legacy per-scenario webhook).',
    ),
    headers: {
      ...SIGNED_HEADERS,
      'X-Service-Signature': {
        description: '`sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the scenario’s webhook secret.',
      },
    },
  },
];

// The emitter's types and the documented schemas describe the same data, both ways: what may be
// sent fits the document, and nothing the document promises is missing from what is sent (a
// compile-time check only; the webhook tests validate real deliveries against the document).
type Documented = { [E in PlatformEventType]: Static<(typeof EVENT_DATA)[E]> };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _emittedDataIsDocumented: { [E in PlatformEventType]: Same<PlatformEventData[E], Documented[E]> } = {
  'meeting.created': true,
  'meeting.ended': true,
  'participant.joined': true,
  'participant.left': true,
  'transcript.ready': true,
  'recording.ready': true,
  'session.analysis_complete': true,
  'analysis.failed': true,
  'meeting.deleted': true,
  'assignment.completed': true,
};
void _emittedDataIsDocumented;

// ---- the event log (GET /v1/events) and the catalogue (GET /v1/webhooks/event-types)

export const EventListQuery = Type.Object({
  ...PageQuery.properties,
  meeting_id: Type.Optional(
    Type.String({ description: 'Only the events of this meeting (also after it was deleted).' }),
  ),
  type: Type.Optional(Type.Enum(FIRING_EVENT_TYPES, { description: 'Only events of this type.' })),
});

export const PlatformEvent = Type.Object(
  {
    id: Type.String({ description: 'The event id: the `id` of the webhook envelope that carried it.' }),
    type: Type.Enum(FIRING_EVENT_TYPES, { description: 'The event type (the envelope’s `event`).' }),
    created_at: Timestamp,
    data: Type.Object(meetingRef, {
      additionalProperties: true,
      description: 'The envelope’s `data`, as sent: see the event’s schema in `webhooks`.',
    }),
  },
  { $id: 'PlatformEvent', title: 'PlatformEvent' },
);

export const EventType = Type.Object(
  {
    type: Type.String({ examples: ['meeting.ended'] }),
    description: Type.String({ description: 'When it fires, in one line.' }),
    fires: Type.Boolean({
      description: 'False for a planned event: accepted in `subscribed_events` but never sent.',
    }),
  },
  { $id: 'EventType', title: 'EventType' },
);
