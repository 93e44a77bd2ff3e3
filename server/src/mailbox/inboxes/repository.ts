import type { Selectable } from 'kysely';
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

  async list(
    db: Executor,
    reach: InboxReach,
    options: { limit: number; after?: { created_at: Date; id: string }; podId?: string },
  ) {
    let query = db.selectFrom('mailbox_inboxes').selectAll();
    if (reach.namespaceId !== null) query = query.where('namespace_id', '=', reach.namespaceId);
    if (reach.podId !== null) query = query.where('pod_id', '=', reach.podId);
    if (reach.inboxIds !== null)
      query = query.where('id', 'in', reach.inboxIds.length ? reach.inboxIds : ['']);
    if (options.podId) query = query.where('pod_id', '=', options.podId);
    if (options.after) {
      const { created_at, id } = options.after;
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', created_at),
          eb.and([eb('created_at', '=', created_at), eb('id', '<', id)]),
        ]),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
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
