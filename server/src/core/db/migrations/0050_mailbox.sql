-- The mailbox service (/v0): namespaces, pods, inboxes, threads, messages, attachments, drafts,
-- custom domains, block lists, scoped keys, webhooks and stored events.
-- Every timestamp is written by the service from its injected clock; the defaults only cover
-- rows written by hand.

-- A namespace is the tenant: one per platform workspace, plus `ns_default` for the admin key.
create table mailbox_namespaces (
  id text primary key,
  account_id uuid unique,
  name text not null,
  created_at timestamptz(3) not null default now()
);
insert into mailbox_namespaces (id, account_id, name) values ('ns_default', null, 'default');

create table mailbox_pods (
  id text primary key,
  namespace_id text not null references mailbox_namespaces (id) on delete cascade,
  name text not null,
  client_id text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_pods_namespace_idx on mailbox_pods (namespace_id, created_at desc, id desc);
create unique index mailbox_pods_client_idx on mailbox_pods (namespace_id, client_id) where client_id is not null;

create table mailbox_domains (
  id text primary key,
  namespace_id text not null references mailbox_namespaces (id) on delete cascade,
  pod_id text references mailbox_pods (id) on delete set null,
  status text not null check (status in ('pending', 'verified', 'failed')),
  verification_token text not null,
  dkim_selector text not null,
  dkim_public_key text not null,
  dkim_private_key_sealed text not null,
  last_checked_at timestamptz(3),
  last_error text,
  verified_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_domains_namespace_idx on mailbox_domains (namespace_id, created_at desc, id desc);

create table mailbox_inboxes (
  id text primary key,
  namespace_id text not null references mailbox_namespaces (id) on delete cascade,
  pod_id text references mailbox_pods (id) on delete cascade,
  username text not null,
  domain text not null,
  display_name text,
  client_id text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_inboxes_namespace_idx on mailbox_inboxes (namespace_id, created_at desc, id desc);
create index mailbox_inboxes_pod_idx on mailbox_inboxes (pod_id, created_at desc, id desc);
create unique index mailbox_inboxes_client_idx on mailbox_inboxes (namespace_id, client_id) where client_id is not null;

create table mailbox_threads (
  id text primary key,
  inbox_id text not null references mailbox_inboxes (id) on delete cascade,
  subject text not null default '',
  normalized_subject text not null default '',
  senders jsonb not null default '[]',
  recipients jsonb not null default '[]',
  participants jsonb not null default '[]',
  labels jsonb not null default '[]',
  preview text not null default '',
  message_count integer not null default 0,
  size integer not null default 0,
  last_message_id text,
  timestamp timestamptz(3) not null,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_threads_inbox_idx on mailbox_threads (inbox_id, timestamp desc, id desc);
create index mailbox_threads_subject_idx on mailbox_threads (inbox_id, normalized_subject, timestamp desc);

create table mailbox_messages (
  id text primary key,
  inbox_id text not null references mailbox_inboxes (id) on delete cascade,
  message_id text not null,
  thread_id text references mailbox_threads (id) on delete cascade,
  direction text not null check (direction in ('inbound', 'outbound')),
  status text not null check (status in ('received', 'blocked', 'sending', 'sent', 'rejected')),
  from_address text not null,
  "from" text not null,
  reply_to jsonb not null default '[]',
  "to" jsonb not null default '[]',
  cc jsonb not null default '[]',
  bcc jsonb not null default '[]',
  subject text not null default '',
  normalized_subject text not null default '',
  preview text not null default '',
  text text,
  html text,
  in_reply_to text,
  "references" jsonb not null default '[]',
  labels jsonb not null default '[]',
  headers jsonb not null default '{}',
  matched_by text check (matched_by in ('in_reply_to', 'references', 'subject', 'new')),
  auto_reply boolean not null default false,
  rejection_reason text,
  raw_key text,
  size integer not null default 0,
  timestamp timestamptz(3) not null,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  unique (inbox_id, message_id)
);
create index mailbox_messages_inbox_idx on mailbox_messages (inbox_id, timestamp desc, id desc);
create index mailbox_messages_thread_idx on mailbox_messages (thread_id, timestamp, id);
-- The `references` layer of threading looks a Message-ID up among an inbox's messages.
create index mailbox_messages_lookup_idx on mailbox_messages (inbox_id, message_id) include (thread_id);

create table mailbox_attachments (
  id text primary key,
  message_row_id text not null references mailbox_messages (id) on delete cascade,
  filename text,
  content_type text not null,
  content_disposition text,
  content_id text,
  size integer not null,
  storage_key text not null,
  created_at timestamptz(3) not null default now()
);
create index mailbox_attachments_message_idx on mailbox_attachments (message_row_id);

create table mailbox_drafts (
  id text primary key,
  inbox_id text not null references mailbox_inboxes (id) on delete cascade,
  client_id text,
  "to" jsonb not null default '[]',
  cc jsonb not null default '[]',
  bcc jsonb not null default '[]',
  reply_to jsonb not null default '[]',
  subject text not null default '',
  text text,
  html text,
  attachments jsonb not null default '[]',
  in_reply_to text,
  "references" jsonb not null default '[]',
  labels jsonb not null default '[]',
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_drafts_inbox_idx on mailbox_drafts (inbox_id, created_at desc, id desc);
create unique index mailbox_drafts_client_idx on mailbox_drafts (inbox_id, client_id) where client_id is not null;

-- Block list entries: per inbox (inbox_id set) or per namespace (inbox_id null).
create table mailbox_block_entries (
  id text primary key,
  namespace_id text not null references mailbox_namespaces (id) on delete cascade,
  inbox_id text references mailbox_inboxes (id) on delete cascade,
  kind text not null check (kind in ('address', 'domain')),
  value text not null,
  reason text,
  created_at timestamptz(3) not null default now()
);
create unique index mailbox_block_entries_value_idx
  on mailbox_block_entries (namespace_id, coalesce(inbox_id, ''), value);

create table mailbox_api_keys (
  id text primary key,
  namespace_id text not null references mailbox_namespaces (id) on delete cascade,
  name text not null,
  secret_prefix text not null,
  lookup_hash text not null unique,
  inbox_ids jsonb not null default '[]',
  pod_id text references mailbox_pods (id) on delete cascade,
  scopes jsonb not null default '[]',
  last_used_at timestamptz(3),
  revoked_at timestamptz(3),
  created_at timestamptz(3) not null default now()
);
create index mailbox_api_keys_created_idx on mailbox_api_keys (created_at desc, id desc);

-- A webhook's reach is the creator's reach, narrowed: namespace null means service-wide (admin).
create table mailbox_webhooks (
  id text primary key,
  namespace_id text references mailbox_namespaces (id) on delete cascade,
  pod_id text references mailbox_pods (id) on delete cascade,
  inbox_ids jsonb,
  url text not null,
  event_types jsonb not null,
  secret_sealed text not null,
  enabled boolean not null default true,
  client_id text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index mailbox_webhooks_namespace_idx on mailbox_webhooks (namespace_id, created_at desc, id desc);

create table mailbox_events (
  id text primary key,
  seq bigserial not null unique,
  namespace_id text not null,
  pod_id text,
  inbox_id text,
  event_type text not null,
  payload jsonb not null,
  created_at timestamptz(3) not null default now()
);
create index mailbox_events_inbox_idx on mailbox_events (inbox_id, seq);
