import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type InboxRow = Selectable<MailboxTables['mailbox_inboxes']>;

/** Which inboxes a principal reaches: null fields are unrestricted. */
export interface InboxReach {
  namespaceId: string | null;
  podId: string | null;
  inboxIds: string[] | null;
}

export const inboxesRepository = {
  async insert(db: Executor, row: InboxRow): Promise<void> {
    await db.insertInto('mailbox_inboxes').values(row).execute();
  },

  async byId(db: Executor, id: string): Promise<InboxRow | undefined> {
    return db.selectFrom('mailbox_inboxes').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
  },

  async byClientId(db: Executor, namespaceId: string, clientId: string): Promise<InboxRow | undefined> {
    return db
      .selectFrom('mailbox_inboxes')
      .selectAll()
      .where('namespace_id', '=', namespaceId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  },

  /** Where these inboxes are: the id, namespace and pod of each one that exists. */
  async placesOf(
    db: Executor,
    ids: string[],
  ): Promise<Array<Pick<InboxRow, 'id' | 'namespace_id' | 'pod_id'>>> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('mailbox_inboxes')
      .select(['id', 'namespace_id', 'pod_id'])
      .where('id', 'in', ids)
      .execute();
  },

  async list(db: Executor, reach: InboxReach, page: PageRequest, podId?: string) {
    let query = db.selectFrom('mailbox_inboxes').selectAll();
    if (reach.namespaceId !== null) query = query.where('namespace_id', '=', reach.namespaceId);
    if (reach.podId !== null) query = query.where('pod_id', '=', reach.podId);
    if (reach.inboxIds !== null)
      query = query.where('id', 'in', reach.inboxIds.length ? reach.inboxIds : ['']);
    if (podId) query = query.where('pod_id', '=', podId);
    return newestFirst(query, page, 'mailbox_inboxes').execute();
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_inboxes').where('id', '=', id).execute();
  },

  async update(db: Executor, id: string, values: { display_name?: string | null; updated_at: Date }) {
    return db
      .updateTable('mailbox_inboxes')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};

/** True when the reach covers this inbox. */
export function reaches(reach: InboxReach, inbox: Pick<InboxRow, 'id' | 'namespace_id' | 'pod_id'>): boolean {
  if (reach.namespaceId !== null && inbox.namespace_id !== reach.namespaceId) return false;
  if (reach.podId !== null && inbox.pod_id !== reach.podId) return false;
  if (reach.inboxIds !== null && !reach.inboxIds.includes(inbox.id)) return false;
  return true;
}
