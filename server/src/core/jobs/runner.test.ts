import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { FakeClock } from '../clock.ts';
import { openTestDatabase, type TestDatabase } from '../delivery/testing/test-database.ts';
import { defineJob, JobCatalog, type JobDefinition, JobQueue, JobRunner } from './index.ts';

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
});
