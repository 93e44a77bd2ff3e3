import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type BlockEntryRow = Selectable<MailboxTables['mailbox_block_entries']>;

/** The sender's address and every domain that covers it: `a.b.example.com` → b.example.com, example.com… */
function senderKeys(sender: string): { address: string; domains: string[] } {
  const address = sender.toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const parts = domain.split('.');
  const domains = parts.slice(0, -1).map((_, index) => parts.slice(index).join('.'));
  return { address, domains: domains.length ? domains : [domain] };
}

export const blockListRepository = {
  async insert(db: Executor, row: BlockEntryRow): Promise<void> {
    await db.insertInto('mailbox_block_entries').values(row).execute();
  },

  /** Entries of a namespace (inboxId null) or of one inbox. */
  async list(db: Executor, namespaceId: string, inboxId: string | null, page: PageRequest) {
    let query = db.selectFrom('mailbox_block_entries').selectAll().where('namespace_id', '=', namespaceId);
    query = inboxId ? query.where('inbox_id', '=', inboxId) : query.where('inbox_id', 'is', null);
    return newestFirst(query, page, 'mailbox_block_entries').execute();
  },

  async get(db: Executor, namespaceId: string, inboxId: string | null, id: string) {
    let query = db
      .selectFrom('mailbox_block_entries')
      .selectAll()
      .where('namespace_id', '=', namespaceId)
      .where('id', '=', id);
    query = inboxId ? query.where('inbox_id', '=', inboxId) : query.where('inbox_id', 'is', null);
    return query.executeTakeFirst();
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_block_entries').where('id', '=', id).execute();
  },

  /**
   * The entry that blocks `sender` for an inbox (its own list first, then its namespace's, which
   * is joined in), as a query to run inside a larger statement.
   */
  matchQuery(db: Executor, inboxId: string, sender: string) {
    const { address, domains } = senderKeys(sender);
    return db
      .selectFrom('mailbox_block_entries as b')
      .innerJoin('mailbox_inboxes as i', 'i.namespace_id', 'b.namespace_id')
      .selectAll('b')
      .where('i.id', '=', inboxId)
      .where((eb) => eb.or([eb('b.inbox_id', 'is', null), eb('b.inbox_id', '=', inboxId)]))
      .where((eb) =>
        eb.or([
          eb.and([eb('b.kind', '=', 'address'), eb('b.value', '=', address)]),
          eb.and([eb('b.kind', '=', 'domain'), eb('b.value', 'in', domains)]),
        ]),
      )
      .orderBy(({ eb }) => eb('b.inbox_id', 'is', null))
      .limit(1);
  },
};
