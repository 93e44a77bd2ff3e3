import type { Generated } from 'kysely';
import type { NullableJson, Timestamp } from '../../core/db/schema.ts';

export type Speaker = 'user' | 'agent';
/** Who spoke a persona sentence (migration 0033; see fallback.ts). */
export type SentenceProvider = 'welcome' | 'custom_agent' | 'llm' | 'offline' | 'apology';
/** What cut a persona reply: the participant (barge-in, a newer utterance) or a hand-over (shutdown). */
export type SentenceCut = 'participant' | 'handover';

/** Participants, transcripts, sentences, recordings and usage (migration 0032). */
export interface LiveTables {
  meeting_participants: {
    id: string;
    meeting_id: string;
    account_id: string;
    name: string | null;
    email: string | null;
    role: Generated<string>;
    source: Generated<string>;
    is_self: Generated<boolean>;
    joined_at: Timestamp | null;
    left_at: Timestamp | null;
    recording_consent: boolean | null;
    client_info: NullableJson<Record<string, unknown>>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  transcripts: {
    id: Generated<number>;
    meeting_id: string;
    account_id: string;
    scenario_id: string;
    status: Generated<'in_progress' | 'completed'>;
    language: Generated<string>;
    content: string | null;
    sentence_count: Generated<number>;
    created_at: Timestamp;
    updated_at: Timestamp;
    completed_at: Timestamp | null;
  };
  transcript_sentences: {
    id: Generated<number>;
    transcript_id: number;
    meeting_id: string;
    account_id: string;
    speaker: Speaker;
    message: string;
    start_ms: number;
    end_ms: number | null;
    /** `voice` or `typed` as the client reported it; null when unknown (migration 0042). */
    input: Generated<'voice' | 'typed' | null>;
    sequence_number: number;
    /** Persona sentences only: who spoke it (null for the participant's). */
    provider: Generated<SentenceProvider | null>;
    /** The room's id for a participant utterance: each is stored once (migration 0065). */
    client_id: Generated<string | null>;
    /** A persona reply that was cut, and by what (migration 0065). */
    cut: Generated<SentenceCut | null>;
    created_at: Timestamp;
  };
  recordings: {
    id: string;
    meeting_id: string;
    account_id: string;
    scenario_id: string;
    status: 'uploaded' | 'ready';
    media_key: string | null;
    media_content_type: string | null;
    media_size: number | null;
    thumbnail_key: string | null;
    thumbnail_content_type: string | null;
    thumbnail_size: number | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    ready_at: Timestamp | null;
  };
  meeting_usage: {
    meeting_id: string;
    account_id: string;
    provider: string;
    model: string | null;
    session_seconds: Generated<number>;
    prompt_tokens: Generated<number>;
    completion_tokens: Generated<number>;
    turns: Generated<number>;
    /** Completed persona turns per answering provider (migration 0033). */
    custom_agent_turns: Generated<number>;
    llm_turns: Generated<number>;
    offline_turns: Generated<number>;
    apology_turns: Generated<number>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends LiveTables {}
}
