import type { DraftRow } from './repository.ts';

/** A draft as the API shows it: attachments without their storage keys. */
export const toDraft = (row: DraftRow) => ({
  inbox_id: row.inbox_id,
  draft_id: row.id,
  client_id: row.client_id,
  to: row.to,
  cc: row.cc,
  bcc: row.bcc,
  reply_to: row.reply_to,
  subject: row.subject,
  text: row.text,
  html: row.html,
  attachments: row.attachments.map(({ storage_key: _key, ...rest }) => rest),
  in_reply_to: row.in_reply_to,
  references: row.references,
  labels: row.labels,
  headers: row.headers,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
