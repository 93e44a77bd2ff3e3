import { type SelectQueryBuilder, sql } from 'kysely';
import type { PageRequest, Position } from '../http/pagination.ts';

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
  return keysetRows(query, table, page?.after ?? null, page ? page.limit + 1 : null, time);
}

/**
 * The statement of newestFirst, given the SQL's row limit itself (null: no limit). Its values
 * reach the SQL only as parameters, so a statement compiled once can take new ones (compiled-once.ts).
 */
export function keysetRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: string,
  after: Position | null,
  rowLimit: number | null,
  time = 'created_at',
): SelectQueryBuilder<DB, TB, O> {
  let q = query.orderBy(sql.ref(`${table}.${time}`), 'desc').orderBy(sql.ref(`${table}.id`), 'desc');
  if (after) {
    q = q.where(
      sql<boolean>`(${sql.ref(`${table}.${time}`)}, ${sql.ref(`${table}.id`)}) < (${after.createdAt}::timestamptz, ${after.id})`,
    );
  }
  return rowLimit === null ? q : q.limit(rowLimit);
}
