import type { Timestamp } from '../../core/db/schema.ts';

/** Guardrails and their per-scenario attachments (migration 0015). */
export interface GuardrailTables {
  guardrails: {
    id: string;
    account_id: string;
    membership_id: string | null;
    guardrail_name: string;
    /** The prompt, sealed with the secret box: never stored in clear. */
    prompt_sealed: string;
    active: boolean;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  scenario_guardrails: {
    account_id: string;
    scenario_id: string;
    guardrail_id: string;
    active: boolean;
    position: number;
    attached_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends GuardrailTables {}
}
