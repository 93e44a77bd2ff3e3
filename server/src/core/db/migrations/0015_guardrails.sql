-- Guardrails: account-level rules appended to a scenario's system prompt, and their attachments.
-- The prompt is sealed with the secret box (AES-256-GCM); it is never stored in clear.

create table guardrails (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid references memberships (id) on delete set null,
  guardrail_name text not null check (guardrail_name ~ '^[a-zA-Z0-9_-]{1,64}$'),
  prompt_sealed text not null,
  active boolean not null default true,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  unique (account_id, guardrail_name)
);
create index guardrails_account_idx on guardrails (account_id, created_at desc, id desc);

-- One row per (scenario, guardrail). Deleting either side detaches; a soft-deleted scenario's
-- rows stay but are never read.
create table scenario_guardrails (
  scenario_id uuid not null references scenarios (id) on delete cascade,
  guardrail_id uuid not null references guardrails (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  active boolean not null default true,
  position integer not null default 0,
  attached_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (scenario_id, guardrail_id)
);
create index scenario_guardrails_guardrail_idx on scenario_guardrails (guardrail_id);
