import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { OutboundClient } from '../../outbound/client.ts';
import { type ChannelProfile, classifyPlatformStyle, type DeliveryTarget } from '../profile.ts';
import type { DeliveryQueue } from '../queue.ts';
import { signatureHeader } from '../signature.ts';

/** The client every delivery test uses: loopback explicitly allowed, as OUTBOUND_ALLOW_CIDRS does. */
export function loopbackClient(): OutboundClient {
  return new OutboundClient({ allowCidrs: ['127.0.0.0/8'], requireHttps: false });
}

export const TEST_SCHEDULE_MS = [30_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;

/**
 * A generic profile for engine tests: receivers live in a map the test edits, so pausing,
 * removing or re-pointing a receiver needs no domain tables.
 */
export function testProfile(overrides: Partial<ChannelProfile> = {}): {
  profile: ChannelProfile;
  receivers: Map<string, DeliveryTarget>;
} {
  const receivers = new Map<string, DeliveryTarget>();
  const profile: ChannelProfile = {
    name: 'test_channel',
    retryDelaysMs: TEST_SCHEDULE_MS,
    // Generous, so a loaded machine does not turn a plain 2xx into a timeout; timeout tests set their own.
    attemptTimeoutMs: 10_000,
    exhaustedStatus: 'dead',
    classify: classifyPlatformStyle,
    buildHeaders: ({ delivery, target, body, now }) => ({
      'content-type': 'application/json',
      'service-signature': signatureHeader({ secrets: target.secrets, rawBody: body, now }),
      'x-delivery-id': delivery.id,
    }),
    resolveTarget: async ({ delivery }) => receivers.get(delivery.endpoint_id ?? '') ?? null,
    ...overrides,
  };
  return { profile, receivers };
}

/** Queues one delivery per event for `endpointId`, in one transaction. */
export async function enqueueEvents(
  db: Kysely<DB>,
  queue: DeliveryQueue,
  options: { endpointId: string; count?: number; held?: boolean; channel?: string },
): Promise<string[]> {
  return db.transaction().execute((tx) =>
    queue.enqueue(
      tx,
      Array.from({ length: options.count ?? 1 }, (_, index) => {
        const eventId = randomUUID();
        return {
          channel: options.channel ?? 'test_channel',
          tenantId: 'tenant-1',
          endpointId: options.endpointId,
          eventId,
          eventType: 'thing.happened',
          payload: JSON.stringify({ id: eventId, event: 'thing.happened', data: { index } }),
          held: options.held,
        };
      }),
    ),
  );
}

export async function deliveryRow(db: Kysely<DB>, id: string) {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function attemptsOf(db: Kysely<DB>, deliveryId: string) {
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_number')
    .orderBy('created_at')
    .execute();
}
