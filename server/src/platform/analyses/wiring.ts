import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { LlmClient } from '../../core/llm/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { type AnalysisEvaluator, llmEvaluator, offlineEvaluator } from './evaluators.ts';
import { analysisJobs } from './jobs.ts';
import { configuredMailer } from './notifications.ts';
import { AnalysisPipeline } from './pipeline.ts';
import { analysisRoutes } from './routes.ts';
import { AnalysisService } from './service.ts';

export interface AnalysesModuleDeps
  extends Pick<CoreDeps, 'db' | 'clock' | 'secretBox' | 'paginator' | 'config' | 'logger' | 'disposers'> {
  events: EventEmitter;
  jobs: JobQueue;
  llm: LlmClient | null;
  /** Tests: a scripted evaluator. */
  evaluator?: AnalysisEvaluator;
}

/** Post-meeting analysis: the LLM evaluator when LLM_BASE_URL is set, the offline rules otherwise. */
export function createAnalysesModule(deps: AnalysesModuleDeps) {
  const { db, clock, secretBox, config, logger, events, jobs, llm } = deps;
  const evaluator = deps.evaluator ?? (llm ? llmEvaluator(llm) : offlineEvaluator());
  const mailer = configuredMailer(config, deps.disposers);
  const analysisPipeline = new AnalysisPipeline({
    db,
    clock,
    logger: logger.child({ component: 'analysis' }),
    secretBox,
    events,
    jobs,
    evaluator,
    smtpConfigured: mailer !== null,
  });
  const analyses = new AnalysisService({ db, clock, paginator: deps.paginator, jobs });
  return {
    analyses,
    analysisPipeline,
    routes: [(app: AppInstance) => analysisRoutes(app, { analyses })],
    jobs: analysisJobs({ pipeline: analysisPipeline, mailer, db }),
  };
}
