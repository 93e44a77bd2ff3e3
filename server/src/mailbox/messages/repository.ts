import { type Insertable, type RawBuilder, type Selectable, sql } from 'kysely';
import type { Executor } from '../db.ts';
import { json } from '../db.ts';
import { EVENT_DELIVERIES } from '../events/repository.ts';
import type { ListEvidence, ListPlace } from '../lists/policy.ts';
import { evidenceFromJson, listsRepository } from '../lists/repository.ts';
import type { MailboxTables, OutboundRecipient } from '../tables.ts';
import type { QuoteSearch } from '../threading/resolve.ts';
import { type ThreadRow, TRASH, threadsRepository } from '../threads/repository.ts';
import { unique } from './addresses.ts';

export type MessageRow = Selectable<MailboxTables['mailbox_messages']>;
export type AttachmentRow = Selectable<MailboxTables['mailbox_attachments']>;

/**
 * Every column a message is read with: all but `search_vector` (migration 0053, about as large as
 * the body, only ever used inside SQL), which `select *` would fetch with every row. Typed as a
 * record of the row's keys, so a column added to the table type must be added here too.
 */
const messageColumnSet: Record<keyof MessageRow, true> = {
  id: true,
  inbox_id: true,
  message_id: true,
  thread_id: true,
  direction: true,
  status: true,
  from_address: true,
  from: true,
  reply_to: true,
  to: true,
  cc: true,
  bcc: true,
  subject: true,
  normalized_subject: true,
  preview: true,
  text: true,
  html: true,
  in_reply_to: true,
  references: true,
  labels: true,
  headers: true,
  headers_truncated: true,
  matched_by: true,
  auto_reply: true,
  auto_reply_reason: true,
  extracted_text: true,
  extracted_html: true,
  rejection_reason: true,
  recipients: true,
  send_at: true,
  raw_key: true,
  size: true,
  timestamp: true,
  created_at: true,
  updated_at: true,
};
export const MESSAGE_COLUMNS = Object.keys(messageColumnSet) as Array<keyof MessageRow>;

/** A message to insert, with arrays and objects as values (serialised here). */
export type NewMessage = Omit<
  Insertable<MailboxTables['mailbox_messages']>,
  'reply_to' | 'to' | 'cc' | 'bcc' | 'references' | 'labels' | 'headers' | 'recipients'
> & {
  recipients?: OutboundRecipient[];
  reply_to: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  references: string[];
  labels: string[];
  headers: Record<string, string>;
};

/**
 * `INSERT INTO table (columns of the rows) SELECT … FROM json_populate_recordset(…)`: whole rows
 * as one JSON parameter, typed by the table itself. Only the rows' own columns are named, so a
 * column added later gets its default. With `after` (a CTE), rows are inserted only if it
 * yielded one.
 */
