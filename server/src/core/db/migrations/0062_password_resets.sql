-- Single-use password-reset tokens (docs/dashboard.md): only the token's SHA-256 is stored.
create table password_resets (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  used_at timestamptz(3)
);
create index password_resets_user_idx on password_resets (user_id);
create index password_resets_expiry_idx on password_resets (expires_at);
