// bench/dependency-outage: latency of an authenticated GET (/v1/personas, API key) while Redis or
// PostgreSQL is cut, beside the same request with both healthy, in the same run. The platform runs in
// a child process; its connections to both go through loopback TCP proxies in this one, which cut
// them (open connections dropped, new ones refused) and restore them.
// Usage: npx tsx bench/dependency-outage/run.ts   (DATABASE_URL, REDIS_URL optional: local servers)
import { TcpProxy } from '../../server/src/core/testing/tcp-proxy.ts';
import { startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

function target(url: string, defaultPort: number) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** One timed request (ms) and its status. */
async function timed(url: string, key: string): Promise<{ ms: number; status: number }> {
  const start = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, status: response.status };
}

/** Sequential requests: the latency one client sees, not throughput. */
async function measure(url: string, key: string, expected: number) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const { ms, status } = await timed(url, key);
    if (status !== expected) throw new Error(`${url}: ${status}, expected ${expected}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1)! };
}

async function until(check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
  return Date.now() - start;
}

const database = benchDatabaseUrl('dependency_outage');
const redisProxy = await TcpProxy.start(target(redisUrl, 6379));
const postgresProxy = await TcpProxy.start(target(database.url, 5432));
const { info, child } = await startChild<{ base: string; key: string }>('bench/dependency-outage/server.ts', {
  DATABASE_URL: postgresProxy.rewrite(database.url),
  REDIS_URL: redisProxy.rewrite(redisUrl),
});
const url = `${info.base}/v1/personas`;
const readyz = async () => (await fetch(`${info.base}/readyz`).then((r) => r.json())).status as string;
try {
  await measure(url, info.key, 200); // warm-up
  const healthy = await measure(url, info.key, 200);

  redisProxy.cut();
  const firstAfterRedisCut = await timed(url, info.key);
  const redisCut = await measure(url, info.key, 200);
  const redisReadyz = await readyz();
  redisProxy.restore();
  const redisRecoveryMs = await until(async () => (await readyz()) === 'ready');

  postgresProxy.cut();
  const postgresCut = await measure(url, info.key, 503);
  postgresProxy.restore();
  const postgresRecoveryMs = await until(async () => (await timed(url, info.key)).status === 200);

  console.log(`bench/dependency-outage — GET /v1/personas (API key), ${REQUESTS} sequential requests each`);
  for (const [name, figures, status] of [
    ['both healthy (baseline)', healthy, 200],
    ['Redis cut (circuit open)', redisCut, 200],
    ['PostgreSQL cut', postgresCut, 503],
  ] as const) {
    console.log(
      `${name.padEnd(28)} ${status}  median ${figures.median.toFixed(2).padStart(6)} ms  p99 ${figures.p99.toFixed(2).padStart(6)} ms  max ${figures.max.toFixed(2).padStart(6)} ms  median ratio ${ratio(figures.median, healthy.median)}`,
    );
  }
  console.log(
    `first request after the Redis cut: ${firstAfterRedisCut.status} in ${firstAfterRedisCut.ms.toFixed(2)} ms`,
  );
  console.log(`/readyz with Redis cut: ${redisReadyz}`);
  console.log(`Redis restored → /readyz ready again in ${redisRecoveryMs} ms`);
  console.log(`PostgreSQL restored → first 200 again in ${postgresRecoveryMs} ms`);
} finally {
  await stopChild(child);
  await redisProxy.close();
  await postgresProxy.close();
  database.drop();
}
