// The post-meeting analysis pipeline, run by the durable `analysis.run` job (see jobs.ts and
// docs/analysis.md "Pipeline"): not_started → processing → completed, or failed with
// `analysis.failed`. Every write of a run happens in one transaction at its end, keyed by the
// meeting, so a run that dies half-way and runs again leaves exactly one analysis.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { JobLeaseLost, type JobQueue, type JobReschedule } from '../../core/jobs/index.ts';
import { LlmError } from '../../core/llm/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { JOB_NAMES } from '../job-names.ts';
import { isValidTag } from '../memories/facts.ts';
import { addMemories } from '../memories/service.ts';
import { parseScoreRange } from './engine/score-range.ts';
import { computeSpeechAnalytics } from './engine/speech-analytics.ts';
import {
  type AnalysisEvaluator,
  type EvaluationInput,
  type EvaluationOutput,
  offlineEvaluator,
} from './evaluators.ts';
import {
  conversationSeconds,
  goalDefinition,
  goalSnapshot,
  loadMaterial,
  type MeetingMaterial,
} from './material.ts';
import { materialRepository } from './material-repository.ts';
import { renderWebhook } from './render.ts';
import { analysisRepository } from './repository.ts';

/** `evaluator_reason` of an analysis the offline evaluator wrote because the model's stayed invalid. */
export const OFFLINE_FALLBACK_REASON =
  'The language model did not return a valid analysis, even after one repair attempt, so the offline rule-based evaluator produced this analysis.';

/** A re-trigger (or a run right after the end) waits this long for the transcript, then fails. */
export const TRANSCRIPT_WAIT_MS = 5 * 60_000;
const TRANSCRIPT_POLL_MS = 2_000;

export interface PipelineDeps {
  db: Kysely<DB>;
  clock: Clock;
  logger: Logger;
  secretBox: SecretBox;
  events: EventEmitter;
  jobs: JobQueue;
  evaluator: AnalysisEvaluator;
  /** Email notifications are queued only when an SMTP relay is configured. */
  smtpConfigured: boolean;
}

export interface RunContext {
  attempt: number;
  maxAttempts: number;
  signal?: AbortSignal;
  /**
   * Commits the job's completion in the transaction that saves the analysis (or its failure), so
   * a crash after that commit never runs it again: its `session.analysis_complete` goes out once.
   */
  completeWithin?: (tx: Kysely<DB>) => Promise<void>;
}

