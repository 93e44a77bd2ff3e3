-- Accounts (workspaces), people, their memberships, API keys, idempotency records, JWT signing keys.
create table accounts (
  id uuid primary key,
  name text not null,
  created_at timestamptz(3) not null default now()
);

create table users (
  id uuid primary key,
  email text not null,
  name text not null,
  password_hash text,
  external_issuer text,
  external_subject text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create unique index users_email_key on users (lower(email)) where external_issuer is null;
create unique index users_external_key on users (external_issuer, external_subject) where external_issuer is not null;

create table memberships (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null default 'owner',
  created_at timestamptz(3) not null default now(),
  unique (account_id, user_id)
);

create table api_secrets (
  id serial primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  membership_id uuid not null references memberships (id) on delete cascade,
  name text not null,
  secret_prefix text not null,
  secret_hash text not null,
  lookup_hash text not null unique,
  scopes jsonb,
  is_active boolean not null default true,
  last_used_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index api_secrets_account_idx on api_secrets (account_id, created_at desc, id desc);

create table idempotency_keys (
  scope text not null,
  key text not null,
  request_hash text not null,
  state text not null check (state in ('running', 'done')),
  response_status integer,
  response_body text,
  response_headers jsonb,
  locked_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  primary key (scope, key)
);
create index idempotency_keys_expiry_idx on idempotency_keys (expires_at);

create table signing_keys (
  kid text primary key,
  algorithm text not null,
  private_jwk text not null,
  public_jwk jsonb not null,
  created_at timestamptz(3) not null default now()
);
