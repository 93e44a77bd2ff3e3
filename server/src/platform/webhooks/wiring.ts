import type { PlatformDeps } from '../../app/platform-deps.ts';
import type { Config } from '../../config.ts';
import { DeliveryWorker } from '../../core/delivery/worker.ts';
import { outboundPolicyFor } from '../../core/outbound/address-policy.ts';
import { OutboundClient } from '../../core/outbound/client.ts';
import type { BackgroundWorker } from '../../core/workers.ts';
import { createLegacyWebhookProfile } from '../events/legacy-webhook.ts';
import { createPlatformWebhookProfile } from '../events/webhook-profile.ts';

/** Delivers platform webhooks and legacy per-scenario webhooks; runs in `npm start` and `npm run worker`. */
export function platformDeliveryWorker(deps: PlatformDeps): BackgroundWorker {
  const client = new OutboundClient(outboundPolicyFor(deps.config));
  const worker = new DeliveryWorker({
    database: deps.database,
    clock: deps.clock,
    client,
    profiles: [
      createPlatformWebhookProfile({ secretBox: deps.secretBox }),
      createLegacyWebhookProfile({
        secretBox: deps.secretBox,
        legacyWebhookSunset: deps.config.legacyWebhookSunset,
      }),
    ],
    logger: deps.logger.child({ worker: 'webhook-delivery' }),
  });
  return {
    name: 'webhook-delivery',
    start: () => worker.start(),
    async stop() {
      await worker.stop();
      await client.close();
    },
  };
}
