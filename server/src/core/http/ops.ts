import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { type Database, pingDatabase } from '../db/database.ts';
import type { AnyFastify } from './any-fastify.ts';
import { checkMetricsAccess } from './metrics-access.ts';

/**
 * /healthz (process up), /readyz (database reachable) and /metrics (Prometheus; behind
 * METRICS_TOKEN, or loopback only without it), plus request metrics.
 */
export function installOperations(
  app: AnyFastify,
  deps: { database: Database; service: string; metricsToken: string | null },
): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: deps.service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const hide = { schema: { hide: true } };
  app.get('/healthz', hide, async () => ({ status: 'ok' }));
  app.get('/readyz', hide, async (_request, reply) => {
    try {
      await pingDatabase(deps.database.db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
  app.get('/metrics', hide, async (request, reply) => {
    checkMetricsAccess(request, deps.metricsToken);
    reply.header('Content-Type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
