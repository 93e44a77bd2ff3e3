-- Mail an agent can read (issue 19): the new part of a reply without quoted history and
-- signature, why a message counts as an auto-reply, whether `headers` left anything out, and
-- the `quote` threading layer (a reply that only quotes the message it answers).
-- Rows stored before this migration keep null extracted_* and auto_reply_reason: extraction
-- runs in the service (not SQL), and re-parsing every stored message at upgrade is not worth
-- a migration that takes minutes on a large mailbox (docs/mailbox.md, "Extracted reply text").
alter table mailbox_messages add column extracted_text text;
alter table mailbox_messages add column extracted_html text;
alter table mailbox_messages add column auto_reply_reason text;
alter table mailbox_messages add column headers_truncated boolean not null default false;

alter table mailbox_messages drop constraint if exists mailbox_messages_matched_by_check;
alter table mailbox_messages add constraint mailbox_messages_matched_by_check
  check (matched_by in ('in_reply_to', 'references', 'quote', 'subject', 'new'));

-- The `quote` layer looks for recent messages of an inbox from the quoted sender.
create index mailbox_messages_sender_idx on mailbox_messages (inbox_id, from_address, timestamp desc);
