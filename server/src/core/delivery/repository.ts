import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { DeliveryRecord } from './profile.ts';
import type { DeliveryStatus } from './tables.ts';

/** Workers LISTEN here; enqueue and release NOTIFY it inside the writer's transaction (sent on commit). */
export const DELIVERY_NOTIFY_CHANNEL = 'delivery_due';

export interface ClaimedDelivery extends DeliveryRecord {
  claim_token: string;
}

/**
 * PostgreSQL serialises the commits of transactions that NOTIFY (a global lock held through the
 * commit's WAL flush), which cut emit throughput 3-5x when every transaction notified. So a
 * DeliveryQueue notifies at most once per window; workers stay alert for a moment after each
 * NOTIFY (see DeliveryWorker) to pick up what the transactions in between committed.
 */
export const NOTIFY_COALESCE_MS = 20;

export async function notifyDeliveryDue(executor: Kysely<DB>): Promise<void> {
  await sql`select pg_notify(${DELIVERY_NOTIFY_CHANNEL}, '')`.execute(executor);
}

/**
 * Claims and attempt results are bookkeeping: their commits need not wait for the WAL flush.
 * Losing the last such commits in a PostgreSQL crash only means a delivery is claimed and sent
 * again, which at-least-once allows; nothing is lost, since deliveries are created by the
 * emitter's own, fully durable transaction. Written as a CTE, `set_config(…, true)` covers the
 * statement's own implicit transaction, so it costs no extra round trip. Only for statements run
 * on their own (autocommit): inside a caller's transaction it would relax that whole transaction.
 */
const relaxedCommit = sql`relaxed as (select set_config('synchronous_commit', 'off', true))`;

/**
 * Claims due deliveries: SKIP LOCKED keeps concurrent workers off each other's rows, and the
 * lease (locked_until) keeps them off rows another worker holds right now. The lease is short and
 * the holder's heartbeat renews it (renewDeliveryLeases); a worker that dies stops renewing, and
 * its rows become claimable again once the lease passes.
 * Channels are claimed one statement each, in the order given, until `limit` rows are claimed:
 * each statement reads one ordered range of the due index (migration 0023).
 */
