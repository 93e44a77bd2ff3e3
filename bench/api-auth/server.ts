// The servers under test for bench/api-auth, in their own process: the platform on PostgreSQL and a
// bare Fastify route returning the same JSON. Prints one JSON line with URLs and credentials.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
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

const bare = Fastify({ logger: false });
bare.get('/same', async (_request, reply) => reply.type('application/json').send(sameJson));
await bare.listen({ port: 0, host: '127.0.0.1' });

console.log(
  JSON.stringify({
    baselineUrl: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/same`,
    keyUrl,
    listUrl: `${base}/v1/webhooks/endpoints`,
    userToken,
    apiKey: created.data.secret,
  }),
);

process.on('SIGTERM', async () => {
  await bare.close();
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
