import { purgeExpiredIdempotencyKeys } from '../core/http/idempotency.ts';
import { meetingSweeper } from '../platform/live/wiring.ts';
import { platformDeliveryWorker } from '../platform/webhooks/wiring.ts';
import { platformJobWorker } from './jobs.ts';
import type { PlatformDeps } from './platform-deps.ts';

/** A background loop owned by the process: started by `serve` (unless RUN_WORKERS=false) and by `worker`. */
export interface BackgroundWorker {
  name: string;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

function periodic(
  name: string,
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (e: unknown) => void,
) {
  let timer: NodeJS.Timeout | null = null;
  return {
    name,
    start() {
      timer = setInterval(() => task().catch(onError), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  } satisfies BackgroundWorker;
}

/** Every platform worker. Add one entry per background loop. */
export function platformWorkers(deps: PlatformDeps): BackgroundWorker[] {
  const warn = (name: string) => (error: unknown) =>
    deps.logger.warn({ err: error, worker: name }, 'worker task failed');
  return [
    platformDeliveryWorker(deps),
    platformJobWorker(deps),
    meetingSweeper(deps),
    periodic(
      'idempotency-purge',
      10 * 60 * 1000,
      () => purgeExpiredIdempotencyKeys(deps.db, deps.clock.now()),
      warn('idempotency-purge'),
    ),
  ];
}

export async function startWorkers(workers: BackgroundWorker[]): Promise<() => Promise<void>> {
  for (const worker of workers) await worker.start();
  return async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
  };
}
