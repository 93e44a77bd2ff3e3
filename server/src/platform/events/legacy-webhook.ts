import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { type ChannelProfile, classifyPlatformStyle } from '../../core/delivery/profile.ts';
import type { DeliveryQueue } from '../../core/delivery/queue.ts';
import { legacyBodySignature, SIGNATURE_HEADER, signatureHeader } from '../../core/delivery/signature.ts';
import {
  PLATFORM_ATTEMPT_TIMEOUT_MS,
  PLATFORM_RETRY_DELAYS_MS,
  WEBHOOK_USER_AGENT,
} from './webhook-profile.ts';

/**
 * The legacy per-scenario webhook (session-options `webhook_url`): one event, `meeting.completed`,
 * signed both ways, sent until the sunset and never after it.
 */
export const LEGACY_WEBHOOK_CHANNEL = 'platform_legacy_webhook';
export const LEGACY_EVENT = 'meeting.completed';
export const LEGACY_SIGNATURE_HEADER = 'X-Service-Signature';
/**
 * When the legacy webhook was deprecated, for the `Deprecation` header. Our reading of the
 * spec's changelog: the 2026-09-06 release that published the current webhook contract.
 */
export const LEGACY_WEBHOOK_DEPRECATED_AT = new Date('2026-09-06T00:00:00Z');

export interface LegacyMeetingCompleted {
  meeting_id: string;
  scenario_id: string;
  person_name: string | null;
  goals: Array<{ name: string; score: number | null; [field: string]: unknown }>;
  completed_at: string;
}

export interface LegacyWebhookInput {
  accountId: string;
  url: string;
  /** The scenario's webhook secret in clear; it is sealed again before it rests in the queue. */
  secret: string;
  payload: LegacyMeetingCompleted;
}

export interface LegacyWebhookDeps {
  clock: Clock;
  secretBox: SecretBox;
  queue: DeliveryQueue;
  legacyWebhookSunset: Date;
}

/**
 * Queues `meeting.completed` for a scenario's legacy webhook inside the caller's transaction.
 * Returns false, sending nothing, once the sunset has passed.
 */
export async function enqueueLegacyMeetingCompleted(
  deps: LegacyWebhookDeps,
  tx: Kysely<DB>,
  input: LegacyWebhookInput,
): Promise<boolean> {
  const now = deps.clock.now();
  if (now >= deps.legacyWebhookSunset) return false;
  const id = randomUUID();
  const payload = JSON.stringify({
    id,
    event: LEGACY_EVENT,
    created_at: now.toISOString(),
    data: input.payload,
  });
  await deps.queue.enqueue(tx, [
    {
      channel: LEGACY_WEBHOOK_CHANNEL,
      tenantId: input.accountId,
      inlineTarget: { url: input.url, sealedSecret: deps.secretBox.seal(input.secret) },
      eventId: id,
      eventType: LEGACY_EVENT,
      payload,
    },
  ]);
  return true;
}

/** Same schedule and classification as the platform webhooks; the target travels with the delivery. */
export function createLegacyWebhookProfile(deps: {
  secretBox: SecretBox;
  legacyWebhookSunset: Date;
}): ChannelProfile {
  return {
    name: LEGACY_WEBHOOK_CHANNEL,
    retryDelaysMs: PLATFORM_RETRY_DELAYS_MS,
    attemptTimeoutMs: PLATFORM_ATTEMPT_TIMEOUT_MS,
    exhaustedStatus: 'dead',
    classify: classifyPlatformStyle,
    buildHeaders: ({ delivery, target, body, now }) => ({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader({ secrets: target.secrets, rawBody: body, now }),
      [LEGACY_SIGNATURE_HEADER]: legacyBodySignature(target.secrets[0], body),
      'service-event': delivery.event_type,
      'service-delivery-id': delivery.id,
    }),
    async resolveTarget({ delivery, now }) {
      // Retries still pending at the sunset are cancelled: nothing is sent after it.
      if (now >= deps.legacyWebhookSunset) return null;
      if (!delivery.target_url || !delivery.target_secret_sealed) return null;
      return {
        url: delivery.target_url,
        secrets: [deps.secretBox.open(delivery.target_secret_sealed)],
        enabled: true,
      };
    },
  };
}

/** Headers for responses of the session-options route, which configures the legacy webhook. */
export function legacyWebhookDeprecationHeaders(
  sunset: Date,
  deprecatedAt: Date = LEGACY_WEBHOOK_DEPRECATED_AT,
): { Deprecation: string; Sunset: string } {
  return {
    // RFC 9745: `@` and the unix time at which the feature was deprecated.
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    // RFC 8594: an HTTP-date.
    Sunset: sunset.toUTCString(),
  };
}
