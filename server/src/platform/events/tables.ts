import type { Json, Timestamp } from '../../core/db/schema.ts';

/** Tables of platform events and webhook endpoints (migration 0021). */
export interface PlatformEventTables {
  platform_events: {
    id: string;
    account_id: string;
    event: string;
    data: Json<Record<string, unknown>>;
    created_at: Timestamp;
  };
  webhook_endpoints: {
    id: string;
    account_id: string;
    url: string;
    description: string;
    signing_secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_secret_expires_at: Timestamp | null;
    subscribed_events: Json<string[]>;
    enabled: boolean;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends PlatformEventTables {}
}