function insertFromJson(table: string, rows: object[], after?: string): RawBuilder<unknown> {
  const columns = Object.keys(rows[0] ?? {});
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
    select ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))}
    from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json) as r
      ${after ? sql`, ${sql.table(after)}` : sql``}`;
}

/** The CTE of writeStored() that inserts the message: the event's CTEs follow it (see `after`). */
export const MESSAGE_ROW = 'message_row';

export const messagesRepository = {
  /** Everything storing one message needs to know, read in one statement (one snapshot). */
  storeContext,

  /**
   * Writes a thread (new, or updated if still at `version`), a message, its attachments and the
   * event CTEs `event` (see EventRecorder.writeParts) in one statement. Nothing is written if
   * the thread is no longer at that version: `stored` is then false.
   */
  async writeStored(
    db: Executor,
    write: {
      thread: { row: ThreadRow; version: string | undefined } | null;
      message: MessageRow;
      attachments: AttachmentRow[];
      /** The event's CTEs; null for a message stored without an event (an outbound one, queued). */
      event: RawBuilder<unknown> | null;
    },
  ): Promise<{ stored: boolean; pending: boolean }> {
    const { thread } = write;
    const threadWrite = !thread
      ? null
      : thread.version === undefined
        ? sql`${insertFromJson('mailbox_threads', [thread.row])} returning id`
        : sql`update mailbox_threads as t set senders = r.senders, recipients = r.recipients,
              participants = r.participants, labels = r.labels, preview = r.preview,
              message_count = r.message_count, size = r.size, last_message_id = r.last_message_id,
              timestamp = r.timestamp, updated_at = r.updated_at
            from json_populate_record(null::mailbox_threads, ${JSON.stringify(thread.row)}::json) as r
            where t.id = r.id and t.xmin::text = ${thread.version}
            returning t.id`;
    const attachments = write.attachments.length
      ? sql`, attachment_rows as (${insertFromJson('mailbox_attachments', write.attachments, MESSAGE_ROW)})`
      : sql``;
    const { rows } = await sql<{ stored: boolean; pending: boolean }>`
      with ${threadWrite ? sql`thread_row as (${threadWrite}),` : sql``}
      ${sql.table(MESSAGE_ROW)} as (
        ${insertFromJson('mailbox_messages', [write.message], threadWrite ? 'thread_row' : undefined)}
        returning id
      )${attachments}${write.event ? sql`, ${write.event}` : sql``}
      select exists (select 1 from ${sql.table(MESSAGE_ROW)}) as stored,
        ${write.event ? sql`coalesce((select bool_or(pending) from ${sql.table(EVENT_DELIVERIES)}), false)` : sql`false`} as pending`.execute(
      db,
    );
    return rows[0] ?? { stored: false, pending: false };
  },

  async byMessageId(db: Executor, inboxId: string, messageId: string): Promise<MessageRow | undefined> {
    return db
      .selectFrom('mailbox_messages')
      .select(MESSAGE_COLUMNS)
      .where('inbox_id', '=', inboxId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
  },

  /** Locks a message's row for the caller's transaction; false when it is gone. */
  async lockRow(db: Executor, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('mailbox_messages')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Every message of an inbox: its row id and where its raw bytes are stored. */
  async rawKeysIn(db: Executor, inboxId: string): Promise<Array<Pick<MessageRow, 'id' | 'raw_key'>>> {
    return db
      .selectFrom('mailbox_messages')
      .select(['id', 'raw_key'])
      .where('inbox_id', '=', inboxId)
      .execute();
  },

  /** Where the attachments of these messages (by row id) are stored. */
  async attachmentKeysOf(
    db: Executor,
    messageRowIds: string[],
  ): Promise<Array<Pick<AttachmentRow, 'storage_key'>>> {
    return db
      .selectFrom('mailbox_attachments')
      .select('storage_key')
      .where('message_row_id', 'in', messageRowIds)
      .execute();
  },

  async inThread(db: Executor, threadId: string): Promise<MessageRow[]> {
    return db
      .selectFrom('mailbox_messages')
      .select(MESSAGE_COLUMNS)
      .where('thread_id', '=', threadId)
      .orderBy('timestamp')
      .orderBy('id')
      .execute();
  },

  /**
   * Adds and removes labels of a message; its thread's labels are recomputed from its messages.
   * The thread is locked first and the labels are changed as they are then, not as the caller
   * read them: two label changes in one thread, or a message being stored into it (whose write
   * checks the thread's version), are serialised instead of overwriting each other.
   */
  async changeLabels(
    db: Executor,
    row: MessageRow,
    change: { add: string[]; remove: string[] },
    now: Date,
  ): Promise<MessageRow> {
    return db.transaction().execute(async (trx) => {
      if (row.thread_id) await threadsRepository.lockForUpdate(trx, row.thread_id);
      const current = await trx
        .selectFrom('mailbox_messages')
        .select('labels')
        .where('id', '=', row.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const labels = unique([
        ...current.labels.filter((label) => !change.remove.includes(label)),
        ...change.add,
      ]);
      const updated = await trx
        .updateTable('mailbox_messages')
        .set({ labels: json(labels), updated_at: now })
        .where('id', '=', row.id)
        .returning(MESSAGE_COLUMNS)
        .executeTakeFirstOrThrow();
      if (row.thread_id) await threadsRepository.refreshLabels(trx, row.thread_id, now);
      return updated;
    });
  },

  /** Puts every message of a thread in the trash (`into`) or takes them out; the caller locks the thread. */
  async trashThread(db: Executor, threadId: string, into: boolean, now: Date): Promise<void> {
    const labels = into ? sql`labels || ${json([TRASH])}::jsonb` : sql`labels - ${TRASH}::text`;
    await db
      .updateTable('mailbox_messages')
      .set({ labels: labels as never, updated_at: now })
      .where('thread_id', '=', threadId)
      .where(into ? sql<boolean>`not (labels ? ${TRASH})` : sql<boolean>`labels ? ${TRASH}`)
      .execute();
  },

  /**
   * Deletes messages (by row id) with their attachment rows; returns the storage keys of their
   * raw bytes and attachments, for the caller to remove once the deletion committed.
   */
  async deleteRows(db: Executor, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const attachments = await db
      .selectFrom('mailbox_attachments')
      .select('storage_key')
      .where('message_row_id', 'in', ids)
      .execute();
    const messages = await db
      .deleteFrom('mailbox_messages')
      .where('id', 'in', ids)
      .returning('raw_key')
      .execute();
    return [
      ...messages.map((m) => m.raw_key).filter((key): key is string => key !== null),
      ...attachments.map((a) => a.storage_key),
    ];
  },

  async attachmentsFor(db: Executor, messageRowIds: string[]): Promise<Map<string, AttachmentRow[]>> {
    const map = new Map<string, AttachmentRow[]>();
    if (messageRowIds.length === 0) return map;
    const rows = await db
      .selectFrom('mailbox_attachments')
      .selectAll()
      .where('message_row_id', 'in', messageRowIds)
      .orderBy('position')
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

export interface StoreContext {
  /** Message-ID → thread id ('' for a message in no thread) of the named messages already stored. */
  known: Map<string, string>;
  subjectThreadId: string | null;
  quoteThreadId: string | null;
  /** The threads of `known` and the subject candidate, each with its row version (xmin). */
  threads: Map<string, { row: ThreadRow; version: string }>;
  /** What the inbox's receive lists say about the sender (when asked to check). */
  receiveLists: ListEvidence | null;
}

/** Everything threading and the receive lists need to know, read in one statement (one snapshot). */
async function storeContext(
  db: Executor,
  query: {
    inboxId: string;
    messageIds: string[];
    /** The subject layer's search (see subjectSearch), or null when it cannot match. */
    subject: { normalizedSubject: string; since: Date; others: string[] } | null;
    /** The quote layer's search (see quoteSearch), or null when the message quotes nothing. */
    quote?: QuoteSearch | null;
    /** Inbound mail: the sender, and the inbox whose receive lists (with its pod's and namespace's) apply. */
    receiveLists?: { place: ListPlace; sender: string };
  },
): Promise<StoreContext> {
  const { subject, quote, receiveLists } = query;
  const lists = receiveLists
    ? listsRepository.evidenceQuery(db, receiveLists.place, 'receive', [receiveLists.sender])
    : sql`null`;
  const { rows } = await sql<{
    known: Array<{ message_id: string; thread_id: string | null }>;
    subject_thread_id: string | null;
    quote_thread_id: string | null;
    threads: Array<{ row: Record<string, unknown>; version: string }>;
    receive_lists: Record<string, unknown> | null;
  }>`
    with known as (
      select message_id, thread_id from mailbox_messages
      where inbox_id = ${query.inboxId} and message_id = any(${unique(query.messageIds.filter(Boolean))}::text[])
    ), by_subject as (${
      subject
        ? sql`select id from mailbox_threads
            where inbox_id = ${query.inboxId} and normalized_subject = ${subject.normalizedSubject}
              and timestamp >= ${subject.since} and participants ?| ${subject.others}::text[]
            order by timestamp desc
            limit 1`
        : sql`select null::text as id where false`
    }), by_quote as (${quote ? quoteCandidates(query.inboxId, quote) : sql`select null::text as id where false`})
    select
      (select coalesce(json_agg(known), '[]') from known) as known,
      (select id from by_subject) as subject_thread_id,
      (select id from by_quote) as quote_thread_id,
      (select coalesce(json_agg(json_build_object('row', to_json(t), 'version', t.xmin::text)), '[]')
        from mailbox_threads as t
        where t.id in (select thread_id from known union all select id from by_subject
          union all select id from by_quote)) as threads,
      ${lists} as receive_lists`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('the store context query returned no row');
  return {
    known: new Map(row.known.map((known) => [known.message_id, known.thread_id ?? ''])),
    subjectThreadId: row.subject_thread_id,
    quoteThreadId: row.quote_thread_id,
    threads: new Map(
      row.threads.map(({ row: thread, version }) => [
        thread.id as string,
        { row: threadFromJson(thread), version },
      ]),
    ),
    receiveLists: row.receive_lists ? evidenceFromJson(row.receive_lists) : null,
  };
}

/**
 * The thread of the most recent message the quote names: sent by the quoted sender within the
 * window, in a thread one of the other participants is in, whose opening (its new part, else its
 * text, whitespace collapsed as normalizeQuoteText does) appears in the quoted text.
 */
function quoteCandidates(inboxId: string, quote: QuoteSearch): RawBuilder<unknown> {
  const sender = quote.address
    ? sql`m.from_address = ${quote.address}`
    : sql`lower(m."from") like lower(${`%${escapeLike(quote.name ?? '')}%<%`}) escape '\\'`;
  return sql`select m.thread_id as id
    from mailbox_messages as m
    join mailbox_threads as t on t.id = m.thread_id
    cross join lateral (select left(btrim(regexp_replace(
        coalesce(nullif(m.extracted_text, ''), m.text, ''), '[ \t\r\n\f\v]+', ' ', 'g')), ${QUOTE_OPENING}) as opening) as o
    where m.inbox_id = ${inboxId} and ${sender} and m.timestamp >= ${quote.since}
      and t.participants ?| ${quote.others}::text[]
      and length(o.opening) >= ${quote.minMatch} and strpos(${quote.quotedText}, o.opening) > 0
    order by m.timestamp desc
    limit 1`;
}

/** How much of a stored message's opening must appear in a quote. */
const QUOTE_OPENING = 80;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A thread row read back as JSON: its timestamps arrive as strings. */
function threadFromJson(json: Record<string, unknown>): ThreadRow {
  return {
    ...(json as unknown as ThreadRow),
    timestamp: new Date(json.timestamp as string),
    created_at: new Date(json.created_at as string),
    updated_at: new Date(json.updated_at as string),
  };
}
