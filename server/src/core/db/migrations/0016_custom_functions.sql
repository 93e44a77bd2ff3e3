-- Custom functions (tools the persona calls mid-meeting through a signed webhook) and the
-- scenarios they are attached to. Attachments reference the definition, so a change to a
-- function reaches every attached scenario at once. The signing secret is sealed (AES-256-GCM).

create table custom_functions (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  name text not null check (name ~ '^[a-zA-Z0-9_-]{1,64}$'),
  description text not null default '',
  parameters_schema jsonb not null,
  execution_mode text not null default 'webhook' check (execution_mode in ('webhook')),
  webhook_url text not null,
  webhook_secret_sealed text not null,
  webhook_secret_last4 text not null,
  timeout_ms integer not null default 5000 check (timeout_ms between 100 and 30000),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  unique (account_id, name)
);
create index custom_functions_account_idx on custom_functions (account_id, created_at desc, id desc);

create table scenario_custom_functions (
  scenario_id uuid not null references scenarios (id) on delete cascade,
  function_id uuid not null references custom_functions (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  attached_at timestamptz(3) not null,
  primary key (scenario_id, function_id)
);
create index scenario_custom_functions_function_idx on scenario_custom_functions (function_id);
