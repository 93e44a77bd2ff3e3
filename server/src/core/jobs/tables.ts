import type { Json, Timestamp } from '../db/schema.ts';

export type JobState = 'pending' | 'running' | 'succeeded' | 'failed';

/** The durable job queue (migration 0031). */
export interface JobTables {
  jobs: {
    id: string;
    name: string;
    payload: Json<unknown>;
    state: JobState;
    attempts: number;
    max_attempts: number;
    run_at: Timestamp;
    locked_until: Timestamp | null;
    claim_token: string | null;
    dedupe_key: string | null;
    last_error: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    finished_at: Timestamp | null;
  };
}
