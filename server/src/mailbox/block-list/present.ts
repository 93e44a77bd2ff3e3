import type { BlockEntryRow } from './repository.ts';

export const toEntry = (row: BlockEntryRow) => ({
  entry_id: row.id,
  inbox_id: row.inbox_id,
  kind: row.kind,
  value: row.value,
  reason: row.reason,
  created_at: row.created_at.toISOString(),
});
