-- Meetings: one live session of a scenario for one participant. The live-session engine adds its
-- own columns and tables in later migrations of this range.

create table meetings (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  -- A scenario with meetings cannot be removed (scenarios are soft-deleted instead).
  scenario_id uuid not null references scenarios (id) on delete restrict,
  person_name text,
  meeting_type text not null default 'regular',
  note_context text,
  user_memory_tag text,
  status text not null default 'created' check (status in ('created', 'active', 'ended')),
  analysis_status text not null default 'not_started'
    check (analysis_status in ('not_started', 'processing', 'completed', 'failed')),
  summary text,
  -- SHA-256 of the room token: the token itself is returned once, by the create response.
  room_token_hash text,
  started_at timestamptz(3),
  ended_at timestamptz(3),
  duration_seconds integer,
  end_reason text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index meetings_account_idx on meetings (account_id, created_at desc, id desc);
create index meetings_scenario_idx on meetings (scenario_id, created_at desc, id desc);
create unique index meetings_room_token_key on meetings (room_token_hash) where room_token_hash is not null;

-- Post-call feedback: one answer per meeting, replaced when given again. The comment is sealed.
create table meeting_feedback (
  meeting_id uuid primary key references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  rating text not null check (rating in ('good', 'had_issues')),
  video_issues jsonb not null default '[]',
  agent_issues jsonb not null default '[]',
  comment_sealed text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);

alter table memories
  add constraint memories_source_meeting_fk
  foreign key (source_meeting_id) references meetings (id) on delete set null;
