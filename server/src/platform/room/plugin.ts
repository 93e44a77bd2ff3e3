import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../core/http/ids.ts';
import { registerStaticAssets } from '../../core/http/static-assets.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { loadVendorModules, vendorHandler } from '../../core/http/vendor-modules.ts';
import { repoPath } from '../../core/paths.ts';
import { originOf, type PageKind, pageHeaders, safeHost } from './headers.ts';
import { ROOM_VENDOR_PACKAGES } from './vendor.ts';

/** The browser room: plain ES modules, HTML and CSS under web/room (docs/decisions/0001). */
const WEB_ROOT = repoPath('web', 'room');
export const ROOM_ASSET_PREFIX = '/room-assets/';

/** What a valid room token grants the page. */
export interface RoomPageGrant {
  /** The scenario is public: other sites may frame the room. */
  embeddable: boolean;
}

export interface RoomPagesOptions {
  /** Resolves the grant when `token` is the room token of `meetingId`, else null. */
  checkRoomToken(meetingId: string, token: string): Promise<RoomPageGrant | null>;
  publicUrl: string;
  mediaPublicUrl?: string | null;
}

const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

const NOT_FOUND = {
  title: 'This link is not valid',
  message: 'The meeting link is incomplete or no longer valid. Ask the person who sent it for a new link.',
};
const UNAVAILABLE = {
  title: 'The meeting is unavailable',
  message: 'Something went wrong on our side. Try again in a moment.',
};

/**
 * The `t` of the address. `meeting_url` used to come without the token and integrators were told
 * to append `?t=<room_token>`; on today's URL, which carries it, that gives `?t=X?t=X`, read as
 * `t` = `X?t=X`: the part before the `?` is the token.
 */
export function tokenOf(value: unknown): unknown {
  return typeof value === 'string' ? value.split('?')[0] : value;
}

function loadPage(name: string): string {
  return readFileSync(join(WEB_ROOT, 'pages', name), 'utf8');
}

/**
 * Serves the meeting room outside /v1: `GET /room/:meetingId?t=` (embeddable), `GET
 * /meetings/:meetingId?t=` (the full-page view of the same meeting) and the static files under
 * `/room-assets/`. A page is served only for a valid room token; anything else gets the same
 * 404 page, which says nothing about the meeting (the meeting page redirects to the dashboard
 * instead). The room then talks to `/v1/rooms/:id` with
 * the token (docs/realtime.md).
 */
export async function registerRoomPages(app: AppInstance, options: RoomPagesOptions): Promise<void> {
  const roomPage = loadPage('room.html');
  const messageTemplate = loadPage('message.html');
  const message = (text: { title: string; message: string }) =>
    messageTemplate.replaceAll('{{title}}', text.title).replaceAll('{{message}}', text.message);
  const notFoundPage = message(NOT_FOUND);
  const unavailablePage = message(UNAVAILABLE);
  const imageOrigins = [originOf(options.publicUrl), originOf(options.mediaPublicUrl)].filter(
    (origin): origin is string => origin !== null,
  );

  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: PageKind,
    status: number,
    body: string,
    embeddable = false,
  ) =>
    reply
      .status(status)
      .headers(pageHeaders({ kind, host: safeHost(request.host), embeddable, imageOrigins }))
      .send(body);

  // The meeting page without a valid token is the owner opening `meeting_url` as a meeting read
  // returns it (the token is stored hashed, so only the create response can carry it): they are
  // sent to the dashboard's page of the meeting, which asks them to sign in when needed. The
  // redirect names only the id the address already held. The embeddable room has no such page.
  const invalid = (request: FastifyRequest, reply: FastifyReply, kind: 'room' | 'meeting', id: string) =>
    kind === 'meeting' && isUuid(id)
      ? reply
          .status(302)
          .headers({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' })
          .redirect(`/#/meetings/${id.toLowerCase()}`, 302)
      : send(request, reply, 'message', 404, notFoundPage);

  const page = (kind: 'room' | 'meeting') => async (request: FastifyRequest, reply: FastifyReply) => {
    const { meetingId } = request.params as { meetingId: string };
    const token = tokenOf((request.query as { t?: unknown }).t);
    if (!isUuid(meetingId) || typeof token !== 'string' || !TOKEN.test(token)) {
      return invalid(request, reply, kind, meetingId);
    }
    let grant: RoomPageGrant | null;
    try {
      grant = await options.checkRoomToken(meetingId.toLowerCase(), token);
    } catch (error) {
      request.log.error({ err: error }, 'room token check failed');
      return send(request, reply, 'message', 503, unavailablePage);
    }
    if (!grant) return invalid(request, reply, kind, meetingId);
    return send(request, reply, kind, 200, roomPage, grant.embeddable);
  };

  const vendorModules = loadVendorModules(ROOM_VENDOR_PACKAGES);

  await app.register(async (scope) => {
    // More specific than the static wildcard below, so these win for their paths.
    scope.get(`${ROOM_ASSET_PREFIX}vendor/:file`, { schema: { hide: true } }, vendorHandler(vendorModules));
    await registerStaticAssets(scope, join(WEB_ROOT, 'assets'), ROOM_ASSET_PREFIX);
    // The address carries the room token: keep these requests out of the access log (`logLevel`),
    // and their schema out of the OpenAPI document (pages, not API).
    const routeOptions = { schema: { hide: true }, logLevel: 'warn' as const };
    scope.get('/room/:meetingId', routeOptions, page('room'));
    scope.get('/meetings/:meetingId', routeOptions, page('meeting'));
  });
}
