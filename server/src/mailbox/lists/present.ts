import { type ListEntryRow, levelOf } from './policy.ts';

export const toEntry = (row: ListEntryRow) => ({
  entry_id: row.id,
  list: row.list,
  direction: row.direction,
  scope: levelOf(row),
  pod_id: row.pod_id,
  inbox_id: row.inbox_id,
  kind: row.kind,
  value: row.value,
  reason: row.reason,
  created_at: row.created_at.toISOString(),
});
