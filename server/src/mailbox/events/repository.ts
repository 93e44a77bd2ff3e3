import type { Executor } from '../db.ts';
import type { MailboxEvent } from './types.ts';

export const eventsRepository = {
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
