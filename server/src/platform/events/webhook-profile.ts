import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { type ChannelProfile, classifyPlatformStyle, HOUR, MINUTE } from '../../core/delivery/profile.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../core/delivery/signature.ts';
import { platformEventRepository } from './repository.ts';

export const PLATFORM_WEBHOOK_CHANNEL = 'platform_webhook';
export const WEBHOOK_USER_AGENT = 'Understudy-Webhooks/1';

/** Spec "Webhook delivery": retries after 30 s, 5 min, 30 min, 2 h, 12 h, then `dead`. */
export const PLATFORM_RETRY_DELAYS_MS = [30_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR] as const;
export const PLATFORM_ATTEMPT_TIMEOUT_MS = 10_000;

/** Deliveries to the account's webhook endpoints (`/v1/webhooks/endpoints`). */
export function createPlatformWebhookProfile(deps: { secretBox: SecretBox }): ChannelProfile {
  return {
    name: PLATFORM_WEBHOOK_CHANNEL,
    retryDelaysMs: PLATFORM_RETRY_DELAYS_MS,
    attemptTimeoutMs: PLATFORM_ATTEMPT_TIMEOUT_MS,
    exhaustedStatus: 'dead',
    classify: classifyPlatformStyle,
    buildHeaders: ({ delivery, target, body, attemptNumber, now }) => ({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader({ secrets: target.secrets, rawBody: body, now }),
      'service-event': delivery.event_type,
      'service-delivery-id': delivery.id,
      'service-delivery-attempt': String(attemptNumber),
    }),
    async resolveTarget({ db, delivery, now }) {
      if (!delivery.endpoint_id) return null;
      const endpoint = await platformEventRepository.findDeliveryTarget(
        db,
        delivery.endpoint_id,
        delivery.tenant_id,
      );
      if (!endpoint) return null;
      const secrets = [deps.secretBox.open(endpoint.signing_secret_sealed)];
      // During the 24 h after a rotation the previous secret signs too, so receivers can switch over.
      if (
        endpoint.previous_secret_sealed &&
        endpoint.previous_secret_expires_at &&
        endpoint.previous_secret_expires_at > now
      ) {
        secrets.push(deps.secretBox.open(endpoint.previous_secret_sealed));
      }
      return { url: endpoint.url, secrets, enabled: endpoint.enabled };
    },
  };
}
