import type { Kysely } from 'kysely';
import type { DB } from '../core/db/schema.ts';

/** The database handle or an open transaction: repositories take either, services decide. */
export type Executor = Kysely<DB>;

export const json = (value: unknown): string => JSON.stringify(value);
