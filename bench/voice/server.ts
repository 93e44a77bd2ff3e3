// The platform under test for bench/voice, in its own process: HTTP and the room WebSocket on
// 127.0.0.1, on PostgreSQL, no background workers, with the speech engines the environment
// configures (STT_*/TTS_*, as `npm start` reads them) wrapped in timing decorators
// (timed-engines.ts). Prints one JSON line: base URL, API key, a scenario answered by the
// custom agent at AGENT_URL (agent.ts), the engines' labels and the end-of-speech silence. GET /bench/voice-timings answers (and forgets) the
// engine timings noted since the last call: a bench-only route, nothing in the realtime protocol.
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { closeSpeechEngines, createSpeechEngines } from '../../server/src/platform/speech/wiring.ts';
import { benchConfig, benchWorkspace, listenOnLoopback } from '../lib/platform-server.ts';
import { EngineTimings, timeEngines } from './timed-engines.ts';

const config = benchConfig('voice', { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
const core = await createCoreDeps(config);
const engines = await createSpeechEngines(config, core.logger);
const timings = new EngineTimings();
const deps = await createPlatformDeps(core, { speech: timeEngines(engines, timings) });
const app = await buildPlatformApp(deps);
app.get('/bench/voice-timings', { schema: { hide: true } }, async () => timings.drain());
const { base, call } = await listenOnLoopback(app);
const { key, personaId } = await benchWorkspace(call, 'voice');
if (!process.env.AGENT_URL) throw new Error('AGENT_URL is required');
const scenario = await call('POST', '/v1/scenarios', key, {
  name: 'Voice screen',
  type: 'interview',
  persona_id: personaId,
  prompt: 'Interview a backend engineer.',
  welcome_message: 'Hello. Shall we begin?',
  call_duration: 240,
  custom_agent_enabled: true,
  custom_agent_config: { base_url: process.env.AGENT_URL, timeout_s: 10 },
  session_options: { recording_enabled: false },
});
// The embedded offline persona engine (bench/voice/turns.ts, PERSONA=offline).
const offline = await call('POST', '/v1/scenarios', key, {
  name: 'Voice screen (offline persona)',
  type: 'interview',
  persona_id: personaId,
  prompt: 'Interview a backend engineer about their last projects.',
  welcome_message: 'Hello. Shall we begin?',
  call_duration: 240,
  session_options: { recording_enabled: false },
});

console.log(
  JSON.stringify({
    base,
    apiKey: key,
    offlineScenarioId: offline.id,
    agentScenarioId: scenario.id,
    recognizer: engines.recognizer?.label ?? null,
    synthesizer: engines.synthesizer?.label ?? null,
    endSilenceMs: config.speech.endSilenceMs,
    endOfTurn: config.speech.endOfTurn,
  }),
);

process.on('SIGTERM', async () => {
  await app.close();
  await closeSpeechEngines(engines);
  await disposeAll(deps);
  process.exit(0);
});
