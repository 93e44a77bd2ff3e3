import type { Json, Timestamp } from '../../core/db/schema.ts';

/** Custom functions (tools) and the scenarios they are attached to (migration 0016). */
export interface CustomFunctionTables {
  custom_functions: {
    id: string;
    account_id: string;
    membership_id: string | null;
    name: string;
    description: string;
    parameters_schema: Json<Record<string, unknown>>;
    execution_mode: 'webhook';
    webhook_url: string;
    /** The signing secret, sealed with the secret box. */
    webhook_secret_sealed: string;
    /** Last four characters of the secret, so a masked read can still tell secrets apart. */
    webhook_secret_last4: string;
    timeout_ms: number;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  scenario_custom_functions: {
    account_id: string;
    scenario_id: string;
    function_id: string;
    attached_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends CustomFunctionTables {}
}
