// bench/live (b): 300 concurrent simulated participants on the offline engine. Every participant
// joins its own meeting over the realtime WebSocket, waits for the welcome, then takes TURNS turns
// with a random 1–3 s pause before each (PAUSE_MS=min-max overrides), all at once. Turn latency =
// final utterance sent → first agent.delta of the reply (also reported: → agent.message). Memory per session = growth of the
// server's heap (after a full GC) with every session held, ÷ sessions.
// Baseline: the same clients against a bare WebSocket server (bench/live/echo-server.ts) that
// answers at once and stores nothing; ratios are platform ÷ baseline.
// Targets: turn latency p99 < 100 ms, < 256 KB per session.
// Usage: npx tsx bench/live/sessions.ts   (DATABASE_URL optional; SESSIONS overrides 300, TURNS 5)
import { performance } from 'node:perf_hooks';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import {
  BenchParticipant,
  createMeeting,
  deadline,
  fmt,
  percentile,
  type ServerInfo,
  startServer,
  stopServer,
} from './lib.ts';

const SESSIONS = Number(process.env.SESSIONS ?? 300);
const TURNS = Number(process.env.TURNS ?? 5);
// Between a reply and the next utterance: a participant reads or listens, then speaks. Real
// speakers take several seconds per turn; 1–3 s keeps the load well above that.
const PAUSE_MS = (process.env.PAUSE_MS ?? '1000-3000').split('-').map(Number) as [number, number];
const LIMIT_MS = 240_000;

interface Memory {
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
  sessions: number;
  gc: boolean;
}

interface RunResult {
  first: number[];
  full: number[];
  joinMs: number[];
  memoryPerSession: { heap: number; rss: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => PAUSE_MS[0]! + Math.random() * (PAUSE_MS[1]! - PAUSE_MS[0]!);

async function memory(url: string): Promise<Memory> {
  return (await (await fetch(url)).json()) as Memory;
}

/** Connects every participant, runs the turns concurrently, measures memory with all sessions held. */
async function run(
  connect: (index: number) => Promise<BenchParticipant>,
  memoryUrl: string,
  utterance: (turn: number) => string,
): Promise<RunResult> {
  const before = await memory(memoryUrl);
  const joinMs: number[] = [];
  const participants = await Promise.all(
    Array.from({ length: SESSIONS }, async (_, index) => {
      const p = await connect(index);
      const started = performance.now();
      p.send({ type: 'join', consent: { recording: false } });
      await p.until('agent.message');
      joinMs.push(performance.now() - started);
      return p;
    }),
  );
  const first: number[] = [];
  const full: number[] = [];
  await Promise.all(
    participants.map(async (p) => {
      for (let turn = 0; turn < TURNS; turn += 1) {
        await sleep(jitter());
        const sent = performance.now();
        p.send({ type: 'utterance', text: utterance(turn), final: true });
        const delta = await p.until('agent.delta');
        first.push(delta.at - sent);
        const message = await p.until('agent.message');
        full.push(message.at - sent);
      }
    }),
  );
  await sleep(500);
  const held = await memory(memoryUrl);
  if (held.sessions < SESSIONS) throw new Error(`only ${held.sessions} sessions held`);
  await Promise.all(
    participants.map(async (p) => {
      p.send({ type: 'leave' });
      await p.until('ended').catch(() => {});
      p.close();
    }),
  );
  return {
    first,
    full,
    joinMs,
    memoryPerSession: {
      heap: (held.heapUsed + held.external - before.heapUsed - before.external) / SESSIONS,
      rss: (held.rss - before.rss) / SESSIONS,
    },
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const answers = [
  'I worked on that project for two years with a small team of four engineers.',
  'We moved the billing service to PostgreSQL and cut the latency in half.',
  'My part was the data model and the migration plan, which took about three months.',
  'The hardest part was keeping the old and new systems consistent during the switch.',
  'We measured everything with tracing and fixed the slowest queries first.',
];

const limit = deadline(LIMIT_MS, 'sessions benchmark');
const { url, drop } = benchDatabaseUrl('live_sessions');
const platform = await startServer<ServerInfo>('bench/live/server.ts', { DATABASE_URL: url });
const echo = await startServer<{ base: string }>('bench/live/echo-server.ts', {});
try {
  await Promise.race([
    (async () => {
      const meetings: Array<{ id: string; token: string }> = [];
      for (let i = 0; i < SESSIONS; i += 20) {
        const batch = Math.min(20, SESSIONS - i);
        meetings.push(
          ...(await Promise.all(
            Array.from({ length: batch }, () =>
              createMeeting(platform.info, platform.info.offlineScenarioId),
            ),
          )),
        );
      }
      const baseline = await run(
        () => BenchParticipant.connect(echo.info.base, 'x', 'y'),
        `${echo.info.base}/memory`,
        (turn) => answers[turn % answers.length]!,
      );
      const live = await run(
        (index) => BenchParticipant.connect(platform.info.base, meetings[index]!.id, meetings[index]!.token),
        `${platform.info.base}/bench/memory`,
        (turn) => answers[turn % answers.length]!,
      );
      const p50 = percentile(live.first, 50);
      const p99 = percentile(live.first, 99);
      const b50 = percentile(baseline.first, 50);
      const b99 = percentile(baseline.first, 99);
      console.log(
        `${SESSIONS} concurrent participants, offline engine, ${TURNS} turns each (${live.first.length} turns)`,
      );
      console.log(`  turn latency (utterance → first agent.delta)`);
      console.log(`    platform   p50 ${fmt(p50)}  p99 ${fmt(p99)}  max ${fmt(Math.max(...live.first))}`);
      console.log(`    baseline   p50 ${fmt(b50)}  p99 ${fmt(b99)}  (bare WebSocket echo server)`);
      console.log(`    ratio      p50 ${ratio(p50, b50)}  p99 ${ratio(p99, b99)}`);
      console.log(
        `  full reply (utterance → agent.message)  p50 ${fmt(percentile(live.full, 50))}  p99 ${fmt(percentile(live.full, 99))}`,
      );
      console.log(
        `  join → welcome message  p50 ${fmt(percentile(live.joinMs, 50))}  p99 ${fmt(percentile(live.joinMs, 99))} (all ${SESSIONS} at once)`,
      );
      console.log(
        `  memory per session  heap ${kb(live.memoryPerSession.heap)}  (rss ${kb(live.memoryPerSession.rss)}, noisy)` +
          `   baseline heap ${kb(baseline.memoryPerSession.heap)}  rss ${kb(baseline.memoryPerSession.rss)}` +
          `   ratio (heap) ${ratio(live.memoryPerSession.heap, baseline.memoryPerSession.heap)}`,
      );
      console.log(
        `  targets  p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'}   < 256 KB per session: ${
          live.memoryPerSession.heap < 256 * 1024 ? 'met' : 'NOT met'
        }`,
      );
    })(),
    limit.promise,
  ]);
} finally {
  limit.cancel();
  await stopServer(platform.child);
  await stopServer(echo.child);
  drop();
}
