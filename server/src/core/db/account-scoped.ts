import type { Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import type { PageRequest } from '../http/pagination.ts';
import { compiledOnce } from './compiled-once.ts';
import { keysetRows, newestFirst } from './keyset.ts';
import type { DB } from './schema.ts';

/** Tables whose rows belong to one workspace (`account_id`), named by a uuid `id`. */
export type AccountTable = {
  [T in keyof DB]: DB[T] extends { account_id: string; id: string } ? T : never;
}[keyof DB];

/** Account tables whose deletes only set `deleted_at`. */
export type SoftDeleteTable = {
  [T in AccountTable]: DB[T] extends { deleted_at: unknown } ? T : never;
}[AccountTable];

type Row<T extends AccountTable> = Selectable<DB[T]>;
type ScopedQuery<T extends AccountTable> = SelectQueryBuilder<DB, T, Row<T>>;

/**
 * Find, list, update and delete by (account_id, id): the tenant filter is written here once, so a
 * repository cannot forget it. Every statement names its columns by table, so a caller may refine
 * `query` with joins and subqueries.
 */
export interface AccountScoped<T extends AccountTable> {
  /** The account's rows (`select table.*`), to refine. */
  query(db: Kysely<DB>, accountId: string): ScopedQuery<T>;
  /** Newest first, paged when `page` is given; `refine` adds the list's own filters. */
  list(
    db: Kysely<DB>,
    accountId: string,
    page: PageRequest | null,
    refine?: (query: ScopedQuery<T>) => ScopedQuery<T>,
  ): Promise<Row<T>[]>;
  /** `forUpdate` locks the row until the transaction ends. */
  find(
    db: Kysely<DB>,
    accountId: string,
    id: string,
    options?: { forUpdate?: boolean },
  ): Promise<Row<T> | undefined>;
  /** The rows of `ids` the account owns, in no particular order. */
  findMany(db: Kysely<DB>, accountId: string, ids: string[]): Promise<Row<T>[]>;
  /** The row as updated; undefined when the account has no such row. */
  update(
    db: Kysely<DB>,
    accountId: string,
    id: string,
    values: Updateable<DB[T]>,
  ): Promise<Row<T> | undefined>;
  /** The deleted row's id; undefined when the account has no such row. */
  delete(db: Kysely<DB>, accountId: string, id: string): Promise<{ id: string } | undefined>;
}

/** A table with soft delete: rows with `deleted_at` set are invisible, and deleting sets it. */
export interface SoftDeleteScoped<T extends SoftDeleteTable> extends Omit<AccountScoped<T>, 'delete'> {
  /** Sets deleted_at (and updated_at) to `now`; the row's id, or undefined when it is gone already. */
  markDeleted(db: Kysely<DB>, accountId: string, id: string, now: Date): Promise<{ id: string } | undefined>;
}

// Inside, statements are typed against a stand-in table `t` with just the columns they name, so
// Kysely can check them for any table; at run time they name the real table. The signatures above
// give callers the real table's types (hence the implementation returns `unknown`).
interface ScopedColumns {
  id: string;
  account_id: string;
  deleted_at: Date | null;
  updated_at: Date;
}
type Loose = Kysely<{ t: ScopedColumns }>;

export function accountScoped<T extends AccountTable>(table: T): AccountScoped<T>;
export function accountScoped<T extends SoftDeleteTable>(
  table: T,
  options: { softDelete: true },
): SoftDeleteScoped<T>;
export function accountScoped(table: AccountTable, options: { softDelete?: boolean } = {}): unknown {
  const live = options.softDelete === true;
  const loose = (db: Kysely<DB>) => db as unknown as Loose;
  const name = table as unknown as 't';
  const column = <C extends keyof ScopedColumns>(col: C) => `${table}.${col}` as `t.${C}`;

  function query(db: Kysely<DB>, accountId: string) {
    let selected = loose(db).selectFrom(name).selectAll(name).where(column('account_id'), '=', accountId);
    if (live) selected = selected.where(column('deleted_at'), 'is', null);
    return selected;
  }

  function update(db: Kysely<DB>, accountId: string, id: string, values: Partial<ScopedColumns>) {
    let updated = loose(db)
      .updateTable(name)
      .set(values)
      .where(column('account_id'), '=', accountId)
      .where(column('id'), '=', id);
    if (live) updated = updated.where(column('deleted_at'), 'is', null);
    return updated;
  }

  // The statements every authenticated list and retrieve runs, compiled once (compiled-once.ts).
  const listWhole = compiledOnce((db: Kysely<DB>, accountId: string) =>
    keysetRows(query(db, accountId), table, null, null),
  );
  const listFirstPage = compiledOnce((db: Kysely<DB>, accountId: string, rowLimit: number) =>
    keysetRows(query(db, accountId), table, null, rowLimit),
  );
  const listPageAfter = compiledOnce(
    (db: Kysely<DB>, accountId: string, rowLimit: number, createdAt: string, id: string | number) =>
      keysetRows(query(db, accountId), table, { createdAt, id }, rowLimit),
  );
  const findOne = compiledOnce((db: Kysely<DB>, accountId: string, id: string) =>
    query(db, accountId).where(column('id'), '=', id),
  );

  type LooseQuery = ReturnType<typeof query>;
  const common = {
    query,
    list(
      db: Kysely<DB>,
      accountId: string,
      page: PageRequest | null,
      refine?: (query: LooseQuery) => LooseQuery,
    ) {
      if (refine) return newestFirst(refine(query(db, accountId)), page, table).execute();
      if (!page) return listWhole(db, accountId);
      const rowLimit = page.limit + 1;
      if (!page.after) return listFirstPage(db, accountId, rowLimit);
      return listPageAfter(db, accountId, rowLimit, page.after.createdAt, page.after.id);
    },
    async find(db: Kysely<DB>, accountId: string, id: string, { forUpdate = false } = {}) {
      if (!forUpdate) return (await findOne(db, accountId, id))[0];
      return query(db, accountId).where(column('id'), '=', id).forUpdate().executeTakeFirst();
    },
    async findMany(db: Kysely<DB>, accountId: string, ids: string[]) {
      if (ids.length === 0) return [];
      return query(db, accountId).where(column('id'), 'in', ids).execute();
    },
    update(db: Kysely<DB>, accountId: string, id: string, values: Partial<ScopedColumns>) {
      return update(db, accountId, id, values).returningAll().executeTakeFirst();
    },
  };
  if (live) {
    return {
      ...common,
      markDeleted(db: Kysely<DB>, accountId: string, id: string, now: Date) {
        return update(db, accountId, id, { deleted_at: now, updated_at: now })
          .returning(column('id'))
          .executeTakeFirst();
      },
    };
  }
  return {
    ...common,
    delete(db: Kysely<DB>, accountId: string, id: string) {
      return loose(db)
        .deleteFrom(name)
        .where(column('account_id'), '=', accountId)
        .where(column('id'), '=', id)
        .returning(column('id'))
        .executeTakeFirst();
    },
  };
}
