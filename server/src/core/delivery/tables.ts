import type { Generated } from 'kysely';
import type { Timestamp } from '../db/schema.ts';

export const DELIVERY_STATUSES = ['pending', 'paused', 'succeeded', 'failed', 'dead', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Tables of the generic delivery engine (migration 0020). */
export interface DeliveryTables {
  deliveries: {
    id: string;
    seq: Generated<number>;
    channel: string;
    tenant_id: string;
    endpoint_id: string | null;
    target_url: string | null;
    target_secret_sealed: string | null;
    event_id: string;
    event_type: string;
    payload: string;
    status: DeliveryStatus;
    attempt_count: Generated<number>;
    next_attempt_at: Timestamp | null;
    locked_until: Timestamp | null;
    claim_token: string | null;
    manual_attempt: Generated<boolean>;
    last_status_code: number | null;
    last_error: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  delivery_attempts: {
    id: string;
    delivery_id: string;
    channel: string;
    endpoint_id: string | null;
    attempt_number: number;
    manual: Generated<boolean>;
    url: string;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    response_excerpt: string | null;
    outcome: string;
    next_retry_at: Timestamp | null;
    created_at: Timestamp;
  };
}
