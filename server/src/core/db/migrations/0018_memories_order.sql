-- Memories written in the same instant (one import) keep their order: newest first is
-- created_at, then insertion order (seq), rather than a random tie-break on the UUID.
alter table memories add column seq bigint generated always as identity;
drop index memories_tag_idx;
drop index memories_account_idx;
create index memories_tag_idx on memories (account_id, user_memory_tag, created_at desc, seq desc);
create index memories_account_idx on memories (account_id, created_at desc, seq desc);
