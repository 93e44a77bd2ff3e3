import { type Insertable, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { DeliveryTables } from './tables.ts';

export type DeliveryRow = Selectable<DeliveryTables['deliveries']>;

export interface FanOut {
  channel: string;
  eventId: string;
  eventType: string;
  payload: string;
  /** Selects `endpoint_id` (text), `tenant_id` (text) and `enabled` of every receiver. */
  receivers: RawBuilder<{ endpoint_id: string; tenant_id: string; enabled: boolean }>;
}

interface Receiver {
  channel: string;
  endpointId: string;
}

/** The statements of the delivery queue's write side (DeliveryQueue keeps the rules). */
export const deliveryQueueRepository = {
  async insertMany(db: Kysely<DB>, rows: Insertable<DeliveryTables['deliveries']>[]): Promise<void> {
    await db.insertInto('deliveries').values(rows).execute();
  },

  /**
   * One delivery per receiver the fan-out's query finds, as one INSERT … SELECT that a caller may
   * also embed in a larger statement (a CTE). Disabled receivers get a held delivery. Delivery ids
   * come from PostgreSQL's gen_random_uuid() (v4, like randomUUID()) because the rows are made by
   * the database. Yields one `pending` flag per delivery.
   */
  fanOutInsert(fanOut: FanOut, now: Date): RawBuilder<{ pending: boolean }> {
    return sql<{ pending: boolean }>`
      insert into deliveries (id, channel, tenant_id, endpoint_id, event_id, event_type, payload, status,
        next_attempt_at, created_at, updated_at)
      select gen_random_uuid(), ${fanOut.channel}, r.tenant_id, r.endpoint_id, ${fanOut.eventId},
        ${fanOut.eventType}, ${fanOut.payload}, case when r.enabled then 'pending' else 'paused' end,
        case when r.enabled then ${now}::timestamptz end, ${now}, ${now}
      from (${fanOut.receivers}) as r
      returning status = 'pending' as pending`;
  },

  /** Makes every held delivery of the receiver due now; returns how many. */
  async releaseHeld(db: Kysely<DB>, receiver: Receiver, now: Date): Promise<number> {
    const result = await db
      .updateTable('deliveries')
      .set({ status: 'pending', next_attempt_at: now, updated_at: now })
      .where('channel', '=', receiver.channel)
      .where('endpoint_id', '=', receiver.endpointId)
      .where('status', '=', 'paused')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Cancels every delivery of the receiver not yet delivered; returns how many. */
  async cancelUndelivered(db: Kysely<DB>, receiver: Receiver, now: Date): Promise<number> {
    const result = await db
      .updateTable('deliveries')
      .set({
        status: 'cancelled',
        next_attempt_at: null,
        locked_until: null,
        claim_token: null,
        last_error: 'receiver_removed',
        updated_at: now,
      })
      .where('channel', '=', receiver.channel)
      .where('endpoint_id', '=', receiver.endpointId)
      .where('status', 'in', ['pending', 'paused'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** The delivery, locked until the transaction ends. */
  findForUpdate(db: Kysely<DB>, deliveryId: string): Promise<DeliveryRow | undefined> {
    return db
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Makes the delivery due now, without a lease; `manual` marks a one-off attempt without retries. */
  makeDueNow(
    db: Kysely<DB>,
    deliveryId: string,
    options: { manual: boolean; now: Date },
  ): Promise<DeliveryRow> {
    return db
      .updateTable('deliveries')
      .set({
        status: 'pending',
        next_attempt_at: options.now,
        manual_attempt: options.manual,
        locked_until: null,
        claim_token: null,
        updated_at: options.now,
      })
      .where('id', '=', deliveryId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};
