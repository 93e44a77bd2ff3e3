import type { CoreDeps } from '../../core/deps.ts';
import { type JobDefinition, JobQueue } from '../../core/jobs/index.ts';
import { createLlmClient } from '../../core/llm/index.ts';
import { createEventEmitter } from '../events/emitter.ts';
import { type AnalysisEvaluator, llmEvaluator, offlineEvaluator } from './evaluators.ts';
import { analysisJobs } from './jobs.ts';
import { parseSmtpUrl, smtpMailer } from './notifications.ts';
import { AnalysisPipeline } from './pipeline.ts';
import { AnalysisService } from './service.ts';

export interface AnalysisServices {
  analyses: AnalysisService;
  analysisPipeline: AnalysisPipeline;
  /** `analysis.run` and `meeting.notification_email`, for the process's job catalog. */
  analysisJobs: JobDefinition<any>[];
}

export interface AnalysisOverrides {
  evaluator?: AnalysisEvaluator;
}

/** The analysis services: the LLM evaluator when LLM_BASE_URL is set, the offline rules otherwise. */
export function createAnalysisServices(core: CoreDeps, overrides: AnalysisOverrides = {}): AnalysisServices {
  const { db, clock, secretBox, config, logger } = core;
  const jobs = new JobQueue(clock);
  const evaluator =
    overrides.evaluator ?? (config.llm ? llmEvaluator(createLlmClient(config.llm)) : offlineEvaluator());
  const smtp = config.smtpUrl ? parseSmtpUrl(config.smtpUrl, config.publicUrl) : null;
  const mailer = smtp ? { mailer: smtpMailer(smtp.url), from: smtp.from } : null;
  if (mailer) core.disposers.push(() => mailer.mailer.close());
  const analysisPipeline = new AnalysisPipeline({
    db,
    clock,
    logger: logger.child({ component: 'analysis' }),
    secretBox,
    events: createEventEmitter({ clock, secretBox, legacyWebhookSunset: config.legacyWebhookSunset }),
    jobs,
    evaluator,
    smtpConfigured: mailer !== null,
  });
  return {
    analyses: new AnalysisService({ db, clock, paginator: core.paginator, jobs }),
    analysisPipeline,
    analysisJobs: analysisJobs({ pipeline: analysisPipeline, mailer, db }),
  };
}
