import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

/** Workers LISTEN here; enqueue NOTIFYs it in the writer's transaction, so the wake-up follows the commit. */
export const JOBS_NOTIFY_CHANNEL = 'jobs_due';

export type JobRow = Selectable<DB['jobs']>;

/** What a finished run writes; the lease and claim token are always cleared with it. */
export interface JobOutcomeChanges {
  state: JobRow['state'];
  attempts?: number;
  run_at?: Date;
  last_error: string | null;
  updated_at: Date;
  finished_at?: Date;
}

export const jobRepository = {
  /** Adds the job unless one with its dedupe key exists; returns its id, or undefined if it existed. */
  async insertUnlessDuplicate(db: Kysely<DB>, job: Insertable<DB['jobs']>): Promise<string | undefined> {
    const inserted = await db
      .insertInto('jobs')
      .values(job)
      .onConflict((conflict) => conflict.column('dedupe_key').where('dedupe_key', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  async idByDedupeKey(db: Kysely<DB>, dedupeKey: string): Promise<string> {
    const existing = await db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', dedupeKey)
      .executeTakeFirstOrThrow();
    return existing.id;
  },

  /** Wakes runners; inside a transaction the NOTIFY is sent on commit. */
  async notifyDue(db: Kysely<DB>, name: string): Promise<void> {
    await sql`select pg_notify(${JOBS_NOTIFY_CHANNEL}, ${name})`.execute(db);
  },

  /**
   * Claims up to `limit` due jobs of these names (pending and due, or running with an expired
   * lease) under a lease and a fresh claim token. SKIP LOCKED keeps concurrent runners off each
   * other's rows. Rows come back in no particular order.
   */
  async claimDue(
    db: Kysely<DB>,
    claim: { names: readonly string[]; now: Date; leaseUntil: Date; limit: number; token: string },
  ): Promise<JobRow[]> {
    const { names, now, leaseUntil, limit, token } = claim;
    const { rows } = await sql<JobRow>`
      with due as (
        select id from jobs
        where name in (${sql.join(names)})
          and ((state = 'pending' and run_at <= ${now})
            or (state = 'running' and locked_until <= ${now}))
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      update jobs as j set state = 'running', attempts = j.attempts + 1, locked_until = ${leaseUntil},
        claim_token = ${token}, updated_at = ${now}
      from due where j.id = due.id
      returning j.*`.execute(db);
    return rows;
  },

  /**
   * Claims one pending job by id whatever its run_at (a caller that just enqueued it runs it at
   * once, e.g. to answer with its outcome); undefined when it is not pending (already claimed).
   */
  async claimById(
    db: Kysely<DB>,
    claim: { id: string; names: readonly string[]; now: Date; leaseUntil: Date; token: string },
  ): Promise<JobRow | undefined> {
    const { id, names, now, leaseUntil, token } = claim;
    const { rows } = await sql<JobRow>`
      update jobs set state = 'running', attempts = attempts + 1, locked_until = ${leaseUntil},
        claim_token = ${token}, updated_at = ${now}
      where id = ${id} and state = 'pending' and name in (${sql.join(names)})
      returning *`.execute(db);
    return rows[0];
  },
  /** Writes a run's outcome only if this claim still holds the row; false when the lease was lost. */
  async recordOutcome(db: Kysely<DB>, row: JobRow, changes: JobOutcomeChanges): Promise<boolean> {
    const result = await db
      .updateTable('jobs')
      .set({ ...changes, locked_until: null, claim_token: null })
      .where('id', '=', row.id)
      .where('claim_token', '=', row.claim_token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Extends the lease of the runs this runner holds (one statement for all of them), fenced by
   * each claim's token; returns the ids still held. A missing id lost its lease (re-claimed by
   * another runner after this one stalled, or finished inside the handler's own transaction).
   */
  async renewLeases(
    db: Kysely<DB>,
    renew: { claims: ReadonlyArray<{ id: string; token: string }>; leaseUntil: Date },
  ): Promise<Set<string>> {
    if (renew.claims.length === 0) return new Set();
    const { rows } = await sql<{ id: string }>`
      update jobs as j set locked_until = ${renew.leaseUntil}
      from unnest(${renew.claims.map((c) => c.id)}::uuid[], ${renew.claims.map((c) => c.token)}::uuid[])
        as held (id, token)
      where j.id = held.id and j.claim_token = held.token and j.state = 'running'
      returning j.id`.execute(db);
    return new Set(rows.map((row) => row.id));
  },
  /**
   * When the next of these jobs becomes claimable: the earliest run_at of a pending one, or the
   * earliest lease end of a running one (a runner that died). Null when none is queued. An idle
   * runner sleeps until then instead of polling.
   */
  async nextDueAt(db: Kysely<DB>, names: readonly string[]): Promise<Date | null> {
    const { rows } = await sql<{ at: Date | null }>`
      select min(case when state = 'pending' then run_at else locked_until end) as at from jobs
      where state in ('pending', 'running') and name in (${sql.join(names)})`.execute(db);
    const at = rows[0]?.at;
    return at ? new Date(at) : null;
  },
  /** Deletes jobs that finished before `before` (their dedupe keys with them). */
  async purgeFinished(db: Kysely<DB>, before: Date): Promise<void> {
    await db
      .deleteFrom('jobs')
      .where('state', 'in', ['succeeded', 'failed'])
      .where('finished_at', '<', before)
      .execute();
  },
};
