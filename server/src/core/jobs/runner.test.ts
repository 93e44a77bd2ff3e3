import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { FakeClock, systemClock } from '../clock.ts';
import { openTestDatabase, type TestDatabase } from '../delivery/testing/test-database.ts';
import { defineJob, JobCatalog, type JobDefinition, JobLeaseLost, JobQueue, JobRunner } from './index.ts';
import { jobRepository } from './repository.ts';

const silent = { info() {}, warn() {}, error() {} };

describe('job queue', () => {
  let test: TestDatabase;
  const clock = new FakeClock('2026-11-01T12:00:00.000Z');
  const queue = new JobQueue(clock);

  before(async () => {
    test = await openTestDatabase();
  });
  after(() => test.close());

  const runner = (definitions: JobDefinition<any>[]) =>
    new JobRunner({ database: test.database, clock, catalog: new JobCatalog(definitions), logger: silent });
  const row = (id: string) =>
    test.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  let unique = 0;
  const name = (base: string) => `${base}_${++unique}`;

  it('runs a job with its payload and marks it succeeded', async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      name: name('test.echo'),
      payload: Type.Object({ value: Type.Integer() }),
      handler: async (payload) => {
        seen.push(payload);
      },
    });
    const { id } = await queue.enqueue(test.database.db, job.name, { value: 7 });
    const ran = await runner([job]).runOnce();
    assert.deepEqual(ran, [{ id, name: job.name, outcome: 'succeeded' }]);
    assert.deepEqual(seen, [{ value: 7 }]);
    const stored = await row(id);
    assert.equal(stored.state, 'succeeded');
    assert.equal(stored.attempts, 1);
    assert.ok(stored.finished_at);
  });

  it('retries with exponential backoff and gives up after maxAttempts', async () => {
    let calls = 0;
    const job = defineJob({
      name: name('test.flaky'),
      payload: Type.Object({}),
      retry: { maxAttempts: 3, backoffMs: 1_000, maxBackoffMs: 60_000 },
      handler: async () => {
        calls += 1;
        throw new Error(`boom ${calls}`);
      },
    });
    const r = runner([job]);
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    assert.equal((await r.runOnce())[0]?.outcome, 'retrying');
    const first = await row(id);
    assert.equal(first.state, 'pending');
    assert.equal(first.last_error, 'boom 1');
    assert.equal(first.run_at.getTime() - clock.now().getTime(), 1_000);
    assert.deepEqual(await r.runOnce(), [], 'not due before the backoff');
    clock.advance(1_000);
    assert.equal((await r.runOnce())[0]?.outcome, 'retrying');
    assert.equal((await row(id)).run_at.getTime() - clock.now().getTime(), 2_000);
    clock.advance(2_000);
    assert.equal((await r.runOnce())[0]?.outcome, 'failed');
    const last = await row(id);
    assert.equal(last.state, 'failed');
    assert.equal(last.attempts, 3);
    assert.equal(calls, 3);
  });

  it('leaves jobs without a handler waiting, then runs them once a catalog declares them', async () => {
    const jobName = name('test.later');
    const { id } = await queue.enqueue(test.database.db, jobName, { meeting_id: 'x' });
    const other = defineJob({ name: name('test.other'), payload: Type.Object({}), handler: async () => {} });
    assert.deepEqual(await runner([other]).runOnce(), []);
    assert.equal((await row(id)).state, 'pending');
    const later = defineJob({
      name: jobName,
      payload: Type.Object({ meeting_id: Type.String() }),
      handler: async () => {},
    });
    assert.equal((await runner([later]).runOnce())[0]?.outcome, 'succeeded');
  });

  it('enqueues one job per dedupe key', async () => {
    const key = name('dedupe');
    const a = await queue.enqueue(test.database.db, 'test.never', {}, { dedupeKey: key });
    const b = await queue.enqueue(test.database.db, 'test.never', {}, { dedupeKey: key });
    assert.equal(a.enqueued, true);
    assert.equal(b.enqueued, false);
    assert.equal(b.id, a.id);
  });

  it('commits jobs with the transaction that enqueues them', async () => {
    const jobName = name('test.tx');
    await assert.rejects(
      test.database.db.transaction().execute(async (tx) => {
        await queue.enqueue(tx, jobName, {});
        throw new Error('roll back');
      }),
    );
    const count = await test.database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', jobName)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  it('reschedules without spending an attempt', async () => {
    let calls = 0;
    const job = defineJob({
      name: name('test.wait'),
      payload: Type.Object({}),
      retry: { maxAttempts: 1 },
      handler: async () => {
        calls += 1;
        if (calls < 3) return { rescheduleAt: new Date(clock.now().getTime() + 5_000), reason: 'not yet' };
      },
    });
    const r = runner([job]);
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    assert.equal((await r.runOnce())[0]?.outcome, 'rescheduled');
    assert.equal((await row(id)).attempts, 0);
    clock.advance(5_000);
    assert.equal((await r.runOnce())[0]?.outcome, 'rescheduled');
    clock.advance(5_000);
    assert.equal((await r.runOnce())[0]?.outcome, 'succeeded');
  });

  it('claims again a job whose runner died (expired lease), and fences the late runner out', async () => {
    const job = defineJob({
      name: name('test.crash'),
      payload: Type.Object({}),
      timeoutMs: 1_000,
      handler: async () => {},
    });
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    // A runner claimed it and died: the row is running under a lease that has now passed.
    await test.database.db
      .updateTable('jobs')
      .set({
        state: 'running',
        attempts: 1,
        claim_token: '00000000-0000-4000-8000-000000000000',
        locked_until: new Date(clock.now().getTime() + 31_000),
      })
      .where('id', '=', id)
      .execute();
    const r = runner([job]);
    assert.deepEqual(await r.runOnce(), [], 'the lease still holds');
    clock.advance(31_000);
    assert.equal((await r.runOnce())[0]?.outcome, 'succeeded');
    assert.equal((await row(id)).attempts, 2);
  });

  it('aborts a run that passes its timeout and retries it', async () => {
    let aborted = false;
    const job = defineJob({
      name: name('test.slow'),
      payload: Type.Object({}),
      timeoutMs: 30,
      handler: (_payload, { signal }) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    assert.equal((await runner([job]).runOnce())[0]?.outcome, 'retrying');
    assert.equal(aborted, true);
    assert.match((await row(id)).last_error ?? '', /timed out/);
  });

  it('fails a job whose payload does not match its schema, without retrying', async () => {
    const job = defineJob({
      name: name('test.typed'),
      payload: Type.Object({ id: Type.String() }),
      handler: async () => assert.fail('must not run'),
    });
    const { id } = await queue.enqueue(test.database.db, job.name, { id: 42 });
    assert.equal((await runner([job]).runOnce())[0]?.outcome, 'failed');
    assert.match((await row(id)).last_error ?? '', /invalid payload/);
  });

  it('runs each job once when two runners claim at the same time', async () => {
    let calls = 0;
    const job = defineJob({
      name: name('test.parallel'),
      payload: Type.Object({ n: Type.Integer() }),
      handler: async () => {
        calls += 1;
      },
    });
    for (let n = 0; n < 20; n += 1) await queue.enqueue(test.database.db, job.name, { n });
    const [a, b] = await Promise.all([runner([job]).runOnce(), runner([job]).runOnce()]);
    assert.equal(a.length + b.length, 20);
    assert.equal(calls, 20);
  });

  it('start() wakes on NOTIFY and stop() waits for runs in flight', async () => {
    const done: number[] = [];
    const job = defineJob({
      name: name('test.live'),
      payload: Type.Object({ n: Type.Integer() }),
      handler: async ({ n }) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        done.push(n);
      },
    });
    const r = new JobRunner({
      database: test.database,
      clock,
      catalog: new JobCatalog([job]),
      logger: silent,
      pollIntervalMs: 60_000,
    });
    await r.start();
    await queue.enqueue(test.database.db, job.name, { n: 1 });
    const deadline = Date.now() + 5_000;
    while (done.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await r.stop();
    assert.deepEqual(done, [1]);
  });

  /** Resolves when `check` holds, polling; fails after a generous deadline (behaviour, not timing). */
  async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('leases a claim for the short lease, not for the job timeout, and renews it while the job runs', async () => {
    let finish!: () => void;
    let started = false;
    const job = defineJob({
      name: name('test.long'),
      payload: Type.Object({}),
      timeoutMs: 10 * 60_000,
      handler: () =>
        new Promise<void>((resolve) => {
          started = true;
          finish = resolve;
        }),
    });
    const r = new JobRunner({
      database: test.database,
      clock,
      catalog: new JobCatalog([job]),
      logger: silent,
      leaseMs: 15_000,
      heartbeatMs: 20,
    });
    assert.equal(r.leaseMs, 15_000);
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    const running = r.runOnce();
    await until(() => started, 'the handler to start');
    const claimedAt = clock.now().getTime();
    assert.equal((await row(id)).locked_until!.getTime(), claimedAt + 15_000, 'leased for 15 s, not 10 min');
    clock.advance(10_000);
    await until(
      async () => (await row(id)).locked_until!.getTime() === clock.now().getTime() + 15_000,
      'the heartbeat to renew the lease',
    );
    clock.advance(10_000);
    assert.deepEqual(await runner([job]).runOnce(), [], 'a renewed claim is not taken by another runner');
    finish();
    assert.deepEqual(await running, [{ id, name: job.name, outcome: 'succeeded' }]);
    const done = await row(id);
    assert.equal(done.locked_until, null);
    assert.equal(done.attempts, 1);
  });

  it("takes a dead runner's job as soon as its short lease passes", async () => {
    let runs = 0;
    const job = defineJob({
      name: name('test.orphan'),
      payload: Type.Object({}),
      timeoutMs: 5 * 60_000,
      handler: async () => {
        runs += 1;
      },
    });
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    // A runner that claims and then dies: nothing renews its lease.
    const now = clock.now();
    await jobRepository.claimDue(test.database.db, {
      names: [job.name],
      now,
      leaseUntil: new Date(now.getTime() + 15_000),
      limit: 1,
      token: crypto.randomUUID(),
    });
    const live = new JobRunner({
      database: test.database,
      clock,
      catalog: new JobCatalog([job]),
      logger: silent,
      leaseMs: 15_000,
    });
    assert.deepEqual(await live.runOnce(), [], 'held while the lease lasts');
    assert.equal(
      (await jobRepository.nextDueAt(test.database.db, [job.name]))?.getTime(),
      now.getTime() + 15_000,
      'an idle runner sleeps until the lease ends',
    );
    clock.advance(15_000);
    assert.deepEqual(await live.runOnce(), [{ id, name: job.name, outcome: 'succeeded' }]);
    assert.equal(runs, 1);
    assert.equal((await row(id)).attempts, 2, 'the dead run counted as an attempt');
  });

  it('aborts a run whose lease was lost and records nothing of it', async () => {
    let reason: unknown;
    const job = defineJob({
      name: name('test.stalled'),
      payload: Type.Object({}),
      handler: (_payload, { signal }) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve();
          });
        }),
    });
    const r = new JobRunner({
      database: test.database,
      clock,
      catalog: new JobCatalog([job]),
      logger: silent,
      heartbeatMs: 20,
    });
    const { id } = await queue.enqueue(test.database.db, job.name, {});
    const running = r.runOnce();
    await until(async () => (await row(id)).state === 'running', 'the claim');
    // Another runner took the job (this one stalled past its lease).
    const thief = crypto.randomUUID();
    await test.database.db.updateTable('jobs').set({ claim_token: thief }).where('id', '=', id).execute();
    assert.equal((await running)[0]?.outcome, 'lost');
    assert.ok(reason instanceof JobLeaseLost);
    const stored = await row(id);
    assert.equal(stored.claim_token, thief, "the other runner's claim is untouched");
    assert.equal(stored.state, 'running');
  });

  it("commits a job's completion with its effect (completeWithin), fenced by the claim", async () => {
    const job = defineJob({
      name: name('test.effect'),
      payload: Type.Object({ key: Type.String() }),
      handler: async ({ key }, context) => {
        await test.database.db.transaction().execute(async (tx) => {
          await tx
            .insertInto('jobs')
            .values({
              id: crypto.randomUUID(),
              name: 'test.effect_marker',
              payload: JSON.stringify(null),
              state: 'succeeded',
              attempts: 0,
              max_attempts: 1,
              run_at: clock.now(),
              dedupe_key: key,
              created_at: clock.now(),
              updated_at: clock.now(),
            })
            .execute();
          await context.completeWithin(tx);
        });
      },
    });
    const markers = async (key: string) =>
      Number(
        (
          await test.database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('dedupe_key', '=', key)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const held = name('effect');
    const { id } = await queue.enqueue(test.database.db, job.name, { key: held });
    assert.deepEqual(await runner([job]).runOnce(), [{ id, name: job.name, outcome: 'succeeded' }]);
    assert.equal((await row(id)).state, 'succeeded');
    assert.equal(await markers(held), 1);

    // The lease was lost before the effect committed: the effect rolls back with the completion.
    const lost = name('effect');
    const stale = await queue.enqueue(test.database.db, job.name, { key: lost });
    const thief = defineJob({
      name: job.name,
      payload: job.payload,
      handler: async (payload, context) => {
        await test.database.db
          .updateTable('jobs')
          .set({ claim_token: crypto.randomUUID() })
          .where('id', '=', stale.id)
          .execute();
        await job.handler(payload as { key: string }, context);
      },
    });
    assert.equal((await runner([thief]).runOnce())[0]?.outcome, 'lost');
    assert.equal(await markers(lost), 0, 'no effect without the completion');
  });

  it('an idle runner wakes for a delayed job at its run_at, not at the safety-net poll', async () => {
    const done: number[] = [];
    const job = defineJob({
      name: name('test.delayed'),
      payload: Type.Object({ n: Type.Integer() }),
      handler: async ({ n }) => {
        done.push(n);
      },
    });
    const r = new JobRunner({
      database: test.database,
      clock: systemClock,
      catalog: new JobCatalog([job]),
      logger: silent,
      pollIntervalMs: 10 * 60_000,
    });
    await r.start();
    try {
      // NOTIFY wakes the runner at enqueue; the job is not due yet, so it must sleep until run_at.
      await new JobQueue(systemClock).enqueue(test.database.db, job.name, { n: 1 }, { delayMs: 300 });
      await until(() => done.length === 1, 'the delayed job to run');
    } finally {
      await r.stop();
    }
    assert.deepEqual(done, [1]);
  });
});
