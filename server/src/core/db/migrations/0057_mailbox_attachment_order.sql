-- A message's attachments keep the order they were written in: they share one created_at, and
-- their ids are random, so nothing else orders them.
alter table mailbox_attachments add column position integer not null default 0;
