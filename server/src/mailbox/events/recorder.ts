import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../core/db/database.ts';
import type { DeliveryQueue } from '../../core/delivery/queue.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { MAILBOX_CHANNEL } from '../webhooks/profile.ts';
import { webhooksRepository } from '../webhooks/repository.ts';
import type { EventBus } from './bus.ts';
import { eventsRepository } from './repository.ts';
import type { EventScope, FiringEventType, MailboxEvent } from './types.ts';

export type Emit = (
  type: FiringEventType,
  scope: EventScope,
  body: Record<string, unknown>,
) => Promise<MailboxEvent>;

/**
 * Records events inside the caller's transaction (the stored event and one delivery per matching
 * webhook commit with the state change), and publishes them to live sockets after commit.
 */
export class EventRecorder {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly queue: DeliveryQueue,
    private readonly bus: EventBus,
  ) {}

  /** Runs `work` in a transaction with an `emit` bound to it; publishes what it emitted once committed. */
  async transaction<T>(work: (trx: Executor, emit: Emit) => Promise<T>): Promise<T> {
    const emitted: MailboxEvent[] = [];
    const result = await this.database.db.transaction().execute((trx) =>
      work(trx, async (type, scope, body) => {
        const event = await this.record(trx, type, scope, body);
        emitted.push(event);
        return event;
      }),
    );
    // Only committed events reach live sockets.
    if (emitted.length > 0) await this.bus.publish(emitted);
    return result;
  }

  private async record(
    trx: Executor,
    type: FiringEventType,
    scope: EventScope,
    body: Record<string, unknown>,
  ): Promise<MailboxEvent> {
    const now = this.clock.now();
    const eventId = newId('evt');
    const event: MailboxEvent = {
      ...scope,
      event_id: eventId,
      event_type: type,
      created_at: now,
      payload: {
        type: 'event',
        event_type: type,
        event_id: eventId,
        inbox_id: scope.inbox_id,
        created_at: now.toISOString(),
        ...body,
      },
    };
    // The event row and the webhooks it goes to, in one statement (a data-modifying CTE).
    const webhooks = await webhooksRepository.matching(trx, event, eventsRepository.insertQuery(trx, event));
    if (webhooks.length > 0) {
      const payload = JSON.stringify(event.payload);
      await this.queue.enqueue(
        trx,
        webhooks.map((webhook) => ({
          channel: MAILBOX_CHANNEL,
          tenantId: webhook.namespace_id ?? '*',
          endpointId: webhook.id,
          eventId,
          eventType: type,
          payload,
          held: !webhook.enabled,
        })),
      );
    }
    return event;
  }
}
