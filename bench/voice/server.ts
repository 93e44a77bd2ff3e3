// The platform under test for bench/voice, in its own process: HTTP and the room WebSocket on
// 127.0.0.1, on PostgreSQL, no background workers, with the speech engines the environment
// configures (STT_*/TTS_*, as `npm start` reads them) wrapped in timing decorators
// (timed-engines.ts). Prints one JSON line: base URL, API key, a scenario answered by the
// custom agent at AGENT_URL (agent.ts), the engines' labels and the end-of-speech silence. GET /bench/voice-timings answers (and forgets) the
// engine timings noted since the last call: a bench-only route, nothing in the realtime protocol.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { loadConfig } from '../../server/src/config.ts';
import { closeSpeechEngines, createSpeechEngines } from '../../server/src/platform/speech/wiring.ts';
import { EngineTimings, timeEngines } from './timed-engines.ts';

const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-voice-')),
  LOG_LEVEL: 'warn',
  LLM_BASE_URL: '',
  SEARCH_URL: '',
  OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
  RATE_LIMIT_PER_MINUTE: '10000000',
  WRITE_RATE_LIMIT_PER_MINUTE: '10000000',
});
const core = await createCoreDeps(config);
const engines = await createSpeechEngines(config, core.logger);
const timings = new EngineTimings();
const deps = await createPlatformDeps(core, { speech: timeEngines(engines, timings) });
const app = await buildPlatformApp(deps);
app.get('/bench/voice-timings', { schema: { hide: true } }, async () => timings.drain());
await app.listen({ port: 0, host: '127.0.0.1' });
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
  email: `bench-voice-${Date.now()}@example.com`,
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
if (!process.env.AGENT_URL) throw new Error('AGENT_URL is required');
const scenario = await call('POST', '/v1/scenarios', key, {
  name: 'Voice screen',
  type: 'interview',
  persona_id: persona.id,
  prompt: 'Interview a backend engineer.',
  welcome_message: 'Hello. Shall we begin?',
  call_duration: 240,
  custom_agent_enabled: true,
  custom_agent_config: { base_url: process.env.AGENT_URL, timeout_s: 10 },
  session_options: { recording_enabled: false },
});

console.log(
  JSON.stringify({
    base,
    apiKey: key,
    offlineScenarioId: null,
    agentScenarioId: scenario.id,
    recognizer: engines.recognizer?.label ?? null,
    synthesizer: engines.synthesizer?.label ?? null,
    endSilenceMs: config.speech.endSilenceMs,
  }),
);

process.on('SIGTERM', async () => {
  await app.close();
  await closeSpeechEngines(engines);
  await disposeAll(deps);
  process.exit(0);
});
