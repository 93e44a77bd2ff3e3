import type { ColumnType, Generated } from 'kysely';
import type { NullableJson, Timestamp } from '../../core/db/schema.ts';

/** A jsonb column with a database default: optional on insert, written as a JSON string. */
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;

export type Demeanor =
  | 'friendly'
  | 'analytical'
  | 'empathetic'
  | 'curious'
  | 'enthusiastic'
  | 'critical'
  | 'casual'
  | 'blunt'
  | 'assertive'
  | 'neutral';
export type Gender = 'male' | 'female';
export type ScenarioType = 'interview' | 'roleplay' | 'upskill' | 'brainstorm';
export type DefaultKind = 'plus_one' | 'requirement_gathering';
/** Who answers when the reply provider fails after its retry (docs/authoring.md, "Meeting controls"). */
export type AgentFallback = 'auto' | 'offline' | 'apology';

/** Settings of the meeting room (scenario `meeting_controls`). */
export interface MeetingControls {
  allow_participant_end: boolean;
  idle_timeout_seconds: number;
  show_timer: boolean;
  agent_fallback: AgentFallback;
  /** After the call, the participant's meeting page shows their results (docs/room.md, "Results"). */
  share_results_with_participant: boolean;
}

/** Tables of personas, goals and scenarios (migration 0010). */
export interface AuthoringTables {
  personas: {
    id: string;
    account_id: string;
    membership_id: string | null;
    name: string;
    job_title: string;
    demeanor: Generated<Demeanor>;
    background: string | null;
    gender: Gender | null;
    voice_id: string;
    avatar_id: string | null;
    avatar_url: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  scenarios: {
    id: string;
    account_id: string;
    membership_id: string | null;
    name: string;
    type: ScenarioType;
    persona_id: string | null;
    prompt: Generated<string>;
    description: string | null;
    call_duration: Generated<number>;
    welcome_message: string;
    welcome_message_generated: Generated<boolean>;
    visibility: Generated<'public' | 'restricted'>;
    /** Read-only marker of the two scenarios seeded into every new account. */
    default_kind: DefaultKind | null;
    custom_agent_enabled: Generated<boolean>;
    custom_agent_base_url: string | null;
    /** Sealed with SecretBox; open it only to call the customer's endpoint. */
    custom_agent_api_key: string | null;
    custom_agent_model: Generated<string>;
    custom_agent_timeout_s: Generated<number>;
    custom_agent_extra_headers: JsonWithDefault<Record<string, string>>;
    meeting_controls: JsonWithDefault<Partial<MeetingControls>>;
    recording_enabled: Generated<boolean>;
    recording_consent_required: Generated<boolean>;
    memory_enabled: Generated<boolean>;
    notification_emails: JsonWithDefault<string[]>;
    language: Generated<string>;
    /** The legacy per-scenario webhook (session-options `webhook_url`), sent until the sunset. */
    legacy_webhook_url: string | null;
    /** Its `whsec_` signing secret, sealed with SecretBox. */
    legacy_webhook_secret: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    /** Soft delete: a deleted scenario answers 404 but meetings keep pointing at it. */
    deleted_at: Timestamp | null;
  };
  goals: {
    id: string;
    account_id: string;
    membership_id: string | null;
    name: string;
    description: string | null;
    instructions: string | null;
    metrics: NullableJson<Record<string, unknown>>;
    scenario_id: string | null;
    active: Generated<boolean>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  scenario_goals: {
    scenario_id: string;
    goal_id: string;
    account_id: string;
    position: Generated<number>;
    created_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends AuthoringTables {}
}
