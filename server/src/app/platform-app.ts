import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import { identifyCallers, requireAuthentication } from '../core/http/auth.ts';
import { installIdempotency } from '../core/http/idempotency.ts';
import { installOperations } from '../core/http/ops.ts';
import type { Principal } from '../core/http/principal.ts';
import { closeQueryStrings } from '../core/http/query-rules.ts';
import { installRateLimits } from '../core/http/rate-limit.ts';
import { ScopeCatalog } from '../core/http/scope-catalog.ts';
import type { AppInstance } from '../core/http/types.ts';
import { RouteCatalog } from '../core/mcp/route-tool.ts';
import { PLATFORM_WEBHOOKS } from '../platform/events/schemas.ts';
import { MAX_FRAME_BYTES } from '../platform/live/protocol.ts';
import { identifyRoomGuests } from '../platform/live/room-guests.ts';
import { registerPlatformMcp } from '../platform/mcp/wiring.ts';
import { requireCsrfOnSessionWrites, sessionCallerResolver } from '../platform/sessions/request-auth.ts';
import { createHttpApp } from './http-app.ts';
import type { PlatformDeps } from './platform-deps.ts';
import { closeSocketsAfter } from './websocket-shutdown.ts';

export const PLATFORM_API_VERSION = '1.4.0';

/** Resolves a bearer token: `svc_` API keys, then our own user tokens, then an external OIDC issuer's. */
export function platformCredentialResolver(deps: PlatformDeps) {
  const userOrExternal = async (token: string): Promise<Principal | null> => {
    // The role is read on every request: a removed member's token stops working, a new role applies at once.
    const claims = await deps.userTokens.verify(token);
    if (claims) {
      const { role } = claims;
      return {
        kind: 'user',
        accountId: claims.accountId,
        membershipId: claims.membershipId,
        role,
        userId: claims.userId,
        apiKeyId: null,
        scopes: null,
        subject: `user:${claims.membershipId}`,
      };
    }
    if (!deps.oidc) return null;
    const external = await deps.oidc.verify(token);
    return external ? deps.identity.principalForExternal(external) : null;
  };
  // Not an async function itself: the API key's promise is handed on as it is, without the two
  // extra turns of the microtask queue an async function takes to adopt a returned promise.
  return (token: string, _request: FastifyRequest): Promise<Principal | null> =>
    token.startsWith('svc_') ? deps.apiKeys.verify(token) : userOrExternal(token);
}

const isApiPath = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
const isRoomPath = (url: string) => url.startsWith('/v1/rooms/');
const isPreflight = (request: FastifyRequest) => request.method === 'OPTIONS';

/**
 * Rate limits on every /v1 response (the spec: "RateLimit-* on every response"), installed on the
 * root so they cover the public room routes and the 401s of the authenticated scope too. Whoever
 * the credential names pays: a valid API key or user token its own budgets; a room token that opens
 * its meeting the meeting's budget; anything else (no credential, a wrong one, a wrong room token)
 * its address's. Room participants are kept apart from that last budget on purpose: behind a proxy
 * every client shares one address, and a flood of bad keys must not take the rooms offline.
 * CORS preflights are shown a budget's headers without spending it (the browser sends them itself).
 */
