-- Custom headers of a draft (the allow-listed ones a send takes), kept until the draft is sent.
alter table mailbox_drafts add column headers jsonb not null default '{}';
