import type { Timestamp } from '../../core/db/schema.ts';

/** Invitations and the audit log (migration 0066); members are the foundation's `memberships`. */
export interface TeamTables {
  invitations: {
    id: string;
    account_id: string;
    email: string;
    role: string;
    /** SHA-256 (hex) of the link's token; the token itself is never stored. */
    token_hash: string;
    invited_by: string | null;
    emailed: boolean;
    created_at: Timestamp;
    expires_at: Timestamp;
    accepted_at: Date | null;
    revoked_at: Date | null;
  };
  audit_events: {
    id: string;
    account_id: string;
    actor_membership_id: string | null;
    actor_kind: 'user' | 'api_key' | 'invitation';
    actor_name: string;
    action: string;
    target: string;
    details: unknown;
    created_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends TeamTables {}
}
