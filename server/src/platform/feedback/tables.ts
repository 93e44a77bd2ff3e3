import type { Json, Timestamp } from '../../core/db/schema.ts';

/** Post-call feedback, one row per meeting (migration 0030). */
export interface FeedbackTables {
  meeting_feedback: {
    meeting_id: string;
    account_id: string;
    membership_id: string | null;
    rating: 'good' | 'had_issues';
    video_issues: Json<string[]>;
    agent_issues: Json<string[]>;
    /** The free-text comment, sealed with the secret box. */
    comment_sealed: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends FeedbackTables {}
}
