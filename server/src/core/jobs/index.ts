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
export { type Enqueued, type EnqueueOptions, JobQueue } from './queue.ts';
export { JOBS_NOTIFY_CHANNEL } from './repository.ts';
export {
  DEFAULT_IDLE_POLL_MS,
  DEFAULT_LEASE_MS,
  JobLeaseLost,
  type JobOutcome,
  JobRunner,
  type JobRunnerOptions,
} from './runner.ts';
