-- The durable job queue (server/src/core/jobs): one row per unit of background work. Workers
-- claim due rows with SKIP LOCKED and hold them under a lease, so a crashed worker's job is
-- claimed again once the lease passes (at-least-once). Rows of names no process has a handler
-- for are never claimed: they wait until a release that knows them is deployed.
create table jobs (
  id uuid primary key,
  name text not null,
  payload jsonb not null,
  state text not null check (state in ('pending', 'running', 'succeeded', 'failed')),
  attempts integer not null default 0,
  max_attempts integer not null,
  run_at timestamptz(3) not null,
  locked_until timestamptz(3),
  claim_token uuid,
  -- At most one job per key, ever (until the row is purged): "finalise meeting X" runs once.
  dedupe_key text,
  last_error text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  finished_at timestamptz(3)
);
create index jobs_due_idx on jobs (run_at, id) where state in ('pending', 'running');
create unique index jobs_dedupe_key on jobs (dedupe_key) where dedupe_key is not null;
create index jobs_finished_idx on jobs (finished_at) where finished_at is not null;
