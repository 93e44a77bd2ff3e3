import type { Generated } from 'kysely';
import type { Timestamp } from '../../core/db/schema.ts';

/** Memories (migrations 0017, 0018): one fact per row in a container named by its tag. */
export interface MemoryTables {
  memories: {
    id: string;
    account_id: string;
    user_memory_tag: string;
    content: string;
    /** SHA-256 of the normalised content: the duplicate check within a tag. */
    content_key: string;
    external_id: string | null;
    scenario_id: string | null;
    source: 'api' | 'meeting';
    source_meeting_id: string | null;
    source_scenario_id: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    /** Insertion order: breaks ties between memories created in the same instant. */
    seq: Generated<number>;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends MemoryTables {}
}
