export {
  backoffDelay,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  defineJob,
  JobCatalog,
  type JobContext,
  type JobDefinition,
  type JobLogger,
  type JobOptions,
  type JobReschedule,
  type RetryPolicy,
} from './catalog.ts';
export { type Enqueued, type EnqueueOptions, JOBS_NOTIFY_CHANNEL, JobQueue } from './queue.ts';
export { type JobOutcome, JobRunner, type JobRunnerOptions } from './runner.ts';
