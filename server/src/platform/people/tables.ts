import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../core/db/schema.ts';

/** People of a workspace (migration 0067); meetings link to them by `person_id`. */
export interface PeopleTables {
  people: {
    id: string;
    account_id: string;
    name: string;
    email: string | null;
    external_id: string | null;
    /** The groups they are in (migration 0071): a JSON array of names, written as a JSON string. */
    groups: ColumnType<string[], string | undefined, string>;
    /** Made by a visitor of an open practice link (migration 0069). */
    from_open_link: Generated<boolean>;
    /** The address its visitor typed (self-declared: never matched as `email`). */
    open_link_email: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends PeopleTables {}
}
