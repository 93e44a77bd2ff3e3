import type { Logger } from 'pino';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../core/delivery/worker.ts';
import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { OutboundPolicy } from '../../core/outbound/index.ts';
import { createLegacyWebhookProfile } from '../events/legacy-webhook.ts';
import { createPlatformWebhookProfile } from '../events/webhook-profile.ts';
import { webhookRoutes } from './routes.ts';
import { WebhookEndpointService } from './service.ts';

export interface WebhooksModuleDeps
  extends Pick<CoreDeps, 'db' | 'database' | 'clock' | 'secretBox' | 'paginator' | 'config'> {
  outboundPolicy: OutboundPolicy;
  /** The shared outbound client the delivery worker posts with. */
  outbound: DeliveryWorkerOptions['client'];
  logger: Logger;
}

/** Webhook endpoints, and the worker that delivers platform and legacy per-scenario webhooks. */
export function createWebhooksModule(deps: WebhooksModuleDeps) {
  const { db, database, clock, secretBox, paginator, config } = deps;
  const webhooks = new WebhookEndpointService({
    db,
    clock,
    secretBox,
    paginator,
    outboundPolicy: deps.outboundPolicy,
  });
  const worker = new DeliveryWorker({
    database,
    clock,
    client: deps.outbound,
    profiles: [
      createPlatformWebhookProfile({ secretBox }),
      createLegacyWebhookProfile({ secretBox, legacyWebhookSunset: config.legacyWebhookSunset }),
    ],
    logger: deps.logger.child({ worker: 'webhook-delivery' }),
    pollIntervalMs: config.jobs.idlePollMs,
    leaseMs: config.jobs.deliveryLeaseMs,
  });
  return {
    webhooks,
    routes: [(app: AppInstance) => webhookRoutes(app, { webhooks })],
    workers: [{ name: 'webhook-delivery', start: () => worker.start(), stop: () => worker.stop() }],
  };
}