export async function claimDueDeliveries(
  db: Kysely<DB>,
  options: { channels: readonly string[]; now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const claimed: ClaimedDelivery[] = [];
  for (const channel of options.channels) {
    const limit = options.limit - claimed.length;
    if (limit <= 0) break;
    try {
      claimed.push(...(await claimDueOf(db, channel, { ...options, limit })));
    } catch (error) {
      // What earlier statements claimed is leased already: hand it to the caller rather than
      // leave it untouched until the lease passes. This channel is asked again next time.
      if (claimed.length === 0) throw error;
      break;
    }
  }
  return claimed;
}

async function claimDueOf(
  db: Kysely<DB>,
  channel: string,
  options: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const token = randomUUID();
  const { rows } = await sql<ClaimedDelivery>`
    with ${relaxedCommit}, due as (
      select id from deliveries
      where status = 'pending'
        and channel = ${channel}
        and next_attempt_at <= ${options.now}
        and (locked_until is null or locked_until <= ${options.now})
      order by next_attempt_at, seq
      limit ${options.limit}
      for update skip locked
    ), claimed as (
      update deliveries as d set locked_until = ${options.leaseUntil}, claim_token = ${token}
      from due where d.id = due.id
      returning d.id, d.seq, d.next_attempt_at, d.channel, d.tenant_id, d.endpoint_id, d.target_url,
        d.target_secret_sealed, d.event_id, d.event_type, d.payload, d.attempt_count, d.manual_attempt, d.claim_token
    )
    select id, channel, tenant_id, endpoint_id, target_url, target_secret_sealed, event_id, event_type, payload,
      attempt_count, manual_attempt, claim_token
    from claimed cross join relaxed order by next_attempt_at, seq`.execute(db);
  return rows;
}

/**
 * Extends the leases of the deliveries this worker holds (queued or being attempted), one
 * statement for all of them, fenced by each claim's token; returns the ids still held. A missing
 * id lost its claim: its lease passed and another worker claimed it, or it was cancelled or
 * redelivered meanwhile. Bookkeeping, committed without waiting for the WAL flush like the claim.
 */
export async function renewDeliveryLeases(
  db: Kysely<DB>,
  renew: { claims: ReadonlyArray<{ id: string; token: string }>; leaseUntil: Date },
): Promise<Set<string>> {
  if (renew.claims.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    with ${relaxedCommit}, renewed as (
      update deliveries as d set locked_until = ${renew.leaseUntil}
      from unnest(${renew.claims.map((c) => c.id)}::uuid[], ${renew.claims.map((c) => c.token)}::uuid[])
        as held (id, token)
      where d.id = held.id and d.claim_token = held.token and d.status = 'pending'
      returning d.id
    )
    select id from renewed cross join relaxed`.execute(db);
  return new Set(rows.map((row) => row.id));
}

/**
 * When the next delivery of these channels can be claimed (one index probe per channel, and one
 * range of it): the earliest next_attempt_at among pending deliveries nobody holds, or the
 * earliest lease end among those held (a dead worker's claims come free then; a live one's are
 * renewed before). An idle worker sleeps until then instead of polling; null when nothing waits.
 * Held deliveries were due when claimed, so their lease ends are read from the due part of the
 * index only.
 */
export async function nextDueAt(
  db: Kysely<DB>,
  options: { channels: readonly string[]; now: Date },
): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    select least(min(due.next_attempt_at), min(held.lease_end)) as at
    from unnest(${[...options.channels]}::text[]) as c (channel)
    left join lateral (
      select next_attempt_at from deliveries
      where status = 'pending' and channel = c.channel
        and (locked_until is null or locked_until <= ${options.now})
      order by next_attempt_at, seq
      limit 1
    ) as due on true
    left join lateral (
      select min(locked_until) as lease_end from deliveries
      where status = 'pending' and channel = c.channel
        and next_attempt_at <= ${options.now} and locked_until > ${options.now}
    ) as held on true`.execute(db);
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}

export interface AttemptRecord {
  attemptNumber: number;
  manual: boolean;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  outcome: string;
}

export interface Completion {
  delivery: ClaimedDelivery;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  attempt: AttemptRecord;
  now: Date;
}

/**
 * Records attempts and moves their deliveries on, many in one statement (one commit instead of
 * one per delivery). Each row is fenced by its claim token: a delivery whose lease was lost
 * (expired and re-claimed, or cancelled) is left alone. Returns the ids that were recorded.
 */
export async function completeAttempts(
  db: Kysely<DB>,
  completions: readonly Completion[],
): Promise<Set<string>> {
  if (completions.length === 0) return new Set();
  // One array per column: the statement text is the same for any batch size, so it stays cheap
  // to parse, and the parameter count stays at 14 instead of growing with the batch.
  const column = <T>(pick: (completion: Completion) => T) => completions.map(pick);
  const { rows } = await sql<{ delivery_id: string }>`
    with ${relaxedCommit}, input as (
      select * from unnest(
        ${column((c) => c.delivery.id)}::uuid[],
        ${column((c) => c.delivery.claim_token)}::uuid[],
        ${column((c) => c.status)}::text[],
        ${column((c) => c.attempt.attemptNumber)}::integer[],
        ${column((c) => c.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
        ${column((c) => c.attempt.statusCode)}::integer[],
        ${column((c) => c.attempt.error)}::text[],
        ${column(() => randomUUID())}::uuid[],
        ${column((c) => c.attempt.manual)}::boolean[],
        ${column((c) => c.attempt.url)}::text[],
        ${column((c) => c.attempt.durationMs)}::integer[],
        ${column((c) => c.attempt.responseExcerpt)}::text[],
        ${column((c) => c.attempt.outcome)}::text[],
        ${column((c) => c.now.toISOString())}::timestamptz[]
      ) as i (id, token, status, attempt_number, next_at, status_code, error, attempt_id, manual, url,
        duration_ms, excerpt, outcome, now)
    ),
    updated as (
      update deliveries as d set
        status = i.status,
        attempt_count = i.attempt_number,
        manual_attempt = false,
        next_attempt_at = i.next_at,
        locked_until = null,
        claim_token = null,
        last_status_code = i.status_code,
        last_error = i.error,
        updated_at = i.now
      from input as i
      where d.id = i.id and d.claim_token = i.token
      returning d.id, d.channel, d.endpoint_id
    )
    insert into delivery_attempts (id, delivery_id, channel, endpoint_id, attempt_number, manual, url,
      status_code, duration_ms, error, response_excerpt, outcome, next_retry_at, created_at)
    select i.attempt_id, u.id, u.channel, u.endpoint_id, i.attempt_number, i.manual, i.url, i.status_code,
      i.duration_ms, i.error, i.excerpt, i.outcome, i.next_at, i.now
    from input as i join updated as u on u.id = i.id cross join relaxed
    returning delivery_id`.execute(db);
  return new Set(rows.map((row) => row.delivery_id));
}

/** One completion; false when the claim was lost and nothing was written. */
export async function completeAttempt(db: Kysely<DB>, completion: Completion): Promise<boolean> {
  return (await completeAttempts(db, [completion])).has(completion.delivery.id);
}

/** Ends a claim without an attempt: the receiver is paused (held) or gone (cancelled). */
export async function settleWithoutAttempt(
  db: Kysely<DB>,
  options: { delivery: ClaimedDelivery; status: 'paused' | 'cancelled'; reason: string | null; now: Date },
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({
      status: options.status,
      next_attempt_at: null,
      locked_until: null,
      claim_token: null,
      last_error: options.reason,
      updated_at: options.now,
    })
    .where('id', '=', options.delivery.id)
    .where('claim_token', '=', options.delivery.claim_token)
    .execute();
}

/** Gives a claim back untouched (e.g. the worker is stopping before it could attempt). */
export async function releaseClaim(db: Kysely<DB>, delivery: ClaimedDelivery): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ locked_until: null, claim_token: null })
    .where('id', '=', delivery.id)
    .where('claim_token', '=', delivery.claim_token)
    .execute();
}
