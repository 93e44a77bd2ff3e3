-- Platform events (the outbox's source of truth) and the webhook endpoints they fan out to.
create table platform_events (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  event text not null,
  data jsonb not null,
  created_at timestamptz(3) not null
);
create index platform_events_account_idx on platform_events (account_id, created_at desc, id desc);

create table webhook_endpoints (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  url text not null,
  description text not null default '',
  -- Secrets are sealed with SecretBox (AES-256-GCM); the previous one signs too until it expires.
  signing_secret_sealed text not null,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz(3),
  subscribed_events jsonb not null,
  enabled boolean not null default true,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index webhook_endpoints_account_idx on webhook_endpoints (account_id, created_at desc, id desc);
