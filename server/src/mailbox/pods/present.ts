import type { PodRow } from './repository.ts';

export const toPod = (row: PodRow) => ({
  pod_id: row.id,
  name: row.name,
  client_id: row.client_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
