import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { ANALYSIS_TIMEOUT_MS } from '../../src/platform/analyses/jobs.ts';
import { type ApiClient, expectErrorCode, ok, type TestPlatform } from '../harness.ts';
import {
  analysisRunner,
  createScenario,
  eventsOf,
  insertEndedMeeting,
  meetingRow,
  type ScenarioSetup,
  startAnalysisPlatform,
} from './helpers.ts';

const analysisJobs = (t: TestPlatform, meetingId: string) =>
  t.deps.db
    .selectFrom('jobs')
    .selectAll()
    .where('name', '=', 'analysis.run')
    .where(sql<string>`payload->>'meeting_id'`, '=', meetingId)
    .orderBy('created_at')
    .execute();

const analysisRows = (t: TestPlatform, meetingId: string) =>
  t.deps.db.selectFrom('analyses').selectAll().where('meeting_id', '=', meetingId).execute();

describe('analysis: re-trigger, failures and crash recovery', () => {
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    t = await startAnalysisPlatform();
    caller = await t.workspace();
    setup = await createScenario(caller);
  });
  after(() => t.close());

  it('re-runs a completed analysis in place: same id, new results, a second analysis_complete', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    const first = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));

    // The transcript is corrected (weaker answers), then the analysis is run again.
    await t.deps.db
      .updateTable('transcript_sentences')
      .set({ message: 'Um, I guess.' })
      .where('meeting_id', '=', meetingId)
      .where('speaker', '=', 'user')
      .execute();
    t.clock.advance(1_000);
    const triggered = ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    assert.deepEqual(triggered.data.meeting_id, meetingId);
    assert.equal(triggered.data.analysis_status, 'processing');
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'processing');

    const conflict = expectErrorCode(
      await caller.call('POST', `/analyses/trigger/${meetingId}`),
      409,
      'resource_conflict',
    );
    assert.match(conflict.error.message, /already queued or running/);
    assert.equal(conflict.error.param, 'meetingId');

    // While the new run is pending, the previous analysis is still readable on its own.
    ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    t.clock.advance(1_000);
    const ran = await analysisRunner(t).drain();
    assert.deepEqual(
      ran.map((r) => r.outcome),
      ['succeeded'],
    );
    const second = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(second.id, first.id, 'one analysis per meeting, replaced in place');
    assert.equal(second.created_at, first.created_at);
    assert.notEqual(second.updated_at, first.updated_at);
    assert.equal(second.GoalResults.length, 3);
    assert.notDeepEqual(
      second.GoalResults.map((r: { id: string }) => r.id),
      first.GoalResults.map((r: { id: string }) => r.id),
    );
    for (const [i, result] of second.GoalResults.entries()) {
      assert.ok(result.score < first.GoalResults[i].score, 'the weaker transcript scores lower');
    }
    assert.equal((await analysisRows(t, meetingId)).length, 1);
    const resultRows = await t.deps.db
      .selectFrom('analysis_goal_results')
      .select('id')
      .where('analysis_id', '=', first.id)
      .execute();
    assert.equal(resultRows.length, 3, 'old goal results are replaced, not kept');
    const events = (await eventsOf(t, meetingId)).map((e) => e.event);
    assert.deepEqual(events, ['transcript.ready', 'session.analysis_complete', 'session.analysis_complete']);
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');

    // Idempotency-Key on the trigger replays the first answer without queueing a second run.
    const headers = { authorization: `Bearer ${caller.key}`, 'idempotency-key': randomUUID() };
    const a = await t.app.inject({ method: 'POST', url: `/v1/analyses/trigger/${meetingId}`, headers });
    const b = await t.app.inject({ method: 'POST', url: `/v1/analyses/trigger/${meetingId}`, headers });
    assert.equal(a.statusCode, 202);
    assert.equal(b.statusCode, 202);
    assert.equal(b.headers['idempotency-replayed'], 'true');
    assert.equal((await analysisJobs(t, meetingId)).filter((j) => j.state === 'pending').length, 1);
    await analysisRunner(t).drain();
  });

  it('refuses meetings that have not ended or whose transcript is not complete (409)', async () => {
    const active = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      status: 'active',
    });
    const notEnded = expectErrorCode(
      await caller.call('POST', `/analyses/trigger/${active.meetingId}`),
      409,
      'resource_conflict',
    );
    assert.match(notEnded.error.message, /has not ended/);
    const finalising = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      transcriptStatus: 'in_progress',
    });
    const response = await caller.call('POST', `/analyses/trigger/${finalising.meetingId}`);
    expectErrorCode(response, 409, 'resource_conflict');
    assert.equal(response.headers['retry-after'], '5');
    expectErrorCode(await caller.call('POST', '/analyses/trigger/nope'), 404, 'resource_not_found');
    expectErrorCode(
      await caller.call('POST', `/analyses/trigger/${randomUUID()}`),
      404,
      'resource_not_found',
    );
    expectErrorCode(
      await caller.call('GET', `/analyses/meeting/${active.meetingId}`),
      404,
      'resource_not_found',
    );
  });

  it('answers 409 while the run queued at the end of the meeting has not finished', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, WEAK_INTERVIEW);
    expectErrorCode(await caller.call('POST', `/analyses/trigger/${meetingId}`), 409, 'resource_conflict');
    await analysisRunner(t).drain();
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await analysisRunner(t).drain();
  });

  it('resumes after a worker dies mid-analysis: the lease expires and the job runs again', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    // A worker claims the job (as JobRunner does), starts the analysis, and dies.
    const [job] = await analysisJobs(t, meetingId);
    const leaseMs = ANALYSIS_TIMEOUT_MS + 30_000;
    await t.deps.db
      .updateTable('jobs')
      .set({
        state: 'running',
        attempts: 1,
        claim_token: randomUUID(),
        locked_until: new Date(t.clock.now().getTime() + leaseMs),
        updated_at: t.clock.now(),
      })
      .where('id', '=', job!.id)
      .execute();
    await t.deps.analysisPipeline.markProcessing(meetingId);
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'processing');

    // Nothing else may start it meanwhile: the trigger refuses, and runners respect the lease.
    expectErrorCode(await caller.call('POST', `/analyses/trigger/${meetingId}`), 409, 'resource_conflict');
    assert.deepEqual(await analysisRunner(t).runOnce(), []);

    t.clock.advance(leaseMs);
    const ran = await analysisRunner(t).runOnce();
    assert.deepEqual(
      ran.map((r) => [r.id, r.outcome]),
      [[job!.id, 'succeeded']],
    );
    const resumed = await t.deps.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', job!.id)
      .executeTakeFirstOrThrow();
    assert.equal(resumed.attempts, 2);
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    assert.equal((await analysisRows(t, meetingId)).length, 1);
    const completions = (await eventsOf(t, meetingId)).filter((e) => e.event === 'session.analysis_complete');
    assert.equal(completions.length, 1);
  });

  it('a meeting stuck in processing after its job gave up can be triggered again', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    await t.deps.analysisPipeline.markProcessing(meetingId);
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await analysisRunner(t).drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
  });

  it('a failed analysis rests in `failed`, fires analysis.failed, and can be triggered again', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    await t.deps.analysisPipeline.settleFailed(meetingId, 'The language model could not be reached.');
    const failed = await meetingRow(t, meetingId);
    assert.equal(failed.analysis_status, 'failed');
    const event = (await eventsOf(t, meetingId)).find((e) => e.event === 'analysis.failed');
    assert.deepEqual(event?.data, {
      meeting_id: meetingId,
      scenario_id: setup.scenarioId,
      error: 'The language model could not be reached.',
    });
    t.clock.advance(1_000);
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await analysisRunner(t).drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
  });
});
