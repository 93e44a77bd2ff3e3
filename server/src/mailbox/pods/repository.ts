import type { Selectable } from 'kysely';
import type { Executor } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type PodRow = Selectable<MailboxTables['mailbox_pods']>;

export const podsRepository = {
  async insert(db: Executor, row: PodRow): Promise<void> {
    await db.insertInto('mailbox_pods').values(row).execute();
  },
  async byId(db: Executor, id: string): Promise<PodRow | undefined> {
    return db.selectFrom('mailbox_pods').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async byClientId(db: Executor, namespaceId: string, clientId: string): Promise<PodRow | undefined> {
    return db
      .selectFrom('mailbox_pods')
      .selectAll()
      .where('namespace_id', '=', namespaceId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  },
  async list(
    db: Executor,
    filter: { namespaceId: string | null; podIds: string[] | null },
    options: { limit: number; after?: { created_at: Date; id: string } },
  ) {
    let query = db.selectFrom('mailbox_pods').selectAll();
    if (filter.namespaceId !== null) query = query.where('namespace_id', '=', filter.namespaceId);
    if (filter.podIds !== null) query = query.where('id', 'in', filter.podIds.length ? filter.podIds : ['']);
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
    await db.deleteFrom('mailbox_pods').where('id', '=', id).execute();
  },
};
