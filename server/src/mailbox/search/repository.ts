import { type RawBuilder, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import type { InboxReach } from '../inboxes/repository.ts';
import { MESSAGE_COLUMNS, type MessageRow } from '../messages/repository.ts';
import { type ThreadRow, TRASH } from '../threads/repository.ts';
import { narrowsMessages, type SearchFilters } from './filters.ts';

/** Where a search looks: one inbox, or every inbox a principal reaches. */
export type SearchScope = { inboxId: string } | { reach: InboxReach };

const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** `inbox_id` within the scope: one inbox, or the inboxes of a reach (tenant isolation). */
function inScope(scope: SearchScope, alias: string): RawBuilder<boolean> {
  const inbox = col(alias, 'inbox_id');
  if ('inboxId' in scope) return sql<boolean>`${inbox} = ${scope.inboxId}`;
  const { namespaceId, podId, inboxIds } = scope.reach;
  if (inboxIds !== null && inboxIds.length === 0) return sql<boolean>`false`;
  const narrowing = [
    namespaceId !== null ? sql`i.namespace_id = ${namespaceId}` : null,
    podId !== null ? sql`i.pod_id = ${podId}` : null,
    inboxIds !== null ? sql`i.id = any(${inboxIds}::text[])` : null,
  ].filter((part) => part !== null);
  if (narrowing.length === 0) return sql<boolean>`true`;
  return sql<boolean>`${inbox} in (select i.id from mailbox_inboxes as i where ${sql.join(narrowing, sql` and `)})`;
}

/** The bare, lower-cased address in `Name <addr>` or `addr` (as bareAddress() in messages/addresses.ts). */
const bare = (formatted: RawBuilder<unknown>) =>
  sql`lower(trim(coalesce(substring(${formatted} from '<([^<>]+)>\\s*$'), ${formatted})))`;

/** An address equal to `value`, or, for a domain, at that domain or one of its subdomains. */
function addressMatches(address: RawBuilder<unknown>, value: string): RawBuilder<boolean> {
  if (value.includes('@')) return sql<boolean>`${address} = ${value}`;
  // The schema allows only letters, digits, dots and hyphens in a domain: nothing LIKE reads.
  const domain = sql`split_part(${address}, '@', 2)`;
  return sql<boolean>`(${domain} = ${value} or ${domain} like ${`%.${value}`})`;
}

/** What a message (`alias`) must satisfy beyond its scope and labels. */
function messageConditions(filters: SearchFilters, alias: string): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = [];
  if (filters.q) {
    conditions.push(
      sql<boolean>`${col(alias, 'search_vector')} @@ websearch_to_tsquery('simple', ${filters.q})`,
    );
  }
  if (filters.from) conditions.push(addressMatches(sql`${col(alias, 'from_address')}`, filters.from));
  if (filters.to) {
    const recipient = sql`r.value`;
    conditions.push(sql<boolean>`exists (
      select 1 from jsonb_array_elements_text(${col(alias, 'to')} || ${col(alias, 'cc')} || ${col(alias, 'bcc')}) as r
      where ${addressMatches(bare(recipient), filters.to)})`);
  }
  if (filters.after) conditions.push(sql<boolean>`${col(alias, 'timestamp')} >= ${filters.after}`);
  if (filters.before) conditions.push(sql<boolean>`${col(alias, 'timestamp')} < ${filters.before}`);
  if (filters.hasAttachments !== null) {
    // Inline parts (logos, signatures' images) are part of the body, not attachments.
    const attached = sql`exists (select 1 from mailbox_attachments as a
      where a.message_row_id = ${col(alias, 'id')} and a.content_disposition is distinct from 'inline')`;
    conditions.push(filters.hasAttachments ? sql<boolean>`${attached}` : sql<boolean>`not ${attached}`);
  }
  return conditions;
}

/** Leaves out trashed messages unless the trash is asked for by label. */
function trashHidden(filters: SearchFilters, alias: string): RawBuilder<boolean>[] {
  return filters.labels.includes(TRASH) ? [] : [sql<boolean>`not (${col(alias, 'labels')} ? ${TRASH})`];
}

const labelled = (labels: string[], alias: string) =>
  labels.map((label) => sql<boolean>`${col(alias, 'labels')} ? ${label}`);

export const searchRepository = {
  /** Messages, newest first; blocked mail only with the `blocked` label, trashed only with `trash`. */
  async messages(
    db: Executor,
    scope: SearchScope,
    filters: SearchFilters,
    page: PageRequest,
  ): Promise<MessageRow[]> {
    const m = 'mailbox_messages';
    const conditions = [
      inScope(scope, m),
      ...labelled(filters.labels, m),
      ...(filters.labels.includes('blocked') ? [] : [sql<boolean>`${col(m, 'status')} <> 'blocked'`]),
      ...trashHidden(filters, m),
      ...messageConditions(filters, m),
    ];
    const query = db
      .selectFrom('mailbox_messages')
      .select(MESSAGE_COLUMNS)
      .where(sql<boolean>`${sql.join(conditions, sql` and `)}`);
    return newestFirst(query, page, m, 'timestamp').execute();
  },

  /**
   * Threads, most recently active first. Thread labels are the union of their messages' (a thread
   * is `trash` only when all its messages are, see threadLabels); the other filters match when
   * one of the thread's messages outside the trash (unless `trash` is asked for) matches them all.
   */
  async threads(
    db: Executor,
    scope: SearchScope,
    filters: SearchFilters,
    page: PageRequest,
  ): Promise<ThreadRow[]> {
    const t = 'mailbox_threads';
    const conditions = [inScope(scope, t), ...labelled(filters.labels, t), ...trashHidden(filters, t)];
    if (narrowsMessages(filters)) {
      const inThread = [
        sql<boolean>`m.thread_id = ${col(t, 'id')}`,
        ...trashHidden(filters, 'm'),
        ...messageConditions(filters, 'm'),
      ];
      conditions.push(
        sql<boolean>`exists (select 1 from mailbox_messages as m where ${sql.join(inThread, sql` and `)})`,
      );
    }
    const query = db
      .selectFrom('mailbox_threads')
      .selectAll()
      .where(sql<boolean>`${sql.join(conditions, sql` and `)}`);
    return newestFirst(query, page, t, 'timestamp').execute() as Promise<ThreadRow[]>;
  },
};
