import websocket from '@fastify/websocket';
import { installOperations } from '../core/http/ops.ts';
import { installRateLimits } from '../core/http/rate-limit.ts';
import type { AppInstance } from '../core/http/types.ts';
import { RouteCatalog } from '../core/mcp/route-tool.ts';
import { installMailboxAuth } from '../mailbox/auth/plugin.ts';
import { applyMessageBodyLimit, MAILBOX_JSON_BODY_LIMIT, messageBodyLimit } from '../mailbox/body-limits.ts';
import { installDashboardCors } from '../mailbox/cors.ts';
import { MAILBOX_WEBHOOKS } from '../mailbox/events/schemas.ts';
import { registerMailboxMcp } from '../mailbox/mcp/wiring.ts';
import { enforceRouteRules } from '../mailbox/route-rules.ts';
import type { MailboxDeps } from '../mailbox/wiring.ts';
import { createHttpApp } from './http-app.ts';
import { closeSocketsGoingAway } from './websocket-shutdown.ts';

export const MAILBOX_API_VERSION = '0.4.0';
export { WS_GOING_AWAY } from './websocket-shutdown.ts';

/** The /v0 mailbox API (not yet listening). The SMTP listener is started beside it by `serve`. */
export async function buildMailboxApp(deps: MailboxDeps): Promise<AppInstance> {
  const { app, notFound } = await createHttpApp({
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    trustProxyHops: deps.config.trustProxyHops,
    bounds: deps.config.http,
    openapi: {
      title: 'Understudy Mailbox API',
      version: MAILBOX_API_VERSION,
      description:
        'Inboxes for agents: real SMTP in and out, threading, scoped keys, webhooks and WebSocket events.',
      serverPath: '/v0',
      webhooks: MAILBOX_WEBHOOKS,
    },
    // Only the routes that compose a message take message-sized bodies (applyMessageBodyLimit).
    bodyLimitBytes: MAILBOX_JSON_BODY_LIMIT,
  });
  installOperations(app, {
    database: deps.database,
    redis: deps.redis,
    metricsToken: deps.config.metricsToken,
    service: 'mailbox',
  });
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    preClose: closeSocketsGoingAway,
  });
  // Before /v0 registers, so its answers (errors included) carry the dashboard's CORS headers.
  installDashboardCors(app, new URL(deps.config.publicUrl).origin);
  // Before the routes register: the MCP tools take their schemas from them.
  const routes = RouteCatalog.collect(app);

  await app.register(
    async (v0) => {
      enforceRouteRules(v0);
      applyMessageBodyLimit(v0, deps.config.mailMaxMessageBytes);
      installMailboxAuth(v0, deps.resolver);
      installRateLimits(v0, {
        // Spec default: 300 requests per 60 s per key (MAILBOX_RATE_LIMIT, MAILBOX_RATE_WINDOW_SECONDS).
        rules: [{ name: 'all', ...deps.config.mailboxRateLimit }],
        redis: deps.redis,
        keyPrefix: 'rl:mailbox',
        keyOf: (request) => request.mailbox.subject,
        fixedRetryAfterSeconds: deps.config.mailboxRateLimit.durationSeconds,
      });
      v0.setNotFoundHandler(notFound);
      for (const routes of deps.routes) await routes(v0 as AppInstance);
    },
    { prefix: '/v0' },
  );

  // Outside /v0 (the MCP endpoint checks the key itself); each tool call re-enters /v0 with it.
  registerMailboxMcp(app, {
    routes,
    resolver: deps.resolver,
    publicUrl: deps.config.publicUrl,
    version: MAILBOX_API_VERSION,
    bodyLimit: messageBodyLimit(deps.config.mailMaxMessageBytes),
  });

  app.get('/v0/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The reference site is the platform's (PUBLIC_URL), where the mailbox's `doc_url`s point too.
  const reference = deps.config.publicUrl;
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(`${reference}/docs/api/mailbox`),
  );
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(`${reference}/docs/errors`),
  );
  return app;
}
