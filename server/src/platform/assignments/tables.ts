import type { Timestamp } from '../../core/db/schema.ts';

/** Assigned practice (migration 0068); meetings record `assignment_person_id`. Open links (0069). */
export interface AssignmentTables {
  assignments: {
    id: string;
    account_id: string;
    scenario_id: string;
    due_at: Date | null;
    max_attempts: number;
    note: string | null;
    created_by: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  assignment_people: {
    id: string;
    assignment_id: string;
    account_id: string;
    person_id: string;
    token_hash: string;
    token_sealed: string;
    completed_at: Date | null;
    completed_meeting_id: string | null;
    /** When their link was e-mailed (migration 0069). */
    emailed_at: Date | null;
    created_at: Timestamp;
  };
  /** A public scenario's reusable practice link (migration 0069). */
  scenario_practice_links: {
    scenario_id: string;
    account_id: string;
    token_hash: string;
    token_sealed: string;
    created_by: string | null;
    created_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends AssignmentTables {}
}
