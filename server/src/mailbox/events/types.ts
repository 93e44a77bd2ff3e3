/** Event types that fire. */
export const FIRING_EVENT_TYPES = [
  'message.received',
  'message.received.blocked',
  'message.sent',
  'message.rejected',
  'message.deleted',
  'thread.deleted',
  'draft.created',
  'draft.updated',
  'domain.verified',
] as const;

/** Accepted in subscriptions for compatibility, never fired: no logic may wait for them. */
export const SILENT_EVENT_TYPES = ['message.delivered', 'message.bounced', 'message.complained'] as const;

export const EVENT_TYPES = [...FIRING_EVENT_TYPES, ...SILENT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type FiringEventType = (typeof FIRING_EVENT_TYPES)[number];

/** Where an event happened; decides which webhooks, sockets and keys may see it. */
export interface EventScope {
  namespace_id: string;
  pod_id: string | null;
  inbox_id: string | null;
}

/** The scope of an event about an inbox's mail. */
export function scopeOf(inbox: { id: string; namespace_id: string; pod_id: string | null }): EventScope {
  return { namespace_id: inbox.namespace_id, pod_id: inbox.pod_id, inbox_id: inbox.id };
}

/** An event as stored, fanned out to sockets and sent to webhooks. */
export interface MailboxEvent extends EventScope {
  event_id: string;
  event_type: FiringEventType;
  created_at: Date;
  /** The webhook body and WebSocket frame: `{ type: 'event', event_type, event_id, inbox_id, created_at, … }`. */
  payload: Record<string, unknown>;
}
