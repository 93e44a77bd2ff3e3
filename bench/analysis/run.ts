// bench/analysis: time from PUT /meetings/{id}/end to `analysis_status: completed` (as seen by
// polling GET /meetings/{id}) for a 30-minute transcript with the offline evaluator, p50 and p99
// over 50 meetings run one after another. The platform runs in a child process on loopback with
// its workers (meeting.finalize, then analysis.run, through the durable job queue on PostgreSQL).
// Baseline: the pure analysis functions alone (speech analytics, goal evaluation, summary, memory
// extraction) on the same transcript, in this process; the ratio is pipeline ÷ baseline.
// Usage: npx tsx bench/analysis/run.ts   (DATABASE_URL optional; a throwaway database otherwise;
// MEETINGS overrides 50)
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../../server/src/core/db/database.ts';
import { evaluateGoalsOffline } from '../../server/src/platform/analyses/engine/offline-goal-scoring.ts';
import { extractMemoriesOffline } from '../../server/src/platform/analyses/engine/offline-memory-facts.ts';
import { summarizeOffline } from '../../server/src/platform/analyses/engine/offline-summary.ts';
import { computeSpeechAnalytics } from '../../server/src/platform/analyses/engine/speech-analytics.ts';
import type { GoalDefinition } from '../../server/src/platform/analyses/engine/types.ts';
import { startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import { BENCH_DURATION_SECONDS, sentenceRows, thirtyMinuteTranscript } from './transcript.ts';

const MEETINGS = Number(process.env.MEETINGS ?? 50);
const WARMUP = 3;
const POLL_MS = 5;
const TIMEOUT_MS = 30_000;

interface ServerInfo {
  base: string;
  apiKey: string;
  scenarioId: string;
  accountId: string;
}

const turns = thirtyMinuteTranscript();
const rows = sentenceRows(turns);
const participantWords = turns
  .filter((turn) => turn.speaker === 'user')
  .reduce((sum, turn) => sum + turn.message.split(/\s+/).length, 0);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The pure functions the pipeline wraps, on the same transcript and goals. */
function baselineOnce(goals: GoalDefinition[]): void {
  const analytics = computeSpeechAnalytics(turns, BENCH_DURATION_SECONDS);
  const evaluations = evaluateGoalsOffline(goals, turns, analytics);
  summarizeOffline({
    scenarioName: 'Backend screen',
    personaName: 'Morgan Lee',
    participantName: 'Priya Raman',
    turns,
    evaluations,
    analytics,
    durationSeconds: BENCH_DURATION_SECONDS,
    goals,
  });
  extractMemoriesOffline(turns);
}

const benchGoals: GoalDefinition[] = [
  {
    id: 'a',
    name: 'Communicate clearly',
    description: null,
    instructions: 'Score 1-10 for structured answers with a clear point.',
    active: true,
  },
  {
    id: 'b',
    name: 'Demonstrate technical depth',
    description: null,
    instructions: 'Score 1-10 on databases, latency and trade-offs.',
    active: true,
  },
  {
    id: 'c',
    name: 'Ask thoughtful questions',
    description: null,
    instructions: 'Rate on a 1–5 scale: questions about the team.',
    active: true,
  },
];

function measureBaseline(): number[] {
  for (let i = 0; i < WARMUP; i += 1) baselineOnce(benchGoals);
  const times: number[] = [];
  for (let i = 0; i < MEETINGS; i += 1) {
    const start = performance.now();
    baselineOnce(benchGoals);
    times.push(performance.now() - start);
  }
  return times;
}

const database = benchDatabaseUrl('analysis');
const { info, child } = await startChild<ServerInfo>('bench/analysis/server.ts', {
  DATABASE_URL: database.url,
});
const db = (await openPostgres(database.url)).db;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${info.base}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${info.apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: Record<string, any> };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A meeting that has run for 30 minutes with the whole conversation in its transcript. */
async function prepareMeeting(): Promise<string> {
  const meeting = (
    await api('POST', '/meetings', { scenario_id: info.scenarioId, person_name: 'Priya Raman' })
  ).data;
  const startedAt = new Date(Date.now() - BENCH_DURATION_SECONDS * 1000);
  await db
    .updateTable('meetings')
    .set({ status: 'active', started_at: startedAt, updated_at: startedAt })
    .where('id', '=', meeting.id)
    .execute();
  const transcript = await db
    .selectFrom('transcripts')
    .select('id')
    .where('meeting_id', '=', meeting.id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('transcript_sentences')
    .values(
      rows.map((row) => ({
        ...row,
        transcript_id: transcript.id,
        meeting_id: meeting.id,
        account_id: info.accountId,
        end_ms: null,
        created_at: startedAt,
      })),
    )
    .execute();
  return meeting.id;
}

/** PUT /end, then poll the meeting until its analysis is completed; milliseconds in between. */
async function endToCompleted(meetingId: string): Promise<number> {
  const start = performance.now();
  await api('PUT', `/meetings/${meetingId}/end`);
  for (;;) {
    const meeting = (await api('GET', `/meetings/${meetingId}`)).data;
    if (meeting.analysis_status === 'completed') return performance.now() - start;
    if (meeting.analysis_status === 'failed') throw new Error(`analysis of ${meetingId} failed`);
    if (performance.now() - start > TIMEOUT_MS) throw new Error(`analysis of ${meetingId} timed out`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

try {
  for (let i = 0; i < WARMUP; i += 1) await endToCompleted(await prepareMeeting());
  const pipeline: number[] = [];
  for (let i = 0; i < MEETINGS; i += 1) pipeline.push(await endToCompleted(await prepareMeeting()));
  const baseline = measureBaseline();

  const figures = [
    ['pure analysis functions (baseline)', baseline],
    ['PUT /end → analysis_status completed', pipeline],
  ] as const;
  const p50Base = percentile(baseline, 50);
  const p99Base = percentile(baseline, 99);
  console.log(
    `bench/analysis — ${MEETINGS} meetings one after another, 30-minute transcript (${turns.length} turns, ${rows.length} sentences, ${participantWords} participant words), offline evaluator, PostgreSQL, loopback`,
  );
  for (const [name, times] of figures) {
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    console.log(
      `${name.padEnd(40)} p50 ${p50.toFixed(1).padStart(7)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  ratio p50 ${ratio(p50, p50Base)}  p99 ${ratio(p99, p99Base)}`,
    );
  }
  const p99 = percentile(pipeline, 99);
  console.log(`target p99 < 2000 ms: ${p99 < 2000 ? 'met' : 'MISSED'} (${p99.toFixed(1)} ms)`);
} finally {
  await db.destroy();
  await stopChild(child);
  database.drop();
}
