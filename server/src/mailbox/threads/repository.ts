import { type Selectable, sql } from 'kysely';
import type { Executor } from '../db.ts';
import { bareAddress, unique } from '../messages/addresses.ts';
import type { MailboxTables } from '../tables.ts';

export type ThreadRow = Selectable<MailboxTables['mailbox_threads']>;

/** A message's label that puts it in the trash; a thread carries it only while all its messages do. */
export const TRASH = 'trash';

/** The fields of a stored message its thread's aggregates are made of. */
type MessageForThread = Pick<
  Selectable<MailboxTables['mailbox_messages']>,
  'from' | 'to' | 'cc' | 'reply_to' | 'labels' | 'preview' | 'size' | 'message_id' | 'timestamp'
>;

export interface NewThread {
  id: string;
  inbox_id: string;
  subject: string;
  normalized_subject: string;
  now: Date;
}

/** What one more message adds to a thread's aggregates. */
export interface ThreadAddition {
  senders: string[];
  recipients: string[];
  participants: string[];
  labels: string[];
  preview: string;
  size: number;
  last_message_id: string;
  timestamp: Date;
  now: Date;
}

export const threadsRepository = {
  /** The thread with one more message: aggregates merged in first-seen order, counts added up. */
  appended(thread: ThreadRow, add: ThreadAddition): ThreadRow {
    return {
      ...thread,
      senders: unique([...thread.senders, ...add.senders]),
      recipients: unique([...thread.recipients, ...add.recipients]),
      participants: unique([...thread.participants, ...add.participants]),
      // The thread is in the trash only while every message is: one more outside it takes it out.
      labels: unique([...thread.labels, ...add.labels]).filter(
        (label) => label !== TRASH || (thread.labels.includes(TRASH) && add.labels.includes(TRASH)),
      ),
      preview: add.preview,
      message_count: thread.message_count + 1,
      size: thread.size + add.size,
      last_message_id: add.last_message_id,
      timestamp: add.timestamp,
      updated_at: add.now,
    };
  },

  /** A thread that starts with one message. */
  started(thread: NewThread, add: ThreadAddition): ThreadRow {
    return {
      id: thread.id,
      inbox_id: thread.inbox_id,
      subject: thread.subject,
      normalized_subject: thread.normalized_subject,
      senders: unique(add.senders),
      recipients: unique(add.recipients),
      participants: unique(add.participants),
      labels: unique(add.labels),
      preview: add.preview,
      message_count: 1,
      size: add.size,
      last_message_id: add.last_message_id,
      timestamp: add.timestamp,
      created_at: thread.now,
      updated_at: thread.now,
    };
  },

  /**
   * The thread's aggregates computed again from the messages it still has (oldest first), as
   * storing them one by one would have left them; null when none is left. Its id, subject and
   * creation stay.
   */
  recomputed(thread: ThreadRow, messages: MessageForThread[], now: Date): ThreadRow | null {
    let row: ThreadRow | null = null;
    for (const message of messages) {
      const addition: ThreadAddition = {
        senders: [bareAddress(message.from)],
        recipients: [...message.to, ...message.cc].map(bareAddress),
        participants: unique(
          [message.from, ...message.to, ...message.cc, ...message.reply_to].map(bareAddress).filter(Boolean),
        ),
        labels: message.labels,
        preview: message.preview,
        size: message.size,
        last_message_id: message.message_id,
        timestamp: message.timestamp,
        now,
      };
      row = row
        ? threadsRepository.appended(row, addition)
        : threadsRepository.started({ ...thread, now: thread.created_at }, addition);
    }
    return row && { ...row, updated_at: now };
  },

  /** Writes a thread's aggregates (after a message left it); the caller holds its lock. */
  async writeAggregates(db: Executor, row: ThreadRow): Promise<void> {
    await db
      .updateTable('mailbox_threads')
      .set({
        senders: JSON.stringify(row.senders),
        recipients: JSON.stringify(row.recipients),
        participants: JSON.stringify(row.participants),
        labels: JSON.stringify(row.labels),
        preview: row.preview,
        message_count: row.message_count,
        size: row.size,
        last_message_id: row.last_message_id,
        timestamp: row.timestamp,
        updated_at: row.updated_at,
      })
      .where('id', '=', row.id)
      .execute();
  },

  /**
   * The thread's labels from its messages' after a label change: their union, except `trash`,
   * which the thread keeps only while every message has it. The caller holds the thread's lock,
   * so this statement's snapshot sees every change committed before.
   */
  async refreshLabels(db: Executor, id: string, now: Date): Promise<void> {
    await sql`update mailbox_threads set labels = (
        select coalesce(jsonb_agg(distinct l), '[]'::jsonb)
        from mailbox_messages m, jsonb_array_elements_text(m.labels) as l
        where m.thread_id = ${id}
          and (l <> ${TRASH} or not exists (
            select 1 from mailbox_messages o where o.thread_id = ${id} and not (o.labels ? ${TRASH})))
      ), updated_at = ${now}
      where id = ${id}`.execute(db);
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_threads').where('id', '=', id).execute();
  },

  /** Locks a thread for the caller's transaction; the row and its version as the lock found them. */
  async lockForUpdate(db: Executor, id: string): Promise<{ row: ThreadRow; version: string } | undefined> {
    const row = await db
      .selectFrom('mailbox_threads')
      .selectAll()
      .select(sql<string>`xmin::text`.as('version'))
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    const { version, ...thread } = row;
    return { row: thread as ThreadRow, version };
  },

  async get(db: Executor, inboxIds: string[] | null, id: string): Promise<ThreadRow | undefined> {
    let query = db.selectFrom('mailbox_threads').selectAll().where('id', '=', id);
    if (inboxIds) query = query.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    return query.executeTakeFirst() as Promise<ThreadRow | undefined>;
  },
};
