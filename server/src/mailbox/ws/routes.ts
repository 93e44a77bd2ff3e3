import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { WebSocket } from 'ws';
import type { RouteModule } from '../../core/http/types.ts';
import { sendBounded } from '../../core/http/ws-backlog.ts';
import type { MailboxPrincipal } from '../auth/principal.ts';
import { EVENT_TYPES } from '../events/types.ts';
import type { InboxService } from '../inboxes/service.ts';
import type { LiveClient, MailboxEventHub } from './event-hub.ts';

const tags = ['Events'];
const HEARTBEAT_MS = 30_000;
const KNOWN_TYPES = new Set<string>(EVENT_TYPES);

type Frame = { type?: unknown; inbox_ids?: unknown; event_types?: unknown };

const errorFrame = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  type: 'error',
  code,
  message,
  ...extra,
});

/**
 * `/v0/ws` (every inbox the key reaches) and `/v0/inboxes/{inbox_id}/ws` (one inbox, subscribed on
 * connect). Frames: subscribe → subscribed, event, ping → pong, error. A subscription naming an
 * inbox outside the key's reach is refused with an error frame and the stream is not widened.
 */
export const wsRoutes: RouteModule<{ inboxes: InboxService; hub: MailboxEventHub }> = (
  app,
  { inboxes, hub },
) => {
  // Replies are bounded like events: a client that stops reading is closed (sendBounded).
  const send = (socket: WebSocket, frame: Record<string, unknown>): void => {
    sendBounded(socket, JSON.stringify(frame), hub.maxBufferedBytes);
  };
  const queryKey = Type.Object(
    {
      api_key: Type.Optional(Type.String({ description: 'Only on WebSocket routes; prefer the header.' })),
    },
    { additionalProperties: false },
  );

  async function handleSubscribe(client: LiveClient, frame: Frame, fixedInbox: string | null): Promise<void> {
    const { socket, principal } = client;
    let inboxIds: string[] | null = null;
    if (frame.inbox_ids !== undefined && frame.inbox_ids !== null) {
      if (!Array.isArray(frame.inbox_ids) || frame.inbox_ids.some((id) => typeof id !== 'string')) {
        return send(socket, errorFrame('invalid_request', 'inbox_ids must be an array of strings.'));
      }
      inboxIds = [...new Set((frame.inbox_ids as string[]).map((id) => id.toLowerCase()))];
    }
    let eventTypes: string[] | null = null;
    if (frame.event_types !== undefined && frame.event_types !== null) {
      if (
        !Array.isArray(frame.event_types) ||
        frame.event_types.some((t) => typeof t !== 'string' || !KNOWN_TYPES.has(t))
      ) {
        return send(
          socket,
          errorFrame(
            'invalid_request',
            `event_types must list known event types: ${EVENT_TYPES.join(', ')}.`,
          ),
        );
      }
      eventTypes = [...new Set(frame.event_types as string[])];
      if (eventTypes.length === 0) eventTypes = null;
    }
    if (fixedInbox) {
      if (inboxIds?.some((id) => id !== fixedInbox)) {
        return send(
          socket,
          errorFrame('not_found', 'not found: this socket carries only its own inbox.', {
            inbox_ids: inboxIds,
          }),
        );
      }
      inboxIds = [fixedInbox];
    } else if (inboxIds && inboxIds.length > 0) {
      for (const id of inboxIds) {
        if (!(await inboxes.isReachable(principal, id))) {
          return send(socket, errorFrame('not_found', `not found: no such inbox ${id}.`, { inbox_id: id }));
        }
      }
    } else {
      inboxIds = null;
    }
    client.subscription = {
      inboxIds: inboxIds ? new Set(inboxIds) : null,
      eventTypes: eventTypes ? new Set(eventTypes) : null,
    };
    send(socket, {
      type: 'subscribed',
      inbox_ids: inboxIds ?? principal.reach.inboxIds,
      event_types: eventTypes,
    });
  }

  function attach(socket: WebSocket, principal: MailboxPrincipal, fixedInbox: string | null): void {
    const client: LiveClient = { socket, principal, subscription: null };
    hub.add(client);
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    heartbeat.unref();
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('close', () => {
      clearInterval(heartbeat);
      hub.remove(client);
    });
    // Frames are handled one after another, so a subscribe is settled before the next frame.
    let chain = Promise.resolve();
    socket.on('message', (data, isBinary) => {
      chain = chain
        .then(async () => {
          alive = true;
          let frame: Frame;
          try {
            frame = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
          } catch {
            return send(socket, errorFrame('invalid_json', 'Frames must be JSON objects.'));
          }
          if (!frame || typeof frame !== 'object')
            return send(socket, errorFrame('invalid_json', 'Frames must be JSON objects.'));
          switch (frame.type) {
            case 'ping':
              return send(socket, { type: 'pong' });
            case 'subscribe':
              return handleSubscribe(client, frame, fixedInbox);
            case 'unsubscribe':
              client.subscription = null;
              return send(socket, { type: 'unsubscribed' });
            default:
              return send(
                socket,
                errorFrame('invalid_request', 'type must be subscribe, unsubscribe or ping.'),
              );
          }
        })
        .catch(() => send(socket, errorFrame('internal_error', 'The frame could not be handled.')));
    });
    if (fixedInbox) void handleSubscribe(client, { type: 'subscribe' }, fixedInbox);
  }

  app.get(
    '/ws',
    {
      websocket: true,
      config: { scope: 'messages.read', allowQueryKey: true },
      schema: {
        tags,
        operationId: 'eventSocket',
        summary: 'WebSocket: events of every inbox the key reaches',
        querystring: queryKey,
      },
    },
    (socket: WebSocket, request: FastifyRequest) => attach(socket, request.mailbox, null),
  );

  app.get(
    '/inboxes/:inbox_id/ws',
    {
      websocket: true,
      config: { scope: 'messages.read', allowQueryKey: true },
      schema: {
        tags,
        operationId: 'inboxEventSocket',
        summary: 'WebSocket: events of one inbox (subscribed on connect)',
        params: Type.Object({ inbox_id: Type.String() }),
        querystring: queryKey,
      },
      preHandler: async (request) => {
        await inboxes.get(request.mailbox, (request.params as { inbox_id: string }).inbox_id);
      },
    },
    (socket: WebSocket, request: FastifyRequest) =>
      attach(socket, request.mailbox, (request.params as { inbox_id: string }).inbox_id.toLowerCase()),
  );
};
