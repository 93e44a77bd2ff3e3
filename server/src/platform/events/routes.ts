import { Type } from 'typebox';
import { pageEnvelope } from '../../core/http/pagination.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { EventListQuery, EventType, PlatformEvent } from './schemas.ts';

const EventTypeList = Type.Object(
  { data: Type.Array(EventType) },
  { $id: 'EventTypeList', title: 'EventTypeList' },
);

import type { EventLogService } from './service.ts';

export const eventRoutes: RouteModule<{ eventLog: EventLogService }> = (app, { eventLog }) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['Events'],
        operationId: 'listEvents',
        summary:
          'The workspace’s events, newest first, always paged (`limit` 1 to 100, default 25; `cursor`): what was sent to webhook endpoints, whether or not any endpoint subscribed. Filters: `meeting_id`, `type`.',
        querystring: EventListQuery,
        response: withErrors({ 200: pageEnvelope(PlatformEvent) }),
      },
    },
    async (request) => eventLog.list(request.principal, request.query),
  );

  app.get(
    '/webhooks/event-types',
    {
      schema: {
        tags: ['Webhooks'],
        operationId: 'listWebhookEventTypes',
        summary:
          'The catalogue of event types an endpoint can subscribe to, each with when it fires (`*` in `subscribed_events` means all of them).',
        response: withErrors({ 200: EventTypeList }),
      },
    },
    async () => eventLog.eventTypes(),
  );
};
