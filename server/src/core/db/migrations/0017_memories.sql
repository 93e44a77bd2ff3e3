-- Memories: one fact per row, in a container named by user_memory_tag within the workspace.
-- content_key is the SHA-256 of the normalised fact (case, spacing, list markers and a trailing
-- full stop ignored); the unique index makes the duplicate check hold under concurrent writes.
-- source_meeting_id gains its foreign key in 0030, where the meetings table is created.

create table memories (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  user_memory_tag text not null check (user_memory_tag ~ '^[A-Za-z0-9._:@+/|=-]{1,128}$'),
  content text not null check (char_length(content) between 1 and 1000),
  content_key text not null,
  external_id text check (char_length(external_id) <= 255),
  scenario_id uuid references scenarios (id) on delete set null,
  source text not null check (source in ('api', 'meeting')),
  source_meeting_id uuid,
  source_scenario_id uuid references scenarios (id) on delete set null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create unique index memories_fact_key on memories (account_id, user_memory_tag, content_key);
create index memories_tag_idx on memories (account_id, user_memory_tag, created_at desc, id desc);
create index memories_account_idx on memories (account_id, created_at desc, id desc);
create index memories_scenario_idx on memories (scenario_id) where scenario_id is not null;
