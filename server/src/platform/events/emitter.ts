import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { DeliveryQueue } from '../../core/delivery/queue.ts';
import type { PlatformEventData, PlatformEventType } from './catalog.ts';
import { enqueueLegacyMeetingCompleted, type LegacyWebhookInput } from './legacy-webhook.ts';
import { platformEventRepository } from './repository.ts';
import { PLATFORM_WEBHOOK_CHANNEL } from './webhook-profile.ts';

export interface EmitInput<E extends PlatformEventType> {
  accountId: string;
  event: E;
  data: PlatformEventData[E];
}

export interface EmittedEvent {
  id: string;
  event: PlatformEventType;
  created_at: string;
  data: Record<string, unknown>;
  /** How many endpoint deliveries were queued (held ones included). */
  deliveries: number;
}

export interface EventEmitter {
  /**
   * Records an event and queues one delivery per subscribed endpoint of the account, in the
   * caller's transaction: if the state change rolls back, so does the event (transactional
   * outbox). Disabled endpoints get a held delivery, released when they are enabled again.
   */
  emit<E extends PlatformEventType>(tx: Kysely<DB>, input: EmitInput<E>): Promise<EmittedEvent>;
  /** The legacy per-scenario `meeting.completed`; false (nothing queued) after the sunset. */
  enqueueLegacyMeetingCompleted(tx: Kysely<DB>, input: LegacyWebhookInput): Promise<boolean>;
}

export interface EventEmitterDeps {
  clock: Clock;
  secretBox: SecretBox;
  legacyWebhookSunset: Date;
}

export function createEventEmitter(deps: EventEmitterDeps): EventEmitter {
  const queue = new DeliveryQueue(deps.clock);
  return {
    async emit(tx, { accountId, event, data }) {
      const fields = data as unknown as Record<string, unknown>;
      if (typeof fields.meeting_id !== 'string' || typeof fields.scenario_id !== 'string') {
        throw new Error(`event ${event} needs data.meeting_id and data.scenario_id`);
      }
      const id = randomUUID();
      const createdAt = deps.clock.now();
      await platformEventRepository.insert(tx, {
        id,
        account_id: accountId,
        event,
        data: JSON.stringify(fields),
        created_at: createdAt,
      });
      const envelope = { id, event, created_at: createdAt.toISOString(), data: fields };
      const deliveries = await queue.enqueueFanOut(tx, {
        channel: PLATFORM_WEBHOOK_CHANNEL,
        eventId: id,
        eventType: event,
        payload: JSON.stringify(envelope),
        receivers: platformEventRepository.subscribedEndpoints(accountId, event),
      });
      return { ...envelope, deliveries };
    },
    enqueueLegacyMeetingCompleted(tx, input) {
      return enqueueLegacyMeetingCompleted({ ...deps, queue }, tx, input);
    },
  };
}
