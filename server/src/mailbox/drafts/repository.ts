import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { type Executor, json } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type DraftRow = Selectable<MailboxTables['mailbox_drafts']>;

/** The JSON columns of a draft, serialised for writing. */
const JSON_COLUMNS = [
  'to',
  'cc',
  'bcc',
  'reply_to',
  'attachments',
  'references',
  'labels',
  'headers',
] as const;
export type DraftChange = Partial<Omit<DraftRow, 'id' | 'inbox_id' | 'client_id' | 'created_at'>>;

type DraftTable = MailboxTables['mailbox_drafts'];

/** The values as the JSON columns take them: the given lists and maps as JSON text. */
function serialised<T extends DraftChange>(values: T): Updateable<DraftTable> & Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const column of JSON_COLUMNS) if (values[column] !== undefined) out[column] = json(values[column]);
  return out;
}

export const draftsRepository = {
  /** Stores the draft; its lists are serialised here. */
  async insert(db: Executor, row: DraftRow): Promise<DraftRow> {
    return db
      .insertInto('mailbox_drafts')
      .values(serialised(row) as Insertable<DraftTable>)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Writes only the columns given; undefined when the draft is gone (sent or deleted meanwhile). */
  async update(db: Executor, id: string, change: DraftChange): Promise<DraftRow | undefined> {
    return db
      .updateTable('mailbox_drafts')
      .set(serialised(change))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  async byId(db: Executor, inboxId: string, id: string): Promise<DraftRow | undefined> {
    return db
      .selectFrom('mailbox_drafts')
      .selectAll()
      .where('inbox_id', '=', inboxId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async byClientId(db: Executor, inboxId: string, clientId: string): Promise<DraftRow | undefined> {
    return db
      .selectFrom('mailbox_drafts')
      .selectAll()
      .where('inbox_id', '=', inboxId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  },

  async list(db: Executor, inboxId: string, page: PageRequest): Promise<DraftRow[]> {
    const query = db.selectFrom('mailbox_drafts').selectAll().where('inbox_id', '=', inboxId);
    return newestFirst(query, page, 'mailbox_drafts').execute();
  },

  /** The draft with its row version (xmin), which `claim` checks it is still at. */
  async byIdWithVersion(
    db: Executor,
    inboxId: string,
    id: string,
  ): Promise<(DraftRow & { version: string }) | undefined> {
    return db
      .selectFrom('mailbox_drafts')
      .selectAll()
      .select(sql<string>`xmin::text`.as('version'))
      .where('inbox_id', '=', inboxId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /**
   * Deletes the draft if it is still the version that was read (in the transaction that stores
   * the message sent from it): `changed` when an update got there first, `gone` when it was
   * sent or deleted meanwhile.
   */
  async claim(
    db: Executor,
    inboxId: string,
    id: string,
    version: string,
  ): Promise<'claimed' | 'changed' | 'gone'> {
    const deleted = await db
      .deleteFrom('mailbox_drafts')
      .where('inbox_id', '=', inboxId)
      .where('id', '=', id)
      .where(sql<boolean>`xmin::text = ${version}`)
      .returning('id')
      .executeTakeFirst();
    if (deleted) return 'claimed';
    return (await this.byId(db, inboxId, id)) ? 'changed' : 'gone';
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_drafts').where('id', '=', id).execute();
  },

  /** The attachments of every draft of an inbox: their stored bytes go when the inbox goes. */
  async attachmentsIn(db: Executor, inboxId: string): Promise<Array<Pick<DraftRow, 'attachments'>>> {
    return db.selectFrom('mailbox_drafts').select('attachments').where('inbox_id', '=', inboxId).execute();
  },
};
