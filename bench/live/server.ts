// The platform under test for bench/live, in its own process (run with --expose-gc): HTTP and the
// room WebSocket on 127.0.0.1, on PostgreSQL, no background workers (the measurements are about
// live sessions, not what follows them). Prints one JSON line: the base URL, an API key, an offline
// scenario and, when AGENT_URL is set, a custom-agent scenario pointing at it. GET /bench/memory
// answers the process's memory after a full GC.
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { loadEmbeddings } from '../../server/src/platform/live/providers/offline-script/embeddings.ts';
import { benchConfig, benchWorkspace, listenOnLoopback } from '../lib/platform-server.ts';

// The offline engine's word vectors are a fixed cost of the process (about 29 MB, read once), not of
// a session: read them before the first memory reading so the per-session figure stays per session.
await loadEmbeddings();
const config = benchConfig('live', { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
const deps = await createPlatformDeps(await createCoreDeps(config));
const app = await buildPlatformApp(deps);
app.get('/bench/memory', { schema: { hide: true } }, async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i += 1) gc?.();
  return { ...process.memoryUsage(), sessions: deps.meetings.hub.size, gc: Boolean(gc) };
});
const { base, call } = await listenOnLoopback(app);
const { key, personaId } = await benchWorkspace(call, 'live');
const questions = Array.from({ length: 20 }, (_, i) => `${i + 1}. Ask about project number ${i + 1}.`).join(
  '\n',
);
const offline = await call('POST', '/v1/scenarios', key, {
  name: 'Long screen',
  type: 'interview',
  persona_id: personaId,
  prompt: `## Questions\n${questions}`,
  welcome_message: 'Hello, I am Morgan. Shall we begin?',
  call_duration: 240,
  session_options: { recording_enabled: false },
});
const agent = process.env.AGENT_URL
  ? await call('POST', '/v1/scenarios', key, {
      name: 'Custom agent screen',
      type: 'interview',
      persona_id: personaId,
      prompt: 'Interview a backend engineer.',
      welcome_message: 'Hello, I am Morgan.',
      call_duration: 240,
      custom_agent_enabled: true,
      custom_agent_config: { base_url: process.env.AGENT_URL, timeout_s: 10 },
      session_options: { recording_enabled: false },
    })
  : null;

console.log(
  JSON.stringify({ base, apiKey: key, offlineScenarioId: offline.id, agentScenarioId: agent?.id ?? null }),
);

process.on('SIGTERM', async () => {
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
