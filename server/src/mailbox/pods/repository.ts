import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
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
    page: PageRequest,
  ) {
    let query = db.selectFrom('mailbox_pods').selectAll();
    if (filter.namespaceId !== null) query = query.where('namespace_id', '=', filter.namespaceId);
    if (filter.podIds !== null) query = query.where('id', 'in', filter.podIds.length ? filter.podIds : ['']);
    return newestFirst(query, page, 'mailbox_pods').execute();
  },
  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_pods').where('id', '=', id).execute();
  },
  /** Locks the pod's row: inserts naming it (an inbox, a domain, a key) wait until the lock is released. */
  async lockForUpdate(db: Executor, id: string): Promise<PodRow | undefined> {
    return db.selectFrom('mailbox_pods').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },
  /** What still belongs to the pod and would go with it: inboxes, domains, live keys, webhooks. */
  async dependents(db: Executor, id: string) {
    const row = await db
      .selectNoFrom((eb) => {
        const count = (table: 'mailbox_inboxes' | 'mailbox_domains' | 'mailbox_webhooks') =>
          eb
            .selectFrom(table)
            .select((c) => c.fn.countAll<string>().as('n'))
            .where('pod_id', '=', id);
        return [
          count('mailbox_inboxes').as('inboxes'),
          count('mailbox_domains').as('domains'),
          count('mailbox_webhooks').as('webhooks'),
          eb
            .selectFrom('mailbox_api_keys')
            .select((c) => c.fn.countAll<string>().as('n'))
            .where('pod_id', '=', id)
            .where('revoked_at', 'is', null)
            .as('api_keys'),
        ];
      })
      .executeTakeFirstOrThrow();
    return {
      inboxes: Number(row.inboxes),
      domains: Number(row.domains),
      webhooks: Number(row.webhooks),
      api_keys: Number(row.api_keys),
    };
  },
};
