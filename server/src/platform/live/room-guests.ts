// Room requests are authenticated by the room token (`?t=` or `X-Room-Token`), never by an API key.
// The token is resolved for every `/v1/rooms/{meetingId}` route before the rate limits run, so that
// a participant spends the meeting's own budget while a missing or wrong token spends its address's
// like any other request without a valid credential (docs/api-conventions.md, "Rate limits").
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import type { AnyFastify } from '../../core/http/any-fastify.ts';
import { AppError } from '../../core/http/errors.ts';
import { hookWhen } from '../../core/http/hooks.ts';
import { findRoomMeeting, type RoomMeeting } from '../meetings/room-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The meeting the room token opens; null when it opens none, or off the room routes. */
    room: RoomMeeting | null;
  }
}

const ROOM_ROUTE_PREFIX = '/v1/rooms/';

export function roomTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-room-token'];
  if (typeof header === 'string' && header) return header;
  return (request.query as { t?: string } | undefined)?.t;
}

/** Resolves `request.room` on the room routes (CORS preflights carry no token and are skipped). */
export function identifyRoomGuests(app: AnyFastify, db: Kysely<DB>): void {
  app.decorateRequest('room', null);
  const isRoomRoute = (request: FastifyRequest) =>
    request.method !== 'OPTIONS' && request.routeOptions.url?.startsWith(ROOM_ROUTE_PREFIX) === true;
  app.addHook(
    'onRequest',
    hookWhen(isRoomRoute, async (request) => {
      const { meetingId } = (request.params ?? {}) as { meetingId?: string };
      if (meetingId) request.room = await findRoomMeeting(db, meetingId, roomTokenOf(request));
    }),
  );
}

/** The meeting the request's room token opens, or the 404 that never hints a meeting exists. */
export function openedRoom(request: FastifyRequest): RoomMeeting {
  if (!request.room)
    throw new AppError('resource_not_found', 'No such meeting, or the room token does not open it.');
  return request.room;
}