function installApiRateLimits(app: AppInstance, deps: PlatformDeps): void {
  const { rateLimit } = deps.config;
  // Without an Authorization header the dashboard's session cookie is the credential. Never on the
  // room routes: they answer any origin (CORS *), so a cookie must not authenticate them.
  identifyCallers(
    app,
    platformCredentialResolver(deps),
    (request) => isApiPath(request.url) && !isRoomPath(request.url),
    sessionCallerResolver(deps.sessions),
  );
  identifyRoomGuests(app, deps.db);
  installRateLimits(app, {
    rules: [
      { name: 'all', points: rateLimit.perMinute, durationSeconds: 60 },
      { name: 'writes', points: rateLimit.writesPerMinute, durationSeconds: 60, writesOnly: true },
    ],
    redis: deps.redis,
    keyPrefix: 'rl:platform',
    appliesTo: (request) => isApiPath(request.url) && request.caller !== null,
    keyOf: (request) => request.caller!.subject,
    isFree: isPreflight,
  });
  installRateLimits(app, {
    rules: [{ name: 'room', points: rateLimit.roomPerMinute, durationSeconds: 60 }],
    redis: deps.redis,
    keyPrefix: 'rl:platform-meeting',
    appliesTo: (request) => request.room !== null,
    keyOf: (request) => request.room!.id,
  });
  installRateLimits(app, {
    rules: [{ name: 'public', points: rateLimit.publicPerMinute, durationSeconds: 60 }],
    redis: deps.redis,
    keyPrefix: 'rl:platform-address',
    appliesTo: (request) => isApiPath(request.url) && request.caller === null && request.room === null,
    keyOf: (request) => request.ip,
    isFree: isPreflight,
  });
  // After the budgets, so a refused cookie write still carries the caller's RateLimit-* headers.
  requireCsrfOnSessionWrites(app, deps.config.publicUrl);
}

/** The /v1 platform API (not yet listening). */
export async function buildPlatformApp(deps: PlatformDeps): Promise<AppInstance> {
  const { app, notFound } = await createHttpApp({
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    trustProxyHops: deps.config.trustProxyHops,
    bounds: deps.config.http,
    openapi: {
      title: 'Understudy Platform API',
      version: PLATFORM_API_VERSION,
      description: 'Meeting simulation: scenarios, personas, goals, meetings, analyses, webhooks.',
      serverPath: '/',
      webhooks: PLATFORM_WEBHOOKS,
      security: [{ bearer: [] }, { sessionCookie: [] }],
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'understudy_session',
          description:
            "The dashboard's session cookie (POST /v1/auth/sessions). Used only when no Authorization header is sent; every POST, PUT, PATCH and DELETE it authenticates needs the header X-CSRF-Token with the session's csrf_token (else 403 csrf_token_invalid), and requests from another site are refused.",
        },
        roomToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Room-Token',
          description: 'The room token of a meeting (`room_token` when it was created); room routes only.',
        },
        roomTokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 't',
          description: 'The room token as the query parameter `t` (the only way for the WebSocket).',
        },
      },
    },
  });
  // The room's WebSocket. Registered before any hook that can answer a request, so that its own
  // hook marks an upgrade first: an upgrade refused by a later one (a 429, a 400) then has its socket closed by the
  // plugin, where registered in the room's scope it was left open.
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    preClose: closeSocketsAfter(() => deps.meetings.hub.handOffAll()),
  });
  installOperations(app, {
    database: deps.database,
    redis: deps.redis,
    metricsToken: deps.config.metricsToken,
    service: 'platform',
  });
  // Every /v1 route, public ones included: an unknown query parameter is a 400 naming it.
  closeQueryStrings(app, (url) => isApiPath(url));
  installApiRateLimits(app, deps);
  // Before the routes register: the MCP tools take their schemas from them.
  const routes = RouteCatalog.collect(app);
  // The scopes a key can hold: those the authenticated /v1 routes ask for, and the mailbox service's two.
  const scopes = new ScopeCatalog({ 'mailbox:read': 0, 'mailbox:write': 0 });
  app.decorate('scopeCatalog', scopes);
  for (const routes of deps.publicRoutes) await routes(app);

  await app.register(
    async (v1) => {
      requireAuthentication(v1);
      scopes.collect(v1, '/v1/');
      installIdempotency(v1, deps);
      v1.setNotFoundHandler(notFound);
      for (const routes of deps.routes) await routes(v1 as AppInstance);
    },
    { prefix: '/v1' },
  );

  registerPlatformMcp(app, {
    routes,
    authenticate: platformCredentialResolver(deps),
    publicUrl: deps.config.publicUrl,
    version: PLATFORM_API_VERSION,
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
