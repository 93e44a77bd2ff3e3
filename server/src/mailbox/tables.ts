import type { ColumnType, Generated } from 'kysely';
import type { Json, Timestamp } from '../core/db/schema.ts';

/** A nullable timestamp column written by the service. */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type MessageStatus =
  | 'received'
  | 'blocked'
  | 'scheduled'
  | 'sending'
  | 'sent'
  | 'rejected'
  | 'cancelled';

/** One recipient of an outbound message and what became of it (`mailbox_messages.recipients`). */
export interface OutboundRecipient {
  address: string;
  type: 'to' | 'cc' | 'bcc';
  /** `delivered`: to an inbox of this service; `sent`: accepted by the relay; `deferred`: will be retried. */
  status: 'pending' | 'sent' | 'delivered' | 'deferred' | 'rejected';
  attempts: number;
  last_response: string | null;
  updated_at: string;
}

type JsonDefault<T> = ColumnType<T, string | undefined, string>;

export interface MailboxTables {
  mailbox_namespaces: { id: string; account_id: string | null; name: string; created_at: Timestamp };
  mailbox_pods: {
    id: string;
    namespace_id: string;
    name: string;
    client_id: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  mailbox_domains: {
    id: string;
    namespace_id: string;
    pod_id: string | null;
    status: 'pending' | 'verified' | 'failed';
    verification_token: string;
    dkim_selector: string;
    dkim_public_key: string;
    dkim_private_key_sealed: string;
    last_checked_at: NullableTimestamp;
    last_error: string | null;
    verified_at: NullableTimestamp;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  mailbox_inboxes: {
    id: string;
    namespace_id: string;
    pod_id: string | null;
    username: string;
    domain: string;
    display_name: string | null;
    client_id: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  mailbox_threads: {
    id: string;
    inbox_id: string;
    subject: string;
    normalized_subject: string;
    senders: JsonDefault<string[]>;
    recipients: JsonDefault<string[]>;
    participants: JsonDefault<string[]>;
    labels: JsonDefault<string[]>;
    preview: string;
    message_count: number;
    size: number;
    last_message_id: string | null;
    timestamp: Timestamp;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  mailbox_messages: {
    id: string;
    inbox_id: string;
    message_id: string;
    thread_id: string | null;
    direction: 'inbound' | 'outbound';
    status: MessageStatus;
    from_address: string;
    from: string;
    reply_to: JsonDefault<string[]>;
    to: JsonDefault<string[]>;
    cc: JsonDefault<string[]>;
    bcc: JsonDefault<string[]>;
    subject: string;
    normalized_subject: string;
    preview: string;
    text: string | null;
    html: string | null;
    in_reply_to: string | null;
    references: JsonDefault<string[]>;
    labels: JsonDefault<string[]>;
    headers: JsonDefault<Record<string, string>>;
    /** True when `headers` left something out (see headerMap). */
    headers_truncated: Generated<boolean>;
    matched_by: 'in_reply_to' | 'references' | 'quote' | 'subject' | 'new' | null;
    auto_reply: boolean;
    auto_reply_reason: string | null;
    /** The new part of a reply, without quoted history and signature; null before migration 0054. */
    extracted_text: string | null;
    extracted_html: string | null;
    rejection_reason: string | null;
    raw_key: string | null;
    size: number;
    timestamp: Timestamp;
    created_at: Timestamp;
    updated_at: Timestamp;
    recipients: JsonDefault<OutboundRecipient[]>;
    send_at: NullableTimestamp;
  };
  mailbox_attachments: {
    id: string;
    message_row_id: string;
    filename: string | null;
    content_type: string;
    content_disposition: string | null;
    content_id: string | null;
    size: number;
    storage_key: string;
    /** Order within the message (0, 1, …), as written or as the MIME parts came. */
    position: number;
    created_at: Timestamp;
  };
  mailbox_drafts: {
    id: string;
    inbox_id: string;
    client_id: string | null;
    to: JsonDefault<string[]>;
    cc: JsonDefault<string[]>;
    bcc: JsonDefault<string[]>;
    reply_to: JsonDefault<string[]>;
    subject: string;
    text: string | null;
    html: string | null;
    attachments: JsonDefault<DraftAttachment[]>;
    in_reply_to: string | null;
    references: JsonDefault<string[]>;
    labels: JsonDefault<string[]>;
    headers: JsonDefault<Record<string, string>>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  /** Allow and block list entries; the level is the inbox (inbox_id), else the pod (pod_id), else the namespace. */
  mailbox_list_entries: {
    id: string;
    namespace_id: string;
    pod_id: string | null;
    inbox_id: string | null;
    list: 'allow' | 'block';
    direction: 'receive' | 'send';
    kind: 'address' | 'domain';
    value: string;
    reason: string | null;
    created_at: Timestamp;
  };
  mailbox_api_keys: {
    id: string;
    namespace_id: string;
    name: string;
    secret_prefix: string;
    lookup_hash: string;
    inbox_ids: JsonDefault<string[]>;
    pod_id: string | null;
    scopes: JsonDefault<string[]>;
    last_used_at: NullableTimestamp;
    revoked_at: NullableTimestamp;
    created_at: Timestamp;
  };
  mailbox_webhooks: {
    id: string;
    namespace_id: string | null;
    pod_id: string | null;
    inbox_ids: Json<string[] | null> | null;
    url: string;
    event_types: Json<string[]>;
    secret_sealed: string;
    enabled: boolean;
    client_id: string | null;
    /** The scoped key that created (or last re-enabled) it; null for the admin and platform keys. */
    created_by_key_id: string | null;
    /** Why the service disabled it (`api key revoked`); null when enabled or paused by a caller. */
    disabled_reason: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  mailbox_events: {
    id: string;
    seq: Generated<number>;
    namespace_id: string;
    pod_id: string | null;
    inbox_id: string | null;
    event_type: string;
    payload: Json<Record<string, unknown>>;
    created_at: Timestamp;
  };
}

/** A draft's attachment: the bytes live in storage, the row keeps where. */
export interface DraftAttachment {
  filename: string | null;
  content_type: string;
  size: number;
  storage_key: string;
  content_id: string | null;
  inline: boolean;
}

declare module '../core/db/schema.ts' {
  interface DB extends MailboxTables {}
}
