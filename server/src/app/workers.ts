import { purgeExpiredIdempotencyKeys } from '../core/http/idempotency.ts';
import { type BackgroundWorker, periodic } from '../core/workers.ts';
import { meetingSweeper } from '../platform/live/wiring.ts';
import { platformDeliveryWorker } from '../platform/webhooks/wiring.ts';
import { platformJobWorker } from './jobs.ts';
import type { PlatformDeps } from './platform-deps.ts';

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
