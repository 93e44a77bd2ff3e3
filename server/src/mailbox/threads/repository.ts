import { type Selectable, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import { unique } from '../messages/addresses.ts';
import type { MailboxTables } from '../tables.ts';

export type ThreadRow = Selectable<MailboxTables['mailbox_threads']>;

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
      labels: unique([...thread.labels, ...add.labels]),
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

  /** Most recently active first, carrying every one of `labels`. */
  async list(db: Executor, inboxId: string, page: PageRequest, labels: string[] = []): Promise<ThreadRow[]> {
    let query = db.selectFrom('mailbox_threads').selectAll().where('inbox_id', '=', inboxId);
    for (const label of labels) query = query.where(sql<boolean>`labels ? ${label}`);
    return newestFirst(query, page, 'mailbox_threads', 'timestamp').execute() as Promise<ThreadRow[]>;
  },
};
