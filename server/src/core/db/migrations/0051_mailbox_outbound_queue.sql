-- Outbound mail through the durable job queue (server/src/mailbox/messages/send-job.ts): a send
-- is stored first (status 'sending', or 'scheduled' until send_at) with a queued mailbox.send job,
-- and its recipients' outcomes are recorded one by one as the worker delivers it.
alter table mailbox_messages drop constraint mailbox_messages_status_check;
alter table mailbox_messages add constraint mailbox_messages_status_check
  check (status in ('received', 'blocked', 'scheduled', 'sending', 'sent', 'rejected', 'cancelled'));
-- One entry per recipient of an outbound message: { address, type, status, attempts,
-- last_response, updated_at }; empty for inbound mail.
alter table mailbox_messages add column recipients jsonb not null default '[]'::jsonb;
-- When a scheduled message goes; null when it was sent at once.
alter table mailbox_messages add column send_at timestamptz(3);
