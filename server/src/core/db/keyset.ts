import { type SelectQueryBuilder, sql } from 'kysely';
import type { PageRequest } from '../http/pagination.ts';

/**
 * Newest-first keyset paging on (created_at, id): rows strictly after the cursor's position,
 * `limit + 1` of them so the caller can tell whether more follow. `created_at` columns are
 * timestamptz(3), so a millisecond cursor position matches the stored value exactly. A list
 * sorted by another time column (the mailbox's messages and threads, by `timestamp`) names it
 * as `time`; the cursor's `createdAt` is then a position in that column.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest | null,
  table: string,
  time = 'created_at',
): SelectQueryBuilder<DB, TB, O> {
  let q = query.orderBy(sql.ref(`${table}.${time}`), 'desc').orderBy(sql.ref(`${table}.id`), 'desc');
  if (page?.after) {
    const { createdAt, id } = page.after;
    q = q.where(
      sql<boolean>`(${sql.ref(`${table}.${time}`)}, ${sql.ref(`${table}.id`)}) < (${createdAt}::timestamptz, ${id})`,
    );
  }
  return page ? q.limit(page.limit + 1) : q;
}
