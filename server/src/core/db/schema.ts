import type { ColumnType, Generated } from 'kysely';
import type { DeliveryTables } from '../delivery/tables.ts';
import type { JobTables } from '../jobs/tables.ts';

/**
 * Table types for the query builder. Each area declares its own tables beside its code and
 * they are joined here, so adding an area touches one line of this file.
 */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type Json<T = unknown> = ColumnType<T, string, string>;
/** A jsonb column that may be null: written as a JSON string or null. */
export type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export interface FoundationTables {
  accounts: {
    id: string;
    name: string;
    created_at: Timestamp;
    // Migration 0058: days ended meetings are kept; null keeps them forever.
    meeting_retention_days: number | null;
  };
  users: {
    id: string;
    email: string;
    name: string;
    password_hash: string | null;
    external_issuer: string | null;
    external_subject: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  memberships: { id: string; account_id: string; user_id: string; role: string; created_at: Timestamp };
  api_secrets: {
    id: Generated<number>;
    account_id: string;
    membership_id: string;
    name: string;
    secret_prefix: string;
    secret_hash: string;
    lookup_hash: string;
    scopes: NullableJson<string[]>;
    is_active: Generated<boolean>;
    last_used_at: Date | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  idempotency_keys: {
    scope: string;
    key: string;
    request_hash: string;
    state: 'running' | 'done';
    response_status: number | null;
    response_body: string | null;
    response_headers: NullableJson<Record<string, string>>;
    locked_at: Timestamp;
    expires_at: Timestamp;
  };
  signing_keys: {
    kid: string;
    algorithm: string;
    private_jwk: string;
    public_jwk: Json<Record<string, unknown>>;
    created_at: Timestamp;
  };
}

/**
 * Every table the query builder knows. The kernel's own tables are listed here; each feature module
 * adds its own from its `tables.ts` (`declare module '…/core/db/schema.ts' { interface DB extends
 * XTables {} }`), so core/ names no feature module.
 */
export interface DB extends FoundationTables, DeliveryTables, JobTables {}
