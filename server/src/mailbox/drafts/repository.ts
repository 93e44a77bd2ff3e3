import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { type Executor, json } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type DraftRow = Selectable<MailboxTables['mailbox_drafts']>;

export const draftsRepository = {
  /** Stores the draft; its lists are serialised here. */
  async insert(db: Executor, row: DraftRow): Promise<DraftRow> {
    return db
      .insertInto('mailbox_drafts')
      .values({
        ...row,
        to: json(row.to),
        cc: json(row.cc),
        bcc: json(row.bcc),
        reply_to: json(row.reply_to),
        attachments: json(row.attachments),
        references: json(row.references),
        labels: json(row.labels),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_drafts').where('id', '=', id).execute();
  },

  /** The attachments of every draft of an inbox: their stored bytes go when the inbox goes. */
  async attachmentsIn(db: Executor, inboxId: string): Promise<Array<Pick<DraftRow, 'attachments'>>> {
    return db.selectFrom('mailbox_drafts').select('attachments').where('inbox_id', '=', inboxId).execute();
  },
};
