-- The generic delivery engine (server/src/core/delivery): one row per (event, receiver) to
-- deliver, and one row per attempt. Channels (platform webhooks, the legacy per-scenario
-- webhook, mailbox webhooks) share these tables and are told apart by `channel`.
create table deliveries (
  id uuid primary key,
  -- Creation order; ties on next_attempt_at (held deliveries released together) go oldest first.
  seq bigserial not null,
  channel text not null,
  -- Whoever owns the receiver (an account, a mailbox organisation); used to scope reads.
  tenant_id text not null,
  -- The receiver, resolved at each attempt so a new URL, a rotated secret or a pause applies to
  -- retries. Null when the target travels inline (target_url / target_secret_sealed).
  endpoint_id text,
  target_url text,
  target_secret_sealed text,
  event_id text not null,
  event_type text not null,
  -- The exact bytes sent on every attempt, so retries and redeliveries are byte-identical.
  payload text not null,
  status text not null check (status in ('pending', 'paused', 'succeeded', 'failed', 'dead', 'cancelled')),
  attempt_count integer not null default 0,
  next_attempt_at timestamptz(3),
  -- A claim is a lease: a worker that dies leaves locked_until to expire, and the delivery is
  -- claimed again (at-least-once). claim_token fences a late completion from a lost lease.
  locked_until timestamptz(3),
  claim_token uuid,
  -- A manual redelivery is one extra attempt that is not followed by automatic retries.
  manual_attempt boolean not null default false,
  last_status_code integer,
  last_error text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create index deliveries_due_idx on deliveries (next_attempt_at, seq) where status = 'pending';
create index deliveries_endpoint_idx on deliveries (channel, endpoint_id, status, seq);
create index deliveries_event_idx on deliveries (event_id);

create table delivery_attempts (
  id uuid primary key,
  delivery_id uuid not null references deliveries (id) on delete cascade,
  -- Denormalised from the delivery so the per-endpoint log is one index range scan.
  channel text not null,
  endpoint_id text,
  attempt_number integer not null,
  manual boolean not null default false,
  url text not null,
  status_code integer,
  duration_ms integer not null,
  error text,
  response_excerpt text,
  -- What the attempt led to: succeeded, retry (see next_retry_at), failed, dead, ...
  outcome text not null,
  next_retry_at timestamptz(3),
  created_at timestamptz(3) not null
);
create index delivery_attempts_endpoint_idx on delivery_attempts (channel, endpoint_id, created_at desc, id desc);
create index delivery_attempts_delivery_idx on delivery_attempts (delivery_id, attempt_number);
