// bench/api-auth: authenticated reads against the platform on PostgreSQL + Redis, beside a bare
// Fastify route returning the same JSON and a minimal Fastify + `pg` server doing the same SQL and
// the same Redis call, measured with autocannon in the same run (goal: the API-key read at ≥ 0.8
// of the same-work baseline). The servers run in a child process so the load generator does not
// share their event loop. Then the start-up time of `serve`, cold and warm, on both stores (the
// bundle `npm start` runs against tsx, as bench/startup measures it).
// Usage: npx tsx bench/api-auth/run.ts   (DATABASE_URL optional, a throwaway database otherwise;
// REDIS_URL defaults to redis://127.0.0.1:6379, REDIS_URL= runs without Redis)
import autocannon from 'autocannon';
import { cpuMsOf, startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import { buildIfStale, compiledAgainstTsx, RUNS } from '../lib/startup.ts';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Figures {
  rps: number;
  p99: number;
  /** The servers' process CPU per request (µs): less sensitive than req/s to what else runs. */
  cpuMicros: number;
}

interface ServerInfo {
  baselineUrl: string;
  sameWorkUrl: string;
  redis: boolean;
  sql: string;
  keyUrl: string;
  listUrl: string;
  userToken: string;
  apiKey: string;
}

async function measure(url: string, headers: Record<string, string>): Promise<Figures> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const cpuBefore = cpuMsOf(child.pid!);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuMicros = ((cpuMsOf(child.pid!) - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, cpuMicros };
}

const database = benchDatabaseUrl('api_auth');
const { info, child } = await startChild<ServerInfo>('bench/api-auth/server.ts', {
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});
try {
  const baseline = await measure(info.baselineUrl, {});
  const withUserToken = await measure(info.keyUrl, { authorization: `Bearer ${info.userToken}` });
  // API keys are refused on /api-secrets (403 by design), so the API-key figure reads a
  // workspace resource list through the same authentication, rate-limit and database path.
  // It and the same-work baseline alternate over several rounds, so a change in the machine's
  // load during the run weighs on both; the ratio printed is the median of the rounds'.
  const rounds: { sameWork: Figures; withApiKey: Figures }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const sameWork = await measure(info.sameWorkUrl, {});
    const withApiKey = await measure(info.listUrl, { authorization: `Bearer ${info.apiKey}` });
    rounds.push({ sameWork, withApiKey });
  }
  const ratios = rounds.map((r) => r.withApiKey.rps / r.sameWork.rps).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const middle = rounds.find((r) => r.withApiKey.rps / r.sameWork.rps === median)!;
  const { sameWork, withApiKey } = middle;
  console.log(
    `bench/api-auth — ${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL${info.redis ? ' + Redis' : ''}`,
  );
  console.log(`same-work SQL: ${info.sql.replace(/\s+/g, ' ')}`);
  for (const [name, figures] of [
    ['bare Fastify, same JSON (baseline)', baseline],
    ['Fastify + pg, same SQL and Redis call', sameWork],
    ['GET /v1/api-secrets/{id}, user token', withUserToken],
    ['GET /v1/webhooks/endpoints, API key', withApiKey],
  ] as const) {
    console.log(
      `${name.padEnd(40)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(4)} ms  server CPU ${figures.cpuMicros.toFixed(0).padStart(3)} µs/req  ratio to bare ${ratio(figures.rps, baseline.rps)}  to same-work ${ratio(figures.rps, sameWork.rps)}`,
    );
  }
  console.log(
    `API-key read / same-work baseline, per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median.toFixed(2)} (goal ≥ 0.8; the median round is shown above)`,
  );
} finally {
  await stopChild(child);
  database.drop();
}

buildIfStale();
console.log(`start-up: spawn → /healthz 200 of \`serve\`, median of ${RUNS} warm starts`);
for (const store of ['pglite', 'postgres'] as const)
  console.log((await compiledAgainstTsx(store)).lines.join('\n'));
