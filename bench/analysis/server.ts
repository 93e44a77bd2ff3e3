// The platform under test for bench/analysis, in its own process: HTTP on 127.0.0.1 and the
// background workers (job runner, webhook delivery) as `npm start` runs them, on PostgreSQL, with
// the offline evaluator (no LLM_BASE_URL). Prints one JSON line: the base URL, an API key and a
// scenario with three goals.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { loadConfig } from '../../server/src/config.ts';
import { startWorkers } from '../../server/src/core/workers.ts';

const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-analysis-')),
  LOG_LEVEL: 'warn',
  LLM_BASE_URL: '',
  SMTP_URL: '',
  RATE_LIMIT_PER_MINUTE: '10000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '10000000',
});
const deps = await createPlatformDeps(await createCoreDeps(config));
const app = await buildPlatformApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const stopWorkers = await startWorkers(deps.workers);
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const signup = await call('POST', '/auth/signup', null, {
  email: `bench${Date.now()}@example.com`,
  password: 'benchmark password',
  name: 'Bench',
});
const key = (await call('POST', '/v1/api-secrets', signup.token, { name: 'bench key' })).data
  .secret as string;
const persona = await call('POST', '/v1/personas', key, {
  name: 'Morgan Lee',
  job_title: 'Engineering Manager',
  demeanor: 'analytical',
  gender: 'female',
});
const goals: string[] = [];
for (const goal of [
  { name: 'Communicate clearly', instructions: 'Score 1-10 for structured answers with a clear point.' },
  { name: 'Demonstrate technical depth', instructions: 'Score 1-10 on databases, latency and trade-offs.' },
  { name: 'Ask thoughtful questions', instructions: 'Rate on a 1–5 scale: questions about the team.' },
]) {
  goals.push((await call('POST', '/v1/goals', key, goal)).id);
}
const scenario = await call('POST', '/v1/scenarios', key, {
  name: 'Backend screen',
  type: 'interview',
  persona_id: persona.id,
  prompt: 'Interview a backend engineer.',
  goals,
  session_options: { memory_enabled: true },
});

console.log(JSON.stringify({ base, apiKey: key, scenarioId: scenario.id, accountId: signup.account.id }));

process.on('SIGTERM', async () => {
  await stopWorkers();
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
