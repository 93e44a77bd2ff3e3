-- The live-session engine: what a meeting needs while it runs and after it ends (participants,
-- transcripts and their sentences, recordings, usage). See docs/realtime.md and docs/live-engine.md.

alter table meetings
  -- Which reply provider answers for the persona: chosen at creation, kept for the call.
  add column agent_provider text not null default 'offline'
    check (agent_provider in ('custom_agent', 'llm', 'offline')),
  -- The memory container the call reads (and the analysis writes): user_memory_tag, else the
  -- participant's default container.
  add column memory_tag text,
  -- When the duration limit ends the meeting (started_at + call_duration).
  add column deadline_at timestamptz(3),
  -- Refreshed while a room connection is held; a stale value means no process holds the meeting.
  add column live_seen_at timestamptz(3),
  -- The system prompt assembled at the first join and frozen for the call (sealed: it carries
  -- the guardrail prompts, which are secret at rest).
  add column agent_prompt_sealed text,
  -- The room announced it records and will upload: the recording job waits for the upload.
  add column recording_expected boolean not null default false;
create index meetings_active_deadline_idx on meetings (deadline_at) where status = 'active';
create index meetings_active_seen_idx on meetings (live_seen_at) where status = 'active';

create table meeting_participants (
  id uuid primary key,
  meeting_id uuid not null references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  name text,
  email text,
  role text not null default 'participant',
  source text not null default 'room',
  is_self boolean not null default false,
  joined_at timestamptz(3),
  left_at timestamptz(3),
  recording_consent boolean,
  client_info jsonb,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index meeting_participants_meeting_idx on meeting_participants (meeting_id, created_at);

create table transcripts (
  id bigint generated always as identity primary key,
  meeting_id uuid not null unique references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  scenario_id uuid not null,
  status text not null default 'in_progress' check (status in ('in_progress', 'completed')),
  language text not null default 'en',
  content text,
  sentence_count integer not null default 0,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  completed_at timestamptz(3)
);
create index transcripts_scenario_idx on transcripts (account_id, scenario_id, created_at desc);

create table transcript_sentences (
  id bigint generated always as identity primary key,
  transcript_id bigint not null references transcripts (id) on delete cascade,
  meeting_id uuid not null references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  speaker text not null check (speaker in ('user', 'agent')),
  message text not null,
  start_ms integer not null,
  end_ms integer,
  sequence_number integer not null,
  created_at timestamptz(3) not null,
  unique (transcript_id, sequence_number)
);
create index transcript_sentences_meeting_idx on transcript_sentences (meeting_id, sequence_number);

-- One recording per meeting: `uploaded` while only the room's upload exists, `ready` once the
-- recording record is published (recording.ready).
create table recordings (
  id uuid primary key,
  meeting_id uuid not null unique references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  scenario_id uuid not null,
  status text not null check (status in ('uploaded', 'ready')),
  media_key text,
  media_content_type text,
  media_size bigint,
  thumbnail_key text,
  thumbnail_content_type text,
  thumbnail_size bigint,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  ready_at timestamptz(3)
);

-- Metering per meeting: session time always; model tokens only for the platform LLM.
create table meeting_usage (
  meeting_id uuid primary key references meetings (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  provider text not null,
  model text,
  session_seconds integer not null default 0,
  prompt_tokens bigint not null default 0,
  completion_tokens bigint not null default 0,
  turns integer not null default 0,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index meeting_usage_account_idx on meeting_usage (account_id, created_at);
