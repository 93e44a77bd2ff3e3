import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openTestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { JobCatalog, JobQueue, JobRunner } from '../../src/core/jobs/index.ts';
import type { TranscriptTurn } from '../../src/platform/analyses/engine/types.ts';
import { type ApiClient, ok, startPlatform, type TestCoreOptions, type TestPlatform } from '../harness.ts';

/**
 * The platform on a database of its own (a throwaway database when DATABASE_URL is set): the job
 * runners of these tests run every due job, so test files must not share job rows.
 */
export async function startAnalysisPlatform(
  options: Omit<TestCoreOptions, 'database'> = {},
): Promise<TestPlatform> {
  const test = await openTestDatabase();
  const platform = await startPlatform({ ...options, database: test.database });
  return {
    ...platform,
    async close() {
      await platform.close();
      await test.close();
    },
  };
}

export const silentLogger = { info() {}, warn() {}, error() {} };

export interface GoalBody {
  name: string;
  description?: string;
  instructions?: string;
  active?: boolean;
}

export const INTERVIEW_GOAL_BODIES: GoalBody[] = [
  {
    name: 'Communicate clearly',
    description: 'Explains ideas in a structured, concise way that a teammate can follow.',
    instructions: 'Score 1-10. High scores for structured answers with a clear point and a concrete example.',
  },
  {
    name: 'Demonstrate technical depth',
    description: 'Shows real backend experience: databases, latency, scaling, trade-offs and incidents.',
    instructions: 'Score 1-10 based on how specific the technical detail and trade-off reasoning are.',
  },
  {
    name: 'Ask thoughtful questions',
    description: 'Asks the interviewer about the team, the system and how success is measured.',
    instructions: 'Rate on a 1–5 scale. Count genuine questions about the team or the role.',
  },
];

export interface ScenarioSetup {
  scenarioId: string;
  personaId: string;
  goalIds: string[];
}

/** A persona, goals and a scenario scoring them, created through the API. */
export async function createScenario(
  caller: ApiClient,
  options: { goals?: GoalBody[]; sessionOptions?: Record<string, unknown> } = {},
): Promise<ScenarioSetup> {
  const persona = ok(
    await caller.call('POST', '/personas', {
      name: 'Morgan Lee',
      job_title: 'Engineering Manager',
      demeanor: 'analytical',
      gender: 'female',
    }),
    201,
  );
  const personaId = persona.id ?? persona.data?.id;
  const goalIds: string[] = [];
  for (const goal of options.goals ?? INTERVIEW_GOAL_BODIES) {
    goalIds.push(ok(await caller.call('POST', '/goals', goal), 201).id);
  }
  const scenario = ok(
    await caller.call('POST', '/scenarios', {
      name: 'Backend screen',
      type: 'interview',
      persona_id: personaId,
      prompt: 'Interview a backend engineer.',
      goals: goalIds,
      ...(options.sessionOptions ? { session_options: options.sessionOptions } : {}),
    }),
    201,
  );
  return { scenarioId: scenario.id ?? scenario.data?.id, personaId, goalIds };
}

export interface EndedMeeting {
  meetingId: string;
  participantId: string;
  transcriptId: number;
}

/**
 * An ended meeting with its participant and completed transcript, written straight to the
 * database (as the live engine's finalisation leaves it), with `transcript.ready` emitted and,
 * unless `enqueue` is false, `analysis.run` queued the way the finalisation queues it.
 */
