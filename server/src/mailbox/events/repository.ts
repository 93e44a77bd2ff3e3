import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db.ts';
import type { MailboxEvent } from './types.ts';

/** The CTEs of writeParts(): the stored event (the deliveries' receivers join it) and the deliveries. */
export const EVENT_ROW = 'event_row';
export const EVENT_DELIVERIES = 'event_deliveries';

export const eventsRepository = {
  /**
   * CTEs that store `event` and then run `deliveries` (a fan-out insert yielding `pending`),
   * named EVENT_ROW and EVENT_DELIVERIES. With `after` (an earlier CTE's name) the event is
   * stored only if that CTE yielded a row.
   */
  writeParts(
    event: MailboxEvent,
    parts: { payload: string; deliveries: RawBuilder<{ pending: boolean }>; after?: string },
  ): RawBuilder<unknown> {
    return sql`${sql.table(EVENT_ROW)} as (
      insert into mailbox_events (id, namespace_id, pod_id, inbox_id, event_type, payload, created_at)
      select ${event.event_id}, ${event.namespace_id}, ${event.pod_id}::text, ${event.inbox_id}::text,
        ${event.event_type}, ${parts.payload}::jsonb, ${event.created_at}::timestamptz
      ${parts.after ? sql`from ${sql.table(parts.after)}` : sql``}
      returning id
    ), ${sql.table(EVENT_DELIVERIES)} as (${parts.deliveries})`;
  },

  /** Runs writeParts() on their own; one `pending` flag per queued delivery. */
  async write(db: Executor, parts: RawBuilder<unknown>): Promise<Array<{ pending: boolean }>> {
    const { rows } = await sql<{
      pending: boolean;
    }>`with ${parts} select pending from ${sql.table(EVENT_DELIVERIES)}`.execute(db);
    return rows;
  },

  /** Sends each message on `channel` (PostgreSQL NOTIFY), all in one statement. */
  async notify(db: Executor, channel: string, messages: string[]): Promise<void> {
    await sql`select ${sql.join(messages.map((m) => sql`pg_notify(${channel}, ${m})`))}`.execute(db);
  },

  async get(db: Executor, eventId: string): Promise<MailboxEvent | undefined> {
    const row = await db
      .selectFrom('mailbox_events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirst();
    return row ? toEvent(row) : undefined;
  },

  /** Oldest first, after a sequence number: the order a reconnecting client replays in. */
  async listForInbox(
    db: Executor,
    inboxId: string,
    options: { afterSeq: number; limit: number; eventTypes?: string[] },
  ): Promise<Array<MailboxEvent & { seq: number }>> {
    let query = db
      .selectFrom('mailbox_events')
      .selectAll()
      .where('inbox_id', '=', inboxId)
      .where('seq', '>', options.afterSeq);
    if (options.eventTypes?.length) query = query.where('event_type', 'in', options.eventTypes);
    const rows = await query.orderBy('seq').limit(options.limit).execute();
    return rows.map((row) => ({ ...toEvent(row), seq: Number(row.seq) }));
  },
};

function toEvent(row: {
  id: string;
  namespace_id: string;
  pod_id: string | null;
  inbox_id: string | null;
  event_type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}): MailboxEvent {
  return {
    event_id: row.id,
    event_type: row.event_type as MailboxEvent['event_type'],
    namespace_id: row.namespace_id,
    pod_id: row.pod_id,
    inbox_id: row.inbox_id,
    created_at: row.created_at,
    payload: row.payload,
  };
}
