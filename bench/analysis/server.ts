// The platform under test for bench/analysis, in its own process: HTTP on 127.0.0.1 and the
// background workers (job runner, webhook delivery) as `npm start` runs them, on PostgreSQL, with
// the offline evaluator (no LLM_BASE_URL). Prints one JSON line: the base URL, an API key and a
// scenario with three goals.
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { startWorkers } from '../../server/src/core/workers.ts';
import { benchConfig, benchWorkspace, listenOnLoopback } from '../lib/platform-server.ts';

const config = benchConfig('analysis', { SMTP_URL: '' });
const deps = await createPlatformDeps(await createCoreDeps(config));
const app = await buildPlatformApp(deps);
const { base, call } = await listenOnLoopback(app);
const stopWorkers = await startWorkers(deps.workers);
const { key, accountId, personaId } = await benchWorkspace(call, 'analysis');
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
  persona_id: personaId,
  prompt: 'Interview a backend engineer.',
  goals,
  session_options: { memory_enabled: true },
});

console.log(JSON.stringify({ base, apiKey: key, scenarioId: scenario.id, accountId }));

process.on('SIGTERM', async () => {
  await stopWorkers();
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