/** Why a run failed, in words safe to send to the customer (`analysis.failed` `error`). */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AnalysisFailure';
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export class AnalysisPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  /** One run of the job for one meeting. Returns a reschedule while the transcript is not ready. */
  async run(meetingId: string, context: RunContext): Promise<JobReschedule | undefined> {
    const { db, clock, logger } = this.deps;
    const meeting = await materialRepository.meeting(db, meetingId);
    if (!meeting) {
      logger.warn({ meeting_id: meetingId }, 'analysis skipped: the meeting no longer exists');
      return;
    }
    if (meeting.status !== 'ended') {
      // Only reachable through a direct enqueue: the routes refuse meetings that have not ended.
      logger.warn({ meeting_id: meetingId, status: meeting.status }, 'analysis skipped: meeting not ended');
      return;
    }
    let material: MeetingMaterial;
    try {
      material = await loadMaterial(db, meeting);
      if (material.transcript?.status !== 'completed') {
        const waited = clock.now().getTime() - new Date(meeting.ended_at ?? meeting.updated_at).getTime();
        if (waited < TRANSCRIPT_WAIT_MS) {
          await this.markProcessing(meetingId);
          return {
            rescheduleAt: new Date(clock.now().getTime() + TRANSCRIPT_POLL_MS),
            reason: 'waiting for the transcript',
          };
        }
        throw new AnalysisFailure('The transcript of the meeting is not ready.', true);
      }
      await this.markProcessing(meetingId);
      const input = evaluationInput(material);
      const output = await this.evaluate(input, context.signal);
      const facts = material.scenario.memory_enabled ? await this.memoryFacts(input, meetingId, context) : [];
      await this.save(material, input, output, facts, context.completeWithin);
    } catch (error) {
      // Another runner holds the job now: this run must leave no trace, not even a failure.
      if (error instanceof JobLeaseLost) throw error;
      const failure = classify(error);
      const lastAttempt = context.attempt >= context.maxAttempts;
      if (!failure.permanent && !lastAttempt) {
        logger.warn(
          { err: error, meeting_id: meetingId, attempt: context.attempt },
          'analysis run failed; retrying',
        );
        throw error;
      }
      logger.error({ err: error, meeting_id: meetingId, attempt: context.attempt }, 'analysis failed');
      await this.settleFailed(meetingId, failure.message, context.completeWithin);
    }
  }

  async markProcessing(meetingId: string): Promise<void> {
    await analysisRepository.markProcessingUnlessAlready(this.deps.db, meetingId, this.deps.clock.now());
  }

  /**
   * The configured evaluator's analysis. When the platform model's reply still breaks the schema
   * after its repair round, the offline rubric writes the analysis instead (marked with the
   * reason), so the meeting is not left without one; other model errors keep their retry/fail path.
   */
  private async evaluate(input: EvaluationInput, signal?: AbortSignal): Promise<EvaluationOutput> {
    try {
      return await this.deps.evaluator.evaluate(input, signal);
    } catch (error) {
      if (!(error instanceof LlmError && error.code === 'invalid_reply')) throw error;
      this.deps.logger.warn(
        { err: error },
        'the language model gave no valid analysis after its repair round; the offline evaluator wrote it',
      );
      const output = await offlineEvaluator().evaluate(input, signal);
      return { ...output, evaluatorReason: OFFLINE_FALLBACK_REASON };
    }
  }

  /** Memory facts never fail the analysis: a failed extraction is logged and writes nothing. */
  private async memoryFacts(
    input: EvaluationInput,
    meetingId: string,
    context: RunContext,
  ): Promise<string[]> {
    try {
      return await this.deps.evaluator.extractMemories(input, context.signal);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, meeting_id: meetingId },
        'memory extraction failed; no facts written',
      );
      return [];
    }
  }

  private async save(
    material: MeetingMaterial,
    input: EvaluationInput,
    output: EvaluationOutput,
    facts: string[],
    completeWithin?: (tx: Kysely<DB>) => Promise<void>,
  ): Promise<void> {
    const { db, clock, events, logger } = this.deps;
    const { meeting, scenario } = material;
    const goalsById = new Map(material.goals.map((goal) => [goal.id, goal]));
    const scores = output.evaluations.map((evaluation) => evaluation.score);
    const total = scores.length > 0 ? round2(scores.reduce((sum, score) => sum + score, 0)) : null;
    const average = scores.length > 0 ? round2(total! / scores.length) : null;
    const analytics = input.analytics;
    await db.transaction().execute(async (tx) => {
      const now = clock.now();
      // Lock the meeting: a concurrent run (a lost lease still finishing) waits and then replaces.
      const current = await analysisRepository.lockMeeting(tx, meeting.id);
      if (!current) return;
      const row = await analysisRepository.upsert(
        tx,
        {
          id: randomUUID(),
          meeting_id: meeting.id,
          account_id: meeting.account_id,
          scenario_id: meeting.scenario_id,
          evaluator: output.evaluator,
          evaluator_reason: output.evaluatorReason,
          model: output.model,
          title: output.summary.title,
          summary: output.summary.summary,
          call_summary: output.summary.call_summary,
          average_score: average,
          total_score: total,
          strengths: JSON.stringify(output.summary.strengths),
          growth_areas: JSON.stringify(output.summary.growth_areas),
          recommendations: JSON.stringify(output.summary.recommendations),
          highlights: JSON.stringify(output.summary.highlights),
          conversation_length: Math.round(input.durationSeconds),
          filler_words: JSON.stringify(analytics.filler_words),
          weak_words: JSON.stringify(analytics.weak_words),
          repetitions: JSON.stringify(analytics.repetitions),
          sentence_starters: JSON.stringify(analytics.sentence_starters),
          participant_word_count: analytics.participant_word_count,
          participant_speaking_minutes: analytics.participant_speaking_minutes,
          participant_input: analytics.participant_input,
          created_at: now,
          updated_at: now,
        },
        output.evaluations.map((evaluation, position) => {
          const goal = goalsById.get(evaluation.goal_id)!;
          const range = parseScoreRange(goal.instructions);
          return {
            id: randomUUID(),
            account_id: meeting.account_id,
            goal_id: goal.id,
            goal: JSON.stringify(goalSnapshot(goal)),
            score: evaluation.score,
            score_min: range.min,
            score_max: range.max,
            short_description: evaluation.short_description,
            long_description: evaluation.long_description,
            feedback: evaluation.feedback,
            sentence_ids: JSON.stringify(evaluation.sentence_ids),
            position,
            created_at: now,
          };
        }),
      );
      const results = (await analysisRepository.goalResults(tx, [row.id])).get(row.id) ?? [];
      await analysisRepository.markCompleted(tx, meeting.id, row.summary, now);
      const ref = { meeting_id: meeting.id, scenario_id: meeting.scenario_id };
      await events.emit(tx, {
        accountId: meeting.account_id,
        event: 'session.analysis_complete',
        data: { ...ref, analysis: renderWebhook(row, results) },
      });
      if (scenario.legacy_webhook_url && scenario.legacy_webhook_secret) {
        await events.enqueueLegacyMeetingCompleted(tx, {
          accountId: meeting.account_id,
          url: scenario.legacy_webhook_url,
          secret: this.deps.secretBox.open(scenario.legacy_webhook_secret),
          payload: {
            ...ref,
            person_name: meeting.person_name,
            goals: results.map((result) => ({ name: result.goal.name, score: result.score })),
            completed_at: now.toISOString(),
          },
        });
      }
      if (facts.length > 0) {
        const tag = memoryTag(material);
        if (tag) {
          const written = await addMemories(tx, {
            accountId: meeting.account_id,
            tag,
            facts,
            source: { type: 'meeting', meetingId: meeting.id, scenarioId: meeting.scenario_id },
            now,
          });
          logger.info(
            { meeting_id: meeting.id, tag, created: written.created.length, skipped: written.skipped.length },
            'memories written back',
          );
        } else {
          logger.warn({ meeting_id: meeting.id }, 'memory write-back skipped: no container for the meeting');
        }
      }
      await this.queueNotification(tx, material);
      await completeWithin?.(tx);
    });
  }

  /** Rests the meeting in `failed` (re-triggerable) and fires `analysis.failed`. */
  async settleFailed(
    meetingId: string,
    error: string,
    completeWithin?: (tx: Kysely<DB>) => Promise<void>,
  ): Promise<void> {
    const { db, clock, events } = this.deps;
    await db.transaction().execute(async (tx) => {
      const meeting = await analysisRepository.lockWholeMeeting(tx, meetingId);
      if (!meeting) return;
      await analysisRepository.markFailed(tx, meetingId, clock.now());
      await events.emit(tx, {
        accountId: meeting.account_id,
        event: 'analysis.failed',
        data: { meeting_id: meeting.id, scenario_id: meeting.scenario_id, error },
      });
      if (meeting.status === 'ended') {
        const scenario = await analysisRepository.notificationRecipients(tx, meeting.scenario_id);
        await this.queueNotification(tx, { meeting, scenario });
      }
      await completeWithin?.(tx);
    });
  }

  /**
   * The end-of-meeting email, once per meeting (dedupe key), when the first run settles so it
   * can carry the scores. Without an SMTP relay nothing is queued.
   */
  private async queueNotification(
    tx: Kysely<DB>,
    material: { meeting: { id: string }; scenario: { notification_emails: string[] } },
  ): Promise<void> {
    const recipients = material.scenario.notification_emails ?? [];
    if (recipients.length === 0) return;
    if (!this.deps.smtpConfigured) {
      this.deps.logger.info(
        { meeting_id: material.meeting.id, recipients: recipients.length },
        'email notification skipped: SMTP_URL is not configured',
      );
      return;
    }
    await this.deps.jobs.enqueue(
      tx,
      JOB_NAMES.notificationEmail,
      { meeting_id: material.meeting.id },
      { dedupeKey: `${JOB_NAMES.notificationEmail}:${material.meeting.id}` },
    );
  }
}

