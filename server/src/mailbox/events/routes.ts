import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { loadInbox } from '../inboxes/service.ts';
import { InboxIdParam } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';
import { eventsRepository } from './repository.ts';
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
    title: 'Event',
    description: 'Exactly the webhook payload: message, thread, matched_by, auto_reply… per type.',
  },
);

/** Stored events of one inbox, oldest first: how a client that was disconnected catches up. */
export function eventRoutes(app: AppInstance, deps: MailboxDeps): void {
  app.get(
    '/inboxes/:inbox_id/events',
    {
      schema: {
        tags: ['Events'],
        operationId: 'listInboxEvents',
        summary: 'Events of an inbox, oldest first, from a cursor',
        description:
          'Pass back `next_page_token` to continue; it is returned even on the last page so the same call can be repeated later to fetch only newer events.',
        params: InboxIdParam,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          page_token: Type.Optional(Type.String()),
          event_types: Type.Optional(Type.Array(Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))))),
        }),
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
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const page = deps.pageTokens.parse(request.query, `events:${inbox.id}`, request.mailbox.subject);
      const afterSeq = page.after ? Number(page.after.i) : 0;
      const rows = await eventsRepository.listForInbox(deps.db, inbox.id, {
        afterSeq,
        limit: page.limit + 1,
        eventTypes: request.query.event_types,
      });
      const more = rows.length > page.limit;
      const kept = more ? rows.slice(0, page.limit) : rows;
      const last = kept[kept.length - 1];
      const token = last
        ? deps.pageTokens.encode(page, {
            t: last.created_at.toISOString(),
            i: String(last.seq),
          })
        : (request.query.page_token ?? null);
      return {
        count: kept.length,
        limit: page.limit,
        has_more: more,
        next_page_token: token,
        events: kept.map((r) => r.payload as never),
      };
    },
  );
}
