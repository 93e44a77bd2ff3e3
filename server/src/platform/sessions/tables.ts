import type { Timestamp } from '../../core/db/schema.ts';

/** Dashboard sessions and password resets (migrations 0061, 0062). */
export interface SessionTables {
  user_sessions: {
    /** SHA-256 (hex) of the cookie's token; the token itself is never stored. */
    token_hash: string;
    user_id: string;
    membership_id: string;
    account_id: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    last_seen_at: Timestamp;
  };
  password_resets: {
    token_hash: string;
    user_id: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    used_at: Date | null;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends SessionTables {}
}
