-- Browser sessions of the dashboard (docs/dashboard.md, "Sign-in and sessions"). The cookie holds
-- a random token; only its SHA-256 is stored, so a copy of this table opens no session. The CSRF
-- token is derived from the cookie's token (HMAC), so nothing about it is stored either.
create table user_sessions (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  membership_id uuid not null references memberships (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  created_at timestamptz(3) not null,
  -- Sliding: moved forward on use, never past created_at + the absolute lifetime.
  expires_at timestamptz(3) not null,
  last_seen_at timestamptz(3) not null
);
create index user_sessions_user_idx on user_sessions (user_id);
create index user_sessions_expiry_idx on user_sessions (expires_at);
