import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import type { DB } from '../../core/db/schema.ts';

export type MemoryRow = Selectable<DB['memories']>;

export interface TagRow {
  user_memory_tag: string;
  memory_count: number;
  last_memory_at: Date;
  last_activity_at: Date;
}

/** Insert batches stay well below PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 500;

const memories = accountScoped('memories');

export const memoryRepository = {
  async existingKeys(db: Kysely<DB>, accountId: string, tag: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db
      .selectFrom('memories')
      .select('content_key')
      .where('account_id', '=', accountId)
      .where('user_memory_tag', '=', tag)
      .where('content_key', 'in', keys)
      .execute();
    return new Set(rows.map((row) => row.content_key));
  },

  /** Inserts in order; a fact another writer stored meanwhile is silently left out (unique index). */
  async insertMany(db: Kysely<DB>, rows: Insertable<DB['memories']>[]): Promise<MemoryRow[]> {
    const inserted: MemoryRow[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const result = await db
        .insertInto('memories')
        .values(chunk)
        .onConflict((oc) => oc.columns(['account_id', 'user_memory_tag', 'content_key']).doNothing())
        .returningAll()
        .execute();
      inserted.push(...result);
    }
    return inserted.sort((a, b) => Number(a.seq) - Number(b.seq));
  },

  /**
   * Newest first: created_at, then insertion order (seq), optionally only those after a position
   * in that order (keyset paging on the memories_*_idx indexes).
   */
  list(
    db: Kysely<DB>,
    accountId: string,
    tag: string | null,
    limit: number,
    after: { createdAt: string; seq: string } | null = null,
  ) {
    let query = memories.query(db, accountId);
    if (tag !== null) query = query.where('user_memory_tag', '=', tag);
    if (after) {
      query = query.where(
        sql<boolean>`(created_at, seq) < (${after.createdAt}::timestamptz, ${after.seq}::bigint)`,
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  },

  find: memories.find,

  findByKey(db: Kysely<DB>, accountId: string, tag: string, key: string) {
    return db
      .selectFrom('memories')
      .select('id')
      .where('account_id', '=', accountId)
      .where('user_memory_tag', '=', tag)
      .where('content_key', '=', key)
      .executeTakeFirst();
  },

  update: memories.update,

  delete: memories.delete,

  async deleteTag(db: Kysely<DB>, accountId: string, tag: string): Promise<number> {
    const result = await db
      .deleteFrom('memories')
      .where('account_id', '=', accountId)
      .where('user_memory_tag', '=', tag)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /**
   * Containers holding at least one memory, most recently written first (then tag, descending),
   * optionally only those with a memory of one scenario, optionally one page after `after`.
   */
  tags(
    db: Kysely<DB>,
    accountId: string,
    options: {
      tag?: string;
      scenarioId?: string;
      after?: { lastActivityAt: string; tag: string } | null;
      limit?: number;
    } = {},
  ): Promise<TagRow[]> {
    let grouped = db
      .selectFrom('memories')
      .select([
        'user_memory_tag',
        sql<number>`count(*)::int`.as('memory_count'),
        sql<Date>`max(created_at)`.as('last_memory_at'),
        sql<Date>`max(updated_at)`.as('last_activity_at'),
      ])
      .where('account_id', '=', accountId)
      .groupBy('user_memory_tag');
    if (options.tag !== undefined) grouped = grouped.where('user_memory_tag', '=', options.tag);
    if (options.scenarioId !== undefined) {
      const scenarioId = options.scenarioId;
      grouped = grouped.where('user_memory_tag', 'in', (eb) =>
        eb
          .selectFrom('memories')
          .select('user_memory_tag')
          .where('account_id', '=', accountId)
          .where('scenario_id', '=', scenarioId),
      );
    }
    let query = db.selectFrom(grouped.as('t')).selectAll();
    if (options.after) {
      const { lastActivityAt, tag } = options.after;
      query = query.where(
        sql<boolean>`(t.last_activity_at, t.user_memory_tag) < (${lastActivityAt}::timestamptz, ${tag})`,
      );
    }
    query = query.orderBy('t.last_activity_at', 'desc').orderBy('t.user_memory_tag', 'desc');
    if (options.limit !== undefined) query = query.limit(options.limit);
    return query.execute() as Promise<TagRow[]>;
  },
};
