import type { RawBuilder } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../core/db/database.ts';
import type { DeliveryQueue } from '../../core/delivery/queue.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { MAILBOX_CHANNEL } from '../webhooks/channel.ts';
import { webhooksRepository } from '../webhooks/repository.ts';
import type { EventBus } from './bus.ts';
import { EVENT_ROW, eventsRepository } from './repository.ts';
import type { EventScope, FiringEventType, MailboxEvent } from './types.ts';

export type Emit = (
  type: FiringEventType,
  scope: EventScope,
  body: Record<string, unknown>,
) => Promise<MailboxEvent>;

/**
 * Records events with the state change they report (the stored event and one delivery per
 * matching webhook commit with it): inside the caller's transaction (transaction()), or as CTEs
 * of the caller's single statement (prepare(), writeParts(), then committed()). Publishes them to
 * live sockets after commit.
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
    if (emitted.length > 0) await this.committed(this.database.db, emitted, []);
    return result;
  }

  /** An event with its id, time and payload, not written yet. */
  prepare(type: FiringEventType, scope: EventScope, body: Record<string, unknown>): MailboxEvent {
    const now = this.clock.now();
    const eventId = newId('evt');
    return {
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
  }

  /**
   * CTEs that store `event` and queue one delivery per matching webhook, for a statement that
   * writes the event together with the change it reports. With `after` (an earlier CTE's name)
   * both happen only if that CTE yielded a row. Ends with `event_deliveries`, one `pending`
   * flag per queued delivery, for committed().
   */
  writeParts(event: MailboxEvent, after?: string): RawBuilder<unknown> {
    const payload = JSON.stringify(event.payload);
    const deliveries = this.queue.fanOutInsert({
      channel: MAILBOX_CHANNEL,
      eventId: event.event_id,
      eventType: event.event_type,
      payload,
      receivers: webhooksRepository.receiversOf(event, EVENT_ROW),
    });
    return eventsRepository.writeParts(event, { payload, deliveries, after });
  }

  /**
   * Once the statement with writeParts committed: wakes delivery workers and reaches live
   * sockets. Never throws: what it reports is stored already, so a failure here must not look
   * like a failed write to the caller (which would undo its files or make a client send again).
   * Both are best effort: workers also poll every second, and clients catch up from the events
   * API.
   */
  async committed(db: Executor, events: MailboxEvent[], queued: ReadonlyArray<{ pending: boolean }>) {
    await this.queue.notifyIfDue(db, queued).catch(() => {});
    await this.bus.publish(events).catch(() => {});
  }

  private async record(
    trx: Executor,
    type: FiringEventType,
    scope: EventScope,
    body: Record<string, unknown>,
  ): Promise<MailboxEvent> {
    const event = this.prepare(type, scope, body);
    const rows = await eventsRepository.write(trx, this.writeParts(event));
    // Inside the caller's transaction: the NOTIFY goes out when it commits.
    await this.queue.notifyIfDue(trx, rows);
    return event;
  }
}
