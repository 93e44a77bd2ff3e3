import type { InboxRow } from './repository.ts';

export const toInbox = (row: InboxRow) => ({
  inbox_id: row.id,
  pod_id: row.pod_id,
  display_name: row.display_name,
  client_id: row.client_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
