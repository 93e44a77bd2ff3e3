import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { Logger } from 'pino';
import { type HttpBounds, httpBounds } from '../config.ts';
import { clientErrorHandler, installBodyTimeout, rememberRequestId } from '../core/http/bounds.ts';
import { installErrorHandling, requestIdFrom, sendError, toAppError } from '../core/http/error-handler.ts';
import { warnOfIgnoredForwardedFor } from '../core/http/forwarded-for.ts';
import { checkInputOnEveryRoute } from '../core/http/input-checks.ts';
import { createLazySerializerCompiler } from '../core/http/lazy-compile.ts';
import { installRequestBodyRules } from '../core/http/request-body.ts';
import { mintRequestId } from '../core/http/request-id.ts';
import type { AppInstance } from '../core/http/types.ts';
import { createValidatorCompiler } from '../core/http/validation.ts';
import type { WebhookDoc } from '../core/http/webhook-doc.ts';
import { accessLogFields } from '../core/logging.ts';
import { documentedSchema, hoistNamedSchemas, webhookDocuments, withoutNames } from './openapi-components.ts';

export interface HttpAppOptions {
  logger: Logger;
  publicUrl: string;
  openapi: {
    title: string;
    version: string;
    description: string;
    serverPath: string;
    /** Security schemes besides the API key (`bearer`), named by routes' `security`. */
    securitySchemes?: Record<
      string,
      { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; description: string }
    >;
    /** The document's default security (any one of them); the API key (`bearer`) when absent. */
    security?: Array<Record<string, string[]>>;
    /** The events the service POSTs to receivers: the document's `webhooks` section. */
    webhooks?: WebhookDoc[];
  };
  /** The largest body a route parses unless it sets its own `bodyLimit` (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Header, body and keep-alive timeouts (docs/reliability.md, "Bounds and timeouts"). */
  bounds?: HttpBounds;
  /** Proxies whose X-Forwarded-For is believed for `request.ip` (0: none, the socket's address). */
  trustProxyHops?: number;
}

/**
 * A Fastify instance with what both services share: request ids, the error model, strict JSON
 * schemas (unknown fields are refused, not silently dropped) and an OpenAPI document built from
 * the route schemas.
 */
export async function createHttpApp(
  options: HttpAppOptions,
): Promise<{ app: AppInstance; notFound: ReturnType<typeof installErrorHandling> }> {
  const bounds = options.bounds ?? httpBounds({});
  const app = Fastify({
    loggerInstance: options.logger as unknown as FastifyBaseLogger,
    // Fastify's own two synchronous lines per request (incoming / completed) cost about 18 % of
    // throughput; one line is written in onResponse below instead.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (request) => rememberRequestId(request, requestIdFrom(request, mintRequestId)),
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    // Headers must arrive within headersTimeoutMs of the connection (or of the previous response);
    // Node checks every connectionsCheckingInterval, so that is kept well below the timeout. Node's
    // requestTimeout stays off: bodies have per-route timeouts (installBodyTimeout).
    http: {
      headersTimeout: bounds.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(bounds.headersTimeoutMs / 4))),
    },
    requestTimeout: 0,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    // Bad framing, 431, unknown methods and the headers timeout: answered in the spec's shape.
    clientErrorHandler: clientErrorHandler(options.publicUrl, mintRequestId, (error) =>
      options.logger.info({ code: error.code, param: error.param }, 'client error'),
    ),
    return503OnClosing: true,
    // The nearest `trustProxyHops` addresses of X-Forwarded-For are proxies (proxy-addr's hop count).
    trustProxy: options.trustProxyHops
      ? (_address: string, hop: number) => hop < options.trustProxyHops!
      : false,
    // Memory tags (up to 128 characters) arrive URL-encoded in paths: room for the longest.
    routerOptions: { maxParamLength: 512 },
    // A malformed or overlong path is refused by the router before any hook runs: render it in
    // the same shape as every other error, with the request id the hooks would have set.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id);
      return sendError(reply, toAppError(error), options.publicUrl);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Once the app is closing (a drain), every response says `Connection: close`: a connection whose
  // request was in flight at SIGTERM is not offered for another request. A load balancer keeping
  // connections alive (deploy/nginx) would otherwise send the next one there, and get Fastify's
  // 503 for it instead of a refused connect it retries on another instance.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const accessLog = options.logger;
  app.addHook('onResponse', (request, reply, done) => {
    if (accessLog.isLevelEnabled('info'))
      accessLog.info(accessLogFields(request, reply.statusCode, reply.elapsedTime), 'request');
    done();
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSerializerCompiler(createLazySerializerCompiler());
  const notFound = installErrorHandling(app, options.publicUrl);
  checkInputOnEveryRoute(app);
  installBodyTimeout(app, bounds, options.publicUrl);
  installRequestBodyRules(app);
  if (!options.trustProxyHops) warnOfIgnoredForwardedFor(app);
  app.addHook('onRoute', (route) => {
    if (route.schema) route.schema = withoutNames(route.schema);
  });
  const events = webhookDocuments(options.openapi.webhooks ?? []);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.openapi.title,
        version: options.openapi.version,
        description: options.openapi.description,
      },
      servers: [{ url: options.openapi.serverPath }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (svc_…) or a user token (JWT).',
          },
          ...options.openapi.securitySchemes,
        },
        schemas: events.schemas,
      },
      security: options.openapi.security ?? [{ bearer: [] }],
      webhooks: events.webhooks,
    },
    transform: ({ schema, url }) => ({ schema: documentedSchema(schema), url }),
    transformObject: (documentObject) =>
      hoistNamedSchemas(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
      ),
  });
  return { app: app as unknown as AppInstance, notFound };
}
