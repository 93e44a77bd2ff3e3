import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Kysely, RawBuilder } from 'kysely';
import type { Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { type DeliveryRow, deliveryQueueRepository, type FanOut } from './queue-repository.ts';
import { NOTIFY_COALESCE_MS, notifyDeliveryDue } from './repository.ts';

export type { DeliveryRow, FanOut };

export interface NewDelivery {
  channel: string;
  tenantId: string;
  /** The receiver, resolved by the channel's profile at every attempt. */
  endpointId?: string | null;
  /** For receivers without an endpoint row (the legacy per-scenario webhook). */
  inlineTarget?: { url: string; sealedSecret: string } | null;
  eventId: string;
  eventType: string;
  /** The exact body to send, identical on every attempt. */
  payload: string;
  /** The receiver is paused: keep the delivery (status `paused`) until it is enabled again. */
  held?: boolean;
}

/**
 * The write side of the engine, always called inside the caller's transaction (or, for
 * fanOutInsert, inside the caller's single statement) so a state change and the deliveries it
 * causes commit (or roll back) together: the transactional outbox.
 */
export class DeliveryQueue {
  #lastNotifyAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: Clock) {}

  async enqueue(tx: Kysely<DB>, deliveries: readonly NewDelivery[]): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const now = this.clock.now();
    const rows = deliveries.map((delivery) => ({
      id: randomUUID(),
      channel: delivery.channel,
      tenant_id: delivery.tenantId,
      endpoint_id: delivery.endpointId ?? null,
      target_url: delivery.inlineTarget?.url ?? null,
      target_secret_sealed: delivery.inlineTarget?.sealedSecret ?? null,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      payload: delivery.payload,
      status: delivery.held ? ('paused' as const) : ('pending' as const),
      next_attempt_at: delivery.held ? null : now,
      created_at: now,
      updated_at: now,
    }));
    await deliveryQueueRepository.insertMany(tx, rows);
    if (rows.some((row) => row.status === 'pending')) await this.#notify(tx, false);
    return rows.map((row) => row.id);
  }

  /**
   * One event to every receiver a query finds, in a single statement: the event's fan-out costs
   * one round trip however many endpoints subscribe. Returns how many deliveries were queued.
   */
  async enqueueFanOut(tx: Kysely<DB>, fanOut: FanOut): Promise<number> {
    const { rows } = await this.fanOutInsert(fanOut).execute(tx);
    await this.notifyIfDue(tx, rows);
    return rows.length;
  }

  /**
   * The fan-out's INSERT, for a caller that runs it as part of a larger statement (a CTE).
   * Disabled receivers get a held delivery. Yields one `pending` flag per delivery.
   */
  fanOutInsert(fanOut: FanOut): RawBuilder<{ pending: boolean }> {
    return deliveryQueueRepository.fanOutInsert(fanOut, this.clock.now());
  }

  /**
   * Wakes workers for deliveries a fan-out queued, given its `pending` flags. Inside the writer's
   * transaction the NOTIFY is sent on commit; after a single-statement write, call it once that
   * statement returned.
   */
  async notifyIfDue(executor: Kysely<DB>, queued: ReadonlyArray<{ pending: boolean }>): Promise<void> {
    if (queued.some((row) => row.pending)) await this.#notify(executor, false);
  }

  /**
   * Releases everything held for a receiver that was enabled again. All become due at once and
   * workers take them oldest first (by seq), so they arrive in the order the events happened,
   * give or take the worker's concurrency.
   */
  async releaseHeld(tx: Kysely<DB>, target: { channel: string; endpointId: string }): Promise<number> {
    const released = await deliveryQueueRepository.releaseHeld(tx, target, this.clock.now());
    if (released > 0) await this.#notify(tx, true);
    return released;
  }

  /** Cancels everything not yet delivered to a receiver that is being removed. */
  async cancelPending(tx: Kysely<DB>, target: { channel: string; endpointId: string }): Promise<number> {
    return deliveryQueueRepository.cancelUndelivered(tx, target, this.clock.now());
  }

  /**
   * Sends the same delivery (same event id, same body) once more, now. A finished delivery gets
   * one manual attempt that is not followed by automatic retries; a delivery waiting for a retry
   * is simply brought forward; one being attempted right now, or held, is left as it is.
   */
  async redeliver(tx: Kysely<DB>, deliveryId: string): Promise<DeliveryRow | undefined> {
    const now = this.clock.now();
    const current = await deliveryQueueRepository.findForUpdate(tx, deliveryId);
    if (!current) return undefined;
    const inFlight = current.locked_until !== null && current.locked_until > now;
    if (current.status === 'paused' || inFlight) return current;
    const manual = current.status !== 'pending';
    const updated = await deliveryQueueRepository.makeDueNow(tx, deliveryId, { manual, now });
    await this.#notify(tx, true);
    return updated;
  }

  /** Wakes workers on commit; routine enqueues notify at most once per NOTIFY_COALESCE_MS. */
  async #notify(tx: Kysely<DB>, always: boolean): Promise<void> {
    const now = performance.now();
    if (!always && now - this.#lastNotifyAt < NOTIFY_COALESCE_MS) return;
    this.#lastNotifyAt = now;
    await notifyDeliveryDue(tx);
  }
}
