import type { Kysely } from 'kysely';

type DirectQuery = (sql: string, parameters: unknown[]) => Promise<unknown[]>;

const directQueries = new WeakMap<Kysely<never>, DirectQuery>();

/**
 * Lets statements compiled once (compiled-once.ts) run on `db` through its pool directly, past
 * Kysely's executor, whose layers of connection handling cost a hot read several microseconds
 * and a dozen turns of the microtask queue (bench/api-auth). Only for a handle any of whose
 * pooled connections may run any statement: PostgreSQL's pool. Never a transaction (its statements
 * belong on its connection) nor PGlite (one connection, which transactions hold while open).
 */
export function allowDirectQueries<DB>(db: Kysely<DB>, query: DirectQuery): void {
  directQueries.set(db as unknown as Kysely<never>, query);
}

/** The direct path of `db`, when it has one. */
export function directQueryOf<DB>(db: Kysely<DB>): DirectQuery | undefined {
  return directQueries.get(db as unknown as Kysely<never>);
}
