import { Type } from 'typebox';
import { defineJob, type JobDefinition, type RetryPolicy } from '../../core/jobs/index.ts';
import { JOB_NAMES } from '../job-names.ts';
import { composeNotification, type NotificationMailer } from './notifications.ts';
import type { AnalysisPipeline } from './pipeline.ts';

/** Transient failures (model unreachable, database away) are retried; the last one fails the analysis. */
export const ANALYSIS_RETRY: RetryPolicy = { maxAttempts: 4, backoffMs: 5_000, maxBackoffMs: 60_000 };
/** Two model calls (analysis, memory facts), each with a repair round, fit well inside this. */
export const ANALYSIS_TIMEOUT_MS = 4 * 60_000;

const MeetingPayload = Type.Object(
  { meeting_id: Type.String({ minLength: 1 }) },
  { additionalProperties: true },
);

export interface AnalysisJobDeps {
  pipeline: AnalysisPipeline;
  /** Null when SMTP_URL is not set: the email job logs and sends nothing. */
  mailer: { mailer: NotificationMailer; from: string } | null;
  db: Parameters<typeof composeNotification>[0];
}

/** The analysis module's jobs, for the process's job catalog. */
export function analysisJobs(deps: AnalysisJobDeps): JobDefinition<any>[] {
  return [
    defineJob({
      name: JOB_NAMES.analysisRun,
      payload: MeetingPayload,
      retry: ANALYSIS_RETRY,
      timeoutMs: ANALYSIS_TIMEOUT_MS,
      handler: (payload, context) =>
        deps.pipeline.run(payload.meeting_id, {
          attempt: context.attempt,
          maxAttempts: ANALYSIS_RETRY.maxAttempts,
          signal: context.signal,
          completeWithin: context.completeWithin,
        }),
    }),
    defineJob({
      name: JOB_NAMES.notificationEmail,
      payload: MeetingPayload,
      retry: { maxAttempts: 6, backoffMs: 30_000, maxBackoffMs: 30 * 60_000 },
      timeoutMs: 60_000,
      handler: async (payload, context) => {
        if (!deps.mailer) {
          context.logger.info(
            { meeting_id: payload.meeting_id },
            'email notification skipped: SMTP_URL is not configured',
          );
          return;
        }
        const email = await composeNotification(deps.db, payload.meeting_id, deps.mailer.from);
        if (!email) return;
        await deps.mailer.mailer.send(email);
        context.logger.info(
          { meeting_id: payload.meeting_id, recipients: email.to.length },
          'email notification sent',
        );
      },
    }),
  ];
}
