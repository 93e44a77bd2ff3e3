import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../db.ts';
import { json } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type MessageRow = Selectable<MailboxTables['mailbox_messages']>;
export type AttachmentRow = Selectable<MailboxTables['mailbox_attachments']>;

/** A message to insert, with arrays and objects as values (serialised here). */
export type NewMessage = Omit<
  Insertable<MailboxTables['mailbox_messages']>,
  'reply_to' | 'to' | 'cc' | 'bcc' | 'references' | 'labels' | 'headers'
> & {
  reply_to: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  references: string[];
  labels: string[];
  headers: Record<string, string>;
};

export interface MessageListOptions {
  limit: number;
  after?: { timestamp: Date; id: string };
  labels?: string[];
  /** Blocked mail is left out unless asked for by label. */
  includeBlocked?: boolean;
}

export const messagesRepository = {
  async insert(db: Executor, message: NewMessage): Promise<MessageRow> {
    return db
      .insertInto('mailbox_messages')
      .values({
        ...message,
        reply_to: json(message.reply_to),
        to: json(message.to),
        cc: json(message.cc),
        bcc: json(message.bcc),
        references: json(message.references),
        labels: json(message.labels),
        headers: json(message.headers),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async insertAttachments(
    db: Executor,
    rows: Insertable<MailboxTables['mailbox_attachments']>[],
  ): Promise<void> {
    if (rows.length > 0) await db.insertInto('mailbox_attachments').values(rows).execute();
  },

  async byMessageId(db: Executor, inboxId: string, messageId: string): Promise<MessageRow | undefined> {
    return db
      .selectFrom('mailbox_messages')
      .selectAll()
      .where('inbox_id', '=', inboxId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
  },

  /**
   * Thread ids of this inbox's messages with these Message-IDs. With includeUnthreaded, messages
   * outside any thread (blocked mail) are present too, mapped to ''.
   */
  async threadsByMessageIds(
    db: Executor,
    inboxId: string,
    messageIds: string[],
    options: { includeUnthreaded?: boolean } = {},
  ): Promise<Map<string, string>> {
    if (messageIds.length === 0) return new Map();
    let query = db
      .selectFrom('mailbox_messages')
      .select(['message_id', 'thread_id'])
      .where('inbox_id', '=', inboxId)
      .where('message_id', 'in', [...new Set(messageIds)]);
    if (!options.includeUnthreaded) query = query.where('thread_id', 'is not', null);
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.message_id, row.thread_id ?? '']));
  },

  async list(db: Executor, inboxId: string, options: MessageListOptions): Promise<MessageRow[]> {
    let query = db.selectFrom('mailbox_messages').selectAll().where('inbox_id', '=', inboxId);
    if (options.after) {
      const { timestamp, id } = options.after;
      query = query.where((eb) =>
        eb.or([
          eb('timestamp', '<', timestamp),
          eb.and([eb('timestamp', '=', timestamp), eb('id', '<', id)]),
        ]),
      );
    }
    const labels = options.labels ?? [];
    for (const label of labels) query = query.where(sql<boolean>`labels ? ${label}`);
    if (!labels.includes('blocked')) query = query.where('status', '!=', 'blocked');
    return query.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  },

  async inThread(db: Executor, threadId: string): Promise<MessageRow[]> {
    return db
      .selectFrom('mailbox_messages')
      .selectAll()
      .where('thread_id', '=', threadId)
      .orderBy('timestamp')
      .orderBy('id')
      .execute();
  },

  /** New labels for a message; its thread's labels are recomputed from its messages. */
  async setLabels(db: Executor, row: MessageRow, labels: string[], now: Date): Promise<MessageRow> {
    return db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('mailbox_messages')
        .set({ labels: json(labels), updated_at: now })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (row.thread_id) {
        await sql`update mailbox_threads set labels = (
            select coalesce(jsonb_agg(distinct l), '[]'::jsonb)
            from mailbox_messages m, jsonb_array_elements_text(m.labels) as l
            where m.thread_id = ${row.thread_id}
          ), updated_at = ${now}
          where id = ${row.thread_id}`.execute(trx);
      }
      return updated;
    });
  },

  async attachmentsFor(db: Executor, messageRowIds: string[]): Promise<Map<string, AttachmentRow[]>> {
    const map = new Map<string, AttachmentRow[]>();
    if (messageRowIds.length === 0) return map;
    const rows = await db
      .selectFrom('mailbox_attachments')
      .selectAll()
      .where('message_row_id', 'in', messageRowIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = map.get(row.message_row_id) ?? [];
      list.push(row);
      map.set(row.message_row_id, list);
    }
    return map;
  },

  async attachment(
    db: Executor,
    messageRowId: string,
    attachmentId: string,
  ): Promise<AttachmentRow | undefined> {
    return db
      .selectFrom('mailbox_attachments')
      .selectAll()
      .where('message_row_id', '=', messageRowId)
      .where('id', '=', attachmentId)
      .executeTakeFirst();
  },
};
