import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { InboxIdParam } from '../schemas.ts';
import type { EventService } from './service.ts';
import { EVENT_TYPES } from './types.ts';

const EventPayload = Type.Object(
  {
    type: Type.Literal('event'),
    event_type: Type.String(),
    event_id: Type.String(),
    inbox_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: true,
    $id: 'Event',
    title: 'Event',
    description: 'Exactly the webhook payload: message, thread, matched_by, auto_reply… per type.',
  },
);

/** Stored events of one inbox, oldest first: how a client that was disconnected catches up. */
export const eventRoutes: RouteModule<{ events: EventService }> = (app, { events }) => {
  app.get(
    '/inboxes/:inbox_id/events',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags: ['Events'],
        operationId: 'listInboxEvents',
        summary: 'Events of an inbox, oldest first, from a cursor',
        description:
          'Pass back `next_page_token` to continue; it is returned even on the last page so the same call can be repeated later to fetch only newer events.',
        params: InboxIdParam,
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            page_token: Type.Optional(Type.String()),
            event_types: Type.Optional(Type.Array(Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))))),
          },
          { additionalProperties: false },
        ),
        response: withErrors({
          200: Type.Object({
            count: Type.Integer(),
            limit: Type.Integer(),
            has_more: Type.Boolean(),
            next_page_token: Type.Union([Type.String(), Type.Null()]),
            events: Type.Array(EventPayload),
          }),
        }),
      },
    },
    async (request) => {
      const page = await events.listForInbox(request.mailbox, request.params.inbox_id, request.query);
      // The stored payloads are exactly the webhook payloads, which EventPayload describes loosely.
      return { ...page, events: page.events as never };
    },
  );
};
