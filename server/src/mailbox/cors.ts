// CORS for one origin: the platform's dashboard (PUBLIC_URL) calls /v0 from the browser with a
// mailbox key the user pasted (docs/dashboard.md, "Mailbox"). Keys travel in the Authorization
// header, never in cookies, so no credentials mode is needed; every other origin gets no CORS
// headers at all and its scripts cannot read an answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../core/http/types.ts';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
/** Read by the dashboard: attachment names, rate-limit waits, the id to quote in a report. */
const EXPOSED_HEADERS = 'Content-Disposition, Retry-After, X-Request-Id';

export function installDashboardCors(app: AppInstance, dashboardOrigin: string): void {
  const allowed = (request: FastifyRequest) => request.headers.origin === dashboardOrigin;
  const common = (reply: FastifyReply) =>
    reply.header('Access-Control-Allow-Origin', dashboardOrigin).header('Vary', 'Origin');

  app.addHook('onRequest', async (request, reply) => {
    if (allowed(request)) common(reply).header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  });

  // Preflights carry no key: answered here, outside /v0's authentication and rate limits.
  app.options('/v0/*', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request)) return reply.status(204).send();
    return common(reply)
      .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
      .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
      .header('Access-Control-Max-Age', '600')
      .status(204)
      .send();
  });
}
