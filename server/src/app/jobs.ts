import { JobCatalog, type JobDefinition, JobRunner } from '../core/jobs/index.ts';
import type { BackgroundWorker } from '../core/workers.ts';
import { meetingJobs } from '../platform/live/wiring.ts';
import type { PlatformDeps } from './platform-deps.ts';

/**
 * Every platform job (DESIGN convention 6). Add one line per module. A job enqueued under a name
 * no entry declares is not lost: it waits in the queue until a release that declares it runs.
 */
export function platformJobs(deps: PlatformDeps): JobDefinition<any>[] {
  return [...meetingJobs(deps), ...deps.analysisJobs];
}

/** A runner over the whole catalog; tests call runOnce()/drain() on it instead of starting it. */
export function createPlatformJobRunner(
  deps: PlatformDeps,
  options: { concurrency?: number } = {},
): JobRunner {
  return new JobRunner({
    database: deps.database,
    clock: deps.clock,
    catalog: new JobCatalog(platformJobs(deps)),
    logger: deps.logger.child({ worker: 'jobs' }),
    concurrency: options.concurrency,
  });
}

export function platformJobWorker(deps: PlatformDeps): BackgroundWorker {
  const runner = createPlatformJobRunner(deps);
  return { name: 'jobs', start: () => runner.start(), stop: () => runner.stop() };
}
