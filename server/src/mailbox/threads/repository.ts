import { type Selectable, sql } from 'kysely';
import type { Executor } from '../db.ts';
import { json } from '../db.ts';
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

/** `column || additions` without duplicates, in first-seen order, computed by the database. */
const appendUnique = (column: string, additions: string[]) =>
  sql<string>`(select coalesce(jsonb_agg(v order by first), '[]'::jsonb) from (select v, min(n) as first from jsonb_array_elements_text(${sql.ref(column)} || ${JSON.stringify(additions)}::jsonb) with ordinality as e(v, n) group by v) as merged)`;

export const threadsRepository = {
  /** Adds a message to a thread in one statement (the row lock is taken by the update); undefined if the thread is gone. */
  async append(db: Executor, id: string, add: ThreadAddition): Promise<ThreadRow | undefined> {
    return db
      .updateTable('mailbox_threads')
      .set({
        senders: appendUnique('senders', add.senders),
        recipients: appendUnique('recipients', add.recipients),
        participants: appendUnique('participants', add.participants),
        labels: appendUnique('labels', add.labels),
        preview: add.preview,
        message_count: sql<number>`message_count + 1`,
        size: sql<number>`size + ${add.size}`,
        last_message_id: add.last_message_id,
        timestamp: add.timestamp,
        updated_at: add.now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst() as Promise<ThreadRow | undefined>;
  },

  /** A thread that starts with one message, aggregates included. */
  async insertWith(db: Executor, thread: NewThread, add: ThreadAddition): Promise<ThreadRow> {
    return db
      .insertInto('mailbox_threads')
      .values({
        id: thread.id,
        inbox_id: thread.inbox_id,
        subject: thread.subject,
        normalized_subject: thread.normalized_subject,
        senders: json([...new Set(add.senders)]),
        recipients: json([...new Set(add.recipients)]),
        participants: json([...new Set(add.participants)]),
        labels: json([...new Set(add.labels)]),
        preview: add.preview,
        message_count: 1,
        size: add.size,
        last_message_id: add.last_message_id,
        timestamp: add.timestamp,
        created_at: thread.now,
        updated_at: thread.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<ThreadRow>;
  },

  async get(db: Executor, inboxIds: string[] | null, id: string): Promise<ThreadRow | undefined> {
    let query = db.selectFrom('mailbox_threads').selectAll().where('id', '=', id);
    if (inboxIds) query = query.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    return query.executeTakeFirst() as Promise<ThreadRow | undefined>;
  },

  async list(
    db: Executor,
    inboxId: string,
    options: { limit: number; after?: { timestamp: Date; id: string }; labels?: string[] },
  ): Promise<ThreadRow[]> {
    let query = db.selectFrom('mailbox_threads').selectAll().where('inbox_id', '=', inboxId);
    if (options.after) {
      const { timestamp, id } = options.after;
      query = query.where((eb) =>
        eb.or([
          eb('timestamp', '<', timestamp),
          eb.and([eb('timestamp', '=', timestamp), eb('id', '<', id)]),
        ]),
      );
    }
    for (const label of options.labels ?? []) query = query.where(sql<boolean>`labels ? ${label}`);
    return query.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(options.limit).execute() as Promise<
      ThreadRow[]
    >;
  },

  /** The subject layer of threading: same subject, recent, a participant in common. */
  async bySubject(
    db: Executor,
    inboxId: string,
    normalizedSubject: string,
    since: Date,
    participants: string[],
  ): Promise<string | null> {
    const row = await db
      .selectFrom('mailbox_threads')
      .select('id')
      .where('inbox_id', '=', inboxId)
      .where('normalized_subject', '=', normalizedSubject)
      .where('timestamp', '>=', since)
      .where(sql<boolean>`participants ?| ${sql.val(participants)}::text[]`)
      .orderBy('timestamp', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  },
};
