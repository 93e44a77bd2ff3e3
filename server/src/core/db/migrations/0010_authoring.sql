-- Authoring: personas, goals, scenarios and the scenario-goal links.
-- Voices and avatars are a catalog shipped in code (platform/personas/catalog.ts), so their ids
-- are stored without a foreign key.

create table personas (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  name text not null,
  job_title text not null,
  demeanor text not null default 'neutral' check (
    demeanor in ('friendly', 'analytical', 'empathetic', 'curious', 'enthusiastic', 'critical', 'casual', 'blunt', 'assertive', 'neutral')
  ),
  background text,
  gender text check (gender in ('male', 'female')),
  voice_id uuid not null,
  avatar_id uuid,
  avatar_url text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index personas_account_idx on personas (account_id, created_at desc, id desc);

-- Scenarios are soft-deleted (deleted_at) so meetings keep the scenario they ran on.
create table scenarios (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  name text not null,
  type text not null check (type in ('interview', 'roleplay', 'upskill', 'brainstorm')),
  persona_id uuid references personas (id) on delete set null,
  prompt text not null default '',
  description text,
  call_duration integer not null default 30 check (call_duration between 1 and 240),
  welcome_message text not null,
  -- true while welcome_message is the generated one: it is regenerated when the script changes.
  welcome_message_generated boolean not null default false,
  visibility text not null default 'public' check (visibility in ('public', 'restricted')),
  default_kind text check (default_kind in ('plus_one', 'requirement_gathering')),
  custom_agent_enabled boolean not null default false,
  custom_agent_base_url text,
  -- AES-256-GCM sealed (SecretBox); never stored in clear.
  custom_agent_api_key text,
  custom_agent_model text not null default 'waterr-agent',
  custom_agent_timeout_s integer not null default 10 check (custom_agent_timeout_s between 1 and 30),
  custom_agent_extra_headers jsonb not null default '{}',
  meeting_controls jsonb not null default '{}',
  recording_enabled boolean not null default true,
  recording_consent_required boolean not null default false,
  memory_enabled boolean not null default false,
  notification_emails jsonb not null default '[]',
  language text not null default 'en',
  -- The legacy per-scenario webhook (session-options webhook_url) and its sealed whsec_ secret.
  legacy_webhook_url text,
  legacy_webhook_secret text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  deleted_at timestamptz(3)
);
create index scenarios_account_idx on scenarios (account_id, created_at desc, id desc) where deleted_at is null;
create index scenarios_persona_idx on scenarios (persona_id);

create table goals (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  name text not null check (char_length(name) between 1 and 100),
  description text,
  instructions text,
  metrics jsonb,
  scenario_id uuid references scenarios (id) on delete set null,
  active boolean not null default true,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index goals_account_idx on goals (account_id, created_at desc, id desc);
create index goals_scenario_idx on goals (scenario_id);

-- Which goals score a scenario's meetings. A goal's own scenario_id always has a row here too.
create table scenario_goals (
  scenario_id uuid not null references scenarios (id) on delete cascade,
  goal_id uuid not null references goals (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  position integer not null default 0,
  created_at timestamptz(3) not null,
  primary key (scenario_id, goal_id)
);
create index scenario_goals_goal_idx on scenario_goals (goal_id);
