// The servers under test for bench/api-auth, in their own process: the platform on PostgreSQL (and
// Redis when REDIS_URL is set), a bare Fastify route returning the same JSON, and a minimal Fastify
// + `pg` server doing, per request, the same SQL the API-key read runs (captured from the driver)
// and the same Redis call (the rate limiter's consume). Prints one JSON line with URLs and credentials.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { loadConfig } from '../../server/src/config.ts';

const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '10000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '10000000',
});
const deps = await createPlatformDeps(await createCoreDeps(config));
const app = await buildPlatformApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const signup = await fetch(`${base}/auth/signup`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    email: `bench${Date.now()}@example.com`,
    password: 'benchmark password',
    name: 'Bench',
  }),
}).then((r) => r.json());
const userToken: string = signup.token;
const created = await fetch(`${base}/v1/api-secrets`, {
  method: 'POST',
  headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench key' }),
}).then((r) => r.json());
const keyUrl = `${base}/v1/api-secrets/${created.data.id}`;
const sameJson = await fetch(keyUrl, { headers: { authorization: `Bearer ${userToken}` } }).then((r) =>
  r.text(),
);

// The SQL of one API-key read, as the platform sends it to the driver.
const listUrl = `${base}/v1/webhooks/endpoints`;
const apiKey: string = created.data.secret;
await fetch(listUrl, { headers: { authorization: `Bearer ${apiKey}` } }); // warms the key cache
const captured: { text: string; values: unknown[] }[] = [];
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values] = args as [unknown, unknown[] | undefined];
  if (typeof text === 'string') captured.push({ text, values: values ?? [] });
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;
const listJson = await fetch(listUrl, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) =>
  r.text(),
);
pg.Client.prototype.query = originalQuery;
if (captured.length !== 1) throw new Error(`expected one query per API-key read, saw ${captured.length}`);
const [statement] = captured as [{ text: string; values: unknown[] }];

const bare = Fastify({ logger: false });
bare.get('/same', async (_request, reply) => reply.type('application/json').send(sameJson));
await bare.listen({ port: 0, host: '127.0.0.1' });

// The same-work baseline: pg pool, the captured statement, the rate limiter's Redis consume. Its
// connections carry the platform's statement and connect timeouts, and its Redis client the
// platform's command timeout: issue 15 requires them of every server, and PostgreSQL arms a timer
// for each statement run under statement_timeout (about 5 µs of its CPU per request here), so
// without them the baseline would do less database work than the platform for the same SQL.
const pool = new pg.Pool({
  connectionString: config.databaseUrl!,
  max: 20,
  connectionTimeoutMillis: config.database.connectTimeoutMs,
  statement_timeout: config.database.statementTimeoutMs,
});
const redis = config.redisUrl
  ? new Redis(config.redisUrl, { commandTimeout: config.redis.commandTimeoutMs })
  : null;
const limiter = redis
  ? new RateLimiterRedis({
      storeClient: redis,
      points: 10_000_000,
      duration: 60,
      keyPrefix: 'rl:bench-baseline:all',
    })
  : null;
const sameWork = Fastify({ logger: false });
sameWork.get('/same-work', async (_request, reply) => {
  await limiter?.consume('bench');
  const { rows } = await pool.query(statement.text, statement.values);
  return reply.type('application/json').send(JSON.stringify({ data: rows }));
});
await sameWork.listen({ port: 0, host: '127.0.0.1' });

console.log(
  JSON.stringify({
    baselineUrl: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/same`,
    sameWorkUrl: `http://127.0.0.1:${(sameWork.server.address() as { port: number }).port}/same-work`,
    keyUrl,
    listUrl,
    userToken,
    apiKey,
    redis: redis !== null,
    sql: statement.text,
    listBytes: listJson.length,
  }),
);

process.on('SIGTERM', async () => {
  await bare.close();
  await sameWork.close();
  await pool.end();
  redis?.disconnect();
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
