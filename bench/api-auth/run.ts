// bench/api-auth: authenticated reads against the platform on PostgreSQL, beside a bare Fastify
// route returning the same JSON, measured with autocannon in the same run. The servers run in a
// child process so the load generator does not share their event loop.
// Usage: npx tsx bench/api-auth/run.ts   (DATABASE_URL optional; a throwaway database otherwise)
import autocannon from 'autocannon';
import { startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface ServerInfo {
  baselineUrl: string;
  keyUrl: string;
  listUrl: string;
  userToken: string;
  apiKey: string;
}

async function measure(url: string, headers: Record<string, string>) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const database = benchDatabaseUrl('api_auth');
const { info, child } = await startChild<ServerInfo>('bench/api-auth/server.ts', {
  DATABASE_URL: database.url,
});
try {
  const baseline = await measure(info.baselineUrl, {});
  const withUserToken = await measure(info.keyUrl, { authorization: `Bearer ${info.userToken}` });
  // API keys are refused on /api-secrets (403 by design), so the API-key figure reads a
  // workspace resource list through the same authentication, rate-limit and database path.
  const withApiKey = await measure(info.listUrl, { authorization: `Bearer ${info.apiKey}` });
  console.log(`bench/api-auth — ${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL`);
  for (const [name, figures] of [
    ['bare Fastify, same JSON (baseline)', baseline],
    ['GET /v1/api-secrets/{id}, user token', withUserToken],
    ['GET /v1/webhooks/endpoints, API key', withApiKey],
  ] as const) {
    console.log(
      `${name.padEnd(40)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(4)} ms  ratio ${ratio(figures.rps, baseline.rps)}`,
    );
  }
} finally {
  await stopChild(child);
  database.drop();
}
