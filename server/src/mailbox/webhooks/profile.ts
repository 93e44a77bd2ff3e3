import { hmacSha256Hex } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { type ChannelProfile, classifyRetryAllFailures, HOUR, MINUTE } from '../../core/delivery/profile.ts';
import { MAILBOX_CHANNEL } from './channel.ts';
import { webhooksRepository } from './repository.ts';

/**
 * The mailbox webhook rules of the spec: six attempts (retries after 1 min, 5 min, 30 min, 2 h,
 * 12 h), then `failed`; 30 s per attempt; anything but a 2xx is retried. The signature is the hex
 * HMAC-SHA256 of the raw body with the webhook secret; the delivery id is stable across retries.
 */
export function mailboxDeliveryProfile(secretBox: SecretBox): ChannelProfile {
  return {
    name: MAILBOX_CHANNEL,
    retryDelaysMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR],
    attemptTimeoutMs: 30_000,
    exhaustedStatus: 'failed',
    classify: classifyRetryAllFailures,
    buildHeaders: ({ delivery, target, body }) => ({
      'Content-Type': 'application/json',
      'User-Agent': 'understudy-mailbox-webhooks/1',
      'X-Mailbox-Event': delivery.event_type,
      'X-Mailbox-Delivery': delivery.id,
      'X-Mailbox-Signature': hmacSha256Hex(target.secrets[0]!, body),
    }),
    async resolveTarget({ db, delivery }) {
      if (!delivery.endpoint_id) return null;
      const webhook = await webhooksRepository.target(db, delivery.endpoint_id);
      if (!webhook) return null;
      return { url: webhook.url, secrets: [secretBox.open(webhook.secret_sealed)], enabled: webhook.enabled };
    },
  };
}
