import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, pingDatabase } from '../db/database.ts';
import type { RedisCircuit } from '../redis-circuit.ts';
import type { AnyFastify } from './any-fastify.ts';
import { checkMetricsAccess } from './metrics-access.ts';

type DependencyState = 'ok' | 'unreachable' | 'not_configured';

/**
 * /healthz (process up), /readyz (dependencies) and /metrics (Prometheus; behind METRICS_TOKEN, or
 * loopback only without it), plus request metrics.
 * /readyz is 503 while the database is unreachable (nothing can be served), but 200 with
 * `"status":"degraded"` while only Redis is: requests are then served from in-memory fallbacks,
 * so a load balancer should keep routing to the instance (docs/reliability.md).
 */
export function installOperations(
  app: AnyFastify,
  deps: { database: Database; service: string; redis?: RedisCircuit | null; metricsToken: string | null },
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

  const databaseState = async (): Promise<DependencyState> =>
    pingDatabase(deps.database.db).then(
      () => 'ok',
      () => 'unreachable',
    );
  const redisState = (): DependencyState =>
    !deps.redis ? 'not_configured' : deps.redis.up ? 'ok' : 'unreachable';
  new Gauge({
    name: 'dependency_up',
    help: 'Whether a dependency answers (1) or is unreachable (0); Redis only when configured',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      this.set({ dependency: 'database' }, (await databaseState()) === 'ok' ? 1 : 0);
      if (deps.redis) this.set({ dependency: 'redis' }, deps.redis.up ? 1 : 0);
    },
  });

  // One labelled child per method, route template and status, kept: prom-client hashes the
  // labels on every unlabelled call, a few microseconds of each request. The set is bounded by
  // the routes (an unknown path is 'unmatched').
  const children = new Map<string, { count(): void; time(seconds: number): void }>();
  const childFor = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const counted = requests.labels({ method, route, status });
      const timed = duration.labels({ method, route });
      child = { count: () => counted.inc(), time: (seconds) => timed.observe(seconds) };
      children.set(key, child);
    }
    return child;
  };
  app.addHook('onResponse', (request, reply, done) => {
    const child = childFor(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode);
    child.count();
    child.time(reply.elapsedTime / 1000);
    done();
  });

  const hide = { schema: { hide: true } };
  app.get('/healthz', hide, async () => ({ status: 'ok' }));
  app.get('/readyz', hide, async (_request, reply) => {
    const database = await databaseState();
    const redis = redisState();
    if (database !== 'ok') {
      return reply
        .status(503)
        .send({ status: 'unavailable', reason: 'database unreachable', database, redis });
    }
    return { status: redis === 'unreachable' ? 'degraded' : 'ready', database, redis };
  });
  app.get('/metrics', hide, async (request, reply) => {
    checkMetricsAccess(request, deps.metricsToken);
    reply.header('Content-Type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
