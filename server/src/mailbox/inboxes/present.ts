import type { InboxRow } from './repository.ts';

/**
 * An inbox outside any pod has no `pod_id` (the field is left out rather than null: the AgentMail
 * SDK types it as a string, and its parser warns about null but accepts an absent field).
 */
export const toInbox = (row: InboxRow) => ({
  inbox_id: row.id,
  email: row.id,
  ...(row.pod_id !== null ? { pod_id: row.pod_id } : {}),
  display_name: row.display_name,
  client_id: row.client_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
