import type { Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import type { MailboxTables } from '../tables.ts';

export type DomainRow = Selectable<MailboxTables['mailbox_domains']>;

/** The result of one DNS check, as stored on the domain. */
export type DomainCheck = Pick<
  DomainRow,
  'status' | 'last_checked_at' | 'last_error' | 'verified_at' | 'updated_at'
>;

export const domainsRepository = {
  async insert(db: Executor, row: DomainRow): Promise<void> {
    await db.insertInto('mailbox_domains').values(row).execute();
  },

  async byId(db: Executor, id: string): Promise<DomainRow | undefined> {
    return db.selectFrom('mailbox_domains').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Locks the domain for the caller's transaction: concurrent checks record their results one at a time. */
  async lockForUpdate(db: Executor, id: string): Promise<DomainRow> {
    return db
      .selectFrom('mailbox_domains')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
  },

  async recordCheck(db: Executor, id: string, check: DomainCheck): Promise<DomainRow> {
    return db
      .updateTable('mailbox_domains')
      .set(check)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Domains of a namespace and pod (null: any), newest first. */
  async list(db: Executor, filter: { namespaceId: string | null; podId: string | null }, page: PageRequest) {
    let query = db.selectFrom('mailbox_domains').selectAll();
    if (filter.namespaceId !== null) query = query.where('namespace_id', '=', filter.namespaceId);
    if (filter.podId !== null) query = query.where('pod_id', '=', filter.podId);
    return newestFirst(query, page, 'mailbox_domains').execute();
  },

  /** True when `domain` is a verified custom domain of any namespace (mail for it is accepted). */
  async isVerified(db: Executor, domain: string): Promise<boolean> {
    const row = await db
      .selectFrom('mailbox_domains')
      .select('status')
      .where('id', '=', domain)
      .executeTakeFirst();
    return row?.status === 'verified';
  },

  /** True when `domain` is a verified custom domain of this namespace (its inboxes may use it). */
  async isVerifiedIn(db: Executor, namespaceId: string, domain: string): Promise<boolean> {
    const row = await db
      .selectFrom('mailbox_domains')
      .select(['id', 'status'])
      .where('id', '=', domain)
      .where('namespace_id', '=', namespaceId)
      .executeTakeFirst();
    return row?.status === 'verified';
  },

  /** The DKIM key of a domain, if it is verified: mail from it is signed with this key. */
  async signingKey(db: Executor, domain: string) {
    const row = await db
      .selectFrom('mailbox_domains')
      .select(['id', 'status', 'dkim_selector', 'dkim_private_key_sealed'])
      .where('id', '=', domain)
      .executeTakeFirst();
    return row?.status === 'verified' ? row : undefined;
  },
};
