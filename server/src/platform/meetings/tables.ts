import type { Generated } from 'kysely';
import type { Timestamp } from '../../core/db/schema.ts';

export type MeetingStatus = 'created' | 'active' | 'ended';
export type AgentProviderKind = 'custom_agent' | 'llm' | 'offline';
export type AnalysisStatus = 'not_started' | 'processing' | 'completed' | 'failed';

/** Meetings (migration 0030). The live-session engine extends this table. */
export interface MeetingTables {
  meetings: {
    id: string;
    account_id: string;
    membership_id: string | null;
    scenario_id: string;
    person_name: string | null;
    /** The workspace's person this meeting belongs to (docs/people.md), when known. */
    person_id: Generated<string | null>;
    /** The assigned practice this meeting was started for (docs/assignments.md). */
    assignment_person_id: Generated<string | null>;
    meeting_type: Generated<string>;
    note_context: string | null;
    user_memory_tag: string | null;
    status: Generated<MeetingStatus>;
    analysis_status: Generated<AnalysisStatus>;
    summary: string | null;
    room_token_hash: string | null;
    started_at: Timestamp | null;
    ended_at: Timestamp | null;
    duration_seconds: number | null;
    end_reason: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    // Live-session columns (migration 0032).
    agent_provider: Generated<AgentProviderKind>;
    memory_tag: string | null;
    deadline_at: Timestamp | null;
    live_seen_at: Timestamp | null;
    agent_prompt_sealed: string | null;
    recording_expected: Generated<boolean>;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends MeetingTables {}
}