export async function insertEndedMeeting(
  t: TestPlatform,
  accountId: string,
  scenarioId: string,
  turns: TranscriptTurn[],
  options: {
    personName?: string | null;
    durationSeconds?: number;
    userMemoryTag?: string | null;
    enqueue?: boolean;
    status?: 'created' | 'active' | 'ended';
    transcriptStatus?: 'in_progress' | 'completed';
  } = {},
): Promise<EndedMeeting> {
  const { db } = t.deps;
  const now = t.clock.now();
  const meetingId = randomUUID();
  const duration =
    options.durationSeconds ?? Math.ceil(Math.max(0, ...turns.map((turn) => turn.startSeconds)) + 20);
  const status = options.status ?? 'ended';
  const startedAt = new Date(now.getTime() - duration * 1000);
  await db
    .insertInto('meetings')
    .values({
      id: meetingId,
      account_id: accountId,
      scenario_id: scenarioId,
      person_name: options.personName === undefined ? 'Priya Raman' : options.personName,
      meeting_type: 'regular',
      user_memory_tag: options.userMemoryTag ?? null,
      status,
      analysis_status: 'not_started',
      started_at: status === 'created' ? null : startedAt,
      ended_at: status === 'ended' ? now : null,
      duration_seconds: status === 'ended' ? duration : null,
      created_at: startedAt,
      updated_at: now,
    })
    .execute();
  const participantId = randomUUID();
  await db
    .insertInto('meeting_participants')
    .values({
      id: participantId,
      meeting_id: meetingId,
      account_id: accountId,
      name: 'Priya Raman',
      is_self: true,
      joined_at: startedAt,
      left_at: status === 'ended' ? now : null,
      created_at: startedAt,
      updated_at: now,
    })
    .execute();
  const transcriptStatus = options.transcriptStatus ?? (status === 'ended' ? 'completed' : 'in_progress');
  const transcript = await db
    .insertInto('transcripts')
    .values({
      meeting_id: meetingId,
      account_id: accountId,
      scenario_id: scenarioId,
      status: transcriptStatus,
      created_at: startedAt,
      updated_at: now,
      completed_at: transcriptStatus === 'completed' ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const transcriptId = Number(transcript.id);
  // One sentence row per sentence of a turn, as the live engine stores them.
  let sequence = 0;
  const rows = turns.flatMap((turn) =>
    splitForRows(turn.message).map((message, index) => ({
      transcript_id: transcriptId,
      meeting_id: meetingId,
      account_id: accountId,
      speaker: turn.speaker,
      message,
      start_ms: Math.round(turn.startSeconds * 1000) + index * 1000,
      end_ms: null,
      sequence_number: ++sequence,
      created_at: now,
    })),
  );
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('transcript_sentences')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  await db
    .updateTable('transcripts')
    .set({ sentence_count: rows.length })
    .where('id', '=', transcriptId)
    .execute();
  if (transcriptStatus === 'completed') {
    await db.transaction().execute(async (tx) => {
      await t.deps.events.emit(tx, {
        accountId,
        event: 'transcript.ready',
        data: {
          meeting_id: meetingId,
          scenario_id: scenarioId,
          transcript_id: transcriptId,
          sentence_count: rows.length,
        } as never,
      });
      if (options.enqueue !== false && status === 'ended') {
        await new JobQueue(t.clock).enqueue(
          tx,
          'analysis.run',
          { meeting_id: meetingId, account_id: accountId },
          { dedupeKey: `analysis.run:${meetingId}` },
        );
      }
    });
  }
  return { meetingId, participantId, transcriptId };
}

/** Splits a turn at sentence ends so that the pipeline has to group sentences into turns again. */
function splitForRows(message: string): string[] {
  const parts = message.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [message];
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/** A runner for the analysis jobs, on the platform's database and fake clock. */
export function analysisRunner(t: TestPlatform): JobRunner {
  return new JobRunner({
    database: t.deps.database,
    clock: t.clock,
    catalog: new JobCatalog(t.deps.analysisJobs),
    logger: silentLogger,
  });
}

export async function meetingRow(t: TestPlatform, meetingId: string) {
  return t.deps.db.selectFrom('meetings').selectAll().where('id', '=', meetingId).executeTakeFirstOrThrow();
}

export async function eventsOf(t: TestPlatform, meetingId: string) {
  const rows = await t.deps.db
    .selectFrom('platform_events')
    .selectAll()
    .where(sql<string>`data->>'meeting_id'`, '=', meetingId)
    .orderBy('created_at')
    .execute();
  return rows;
}
