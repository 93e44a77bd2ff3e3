-- A workspace is a team (docs/teams.md): members with roles, invitations by link or e-mail, and an
-- audit log of member and API key changes. Only an invitation token's SHA-256 is stored.
update memberships set role = 'owner' where role not in ('owner', 'admin', 'author', 'coach', 'viewer');
alter table memberships
  add constraint memberships_role_check check (role in ('owner', 'admin', 'author', 'coach', 'viewer'));
create index memberships_account_idx on memberships (account_id, created_at, id);

create table invitations (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'author', 'coach', 'viewer')),
  token_hash text not null unique,
  -- Who invited (null once they have left the workspace).
  invited_by uuid references memberships (id) on delete set null,
  emailed boolean not null default false,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  accepted_at timestamptz(3),
  revoked_at timestamptz(3)
);
create index invitations_account_idx on invitations (account_id, created_at desc, id desc);

create table audit_events (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  -- Who did it: a member (by session or token) or an API key; the names are kept as they were.
  actor_membership_id uuid,
  actor_kind text not null check (actor_kind in ('user', 'api_key', 'invitation')),
  actor_name text not null,
  action text not null,
  target text not null,
  details jsonb not null default '{}',
  created_at timestamptz(3) not null
);
create index audit_events_account_idx on audit_events (account_id, created_at desc, id desc);
