import type { Timestamp } from '../../core/db/schema.ts';

/** The coach's comment on a meeting (migration 0070). */
export interface ReportTables {
  meeting_comments: {
    meeting_id: string;
    account_id: string;
    text: string;
    membership_id: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends ReportTables {}
}
