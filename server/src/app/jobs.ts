import { JobRunner } from '../core/jobs/index.ts';
import type { BackgroundWorker } from '../core/workers.ts';
import type { PlatformDeps } from './platform-deps.ts';

type RunnerDeps = Pick<PlatformDeps, 'database' | 'clock' | 'logger' | 'jobCatalog' | 'config'>;

/**
 * A runner over the whole catalog (DESIGN convention 6). A job enqueued under a name no module
 * declares is not lost: it waits in the queue until a release that declares it runs. Tests call
 * runOnce()/drain() on it instead of starting it.
 */
export function createPlatformJobRunner(deps: RunnerDeps, options: { concurrency?: number } = {}): JobRunner {
  return new JobRunner({
    database: deps.database,
    clock: deps.clock,
    catalog: deps.jobCatalog,
    logger: deps.logger.child({ worker: 'jobs' }),
    concurrency: options.concurrency,
    leaseMs: deps.config.jobs.leaseMs,
    pollIntervalMs: deps.config.jobs.idlePollMs,
  });
}

export function createJobWorker(deps: RunnerDeps): BackgroundWorker {
  const runner = createPlatformJobRunner(deps);
  return { name: 'jobs', start: () => runner.start(), stop: () => runner.stop() };
}