function evaluationInput(material: MeetingMaterial): EvaluationInput {
  const durationSeconds = conversationSeconds(material);
  return {
    scenarioName: material.scenario.name,
    scenarioType: material.scenario.type,
    scenarioDescription: material.scenario.description,
    personaName: material.persona?.name ?? 'the persona',
    personaTitle: material.persona?.job_title ?? null,
    participantName: material.meeting.person_name ?? material.participant?.name ?? null,
    goals: material.goals.map(goalDefinition),
    turns: material.turns,
    durationSeconds,
    analytics: computeSpeechAnalytics(material.turns, durationSeconds),
  };
}

/** The container the call wrote to: the tag given at creation, else the participant's default one. */
export function memoryTag(material: MeetingMaterial): string | null {
  const candidates = [
    material.meeting.memory_tag,
    material.meeting.user_memory_tag,
    material.participant ? `participant:${material.participant.id}` : null,
  ];
  return candidates.find((tag): tag is string => typeof tag === 'string' && isValidTag(tag)) ?? null;
}

/** Turns any error into the customer-facing message and whether retrying could help. */
export function classify(error: unknown): AnalysisFailure {
  if (error instanceof AnalysisFailure) return error;
  if (error instanceof LlmError) {
    switch (error.code) {
      case 'invalid_reply':
        return new AnalysisFailure(
          'The language model did not return a valid analysis, even after one repair attempt.',
          true,
          { cause: error },
        );
      case 'timeout':
        return new AnalysisFailure('The language model did not answer in time.', false, { cause: error });
      case 'network_error':
        return new AnalysisFailure('The language model could not be reached.', false, { cause: error });
      case 'aborted':
        return new AnalysisFailure('The analysis was interrupted.', false, { cause: error });
      case 'http_error': {
        const status = error.status ?? 500;
        const transient = status >= 500 || status === 408 || status === 429;
        return new AnalysisFailure(`The language model answered with HTTP ${status}.`, !transient, {
          cause: error,
        });
      }
    }
  }
  return new AnalysisFailure('An internal error interrupted the analysis.', false, { cause: error });
}
