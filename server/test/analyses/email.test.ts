import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';
import { startRelay } from '../smtp-relay.ts';
import {
  analysisRunner,
  createScenario,
  INTERVIEW_GOAL_BODIES,
  insertEndedMeeting,
  meetingRow,
  type ScenarioSetup,
  startAnalysisPlatform,
} from './helpers.ts';

const notificationJobs = (t: TestPlatform, meetingId: string) =>
  t.deps.db
    .selectFrom('jobs')
    .selectAll()
    .where('name', '=', 'meeting.notification_email')
    .where(sql<string>`payload->>'meeting_id'`, '=', meetingId)
    .execute();

describe('analysis: email notifications through the SMTP relay', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    relay = await startRelay();
    t = await startAnalysisPlatform({
      env: { SMTP_URL: `smtp://127.0.0.1:${relay.port}?from=coach-bot@example.com` },
    });
    caller = await t.workspace();
    setup = await createScenario(caller, {
      sessionOptions: { notification_emails: ['coach@example.com', 'lead@example.com'] },
    });
  });
  after(async () => {
    await t.close();
    await relay.close();
  });

  it('emails the scenario’s recipients once the meeting’s analysis settles, from its own job', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    const runner = analysisRunner(t);
    assert.deepEqual(
      (await runner.runOnce()).map((r) => [r.name, r.outcome]),
      [['analysis.run', 'succeeded']],
    );
    // The analysis is complete before any mail is attempted: the email waits in its own job.
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    assert.equal(relay.received.length, 0);
    assert.equal((await notificationJobs(t, meetingId))[0]?.state, 'pending');

    assert.deepEqual(
      (await runner.runOnce()).map((r) => [r.name, r.outcome]),
      [['meeting.notification_email', 'succeeded']],
    );
    assert.equal(relay.received.length, 1);
    const mail = relay.received[0]!;
    assert.equal(mail.from, 'coach-bot@example.com');
    assert.deepEqual(mail.to.sort(), ['coach@example.com', 'lead@example.com']);
    assert.equal(mail.subject, 'Meeting ended: Backend screen with Priya Raman');
    assert.equal(mail.headers.get('x-understudy-meeting-id'), meetingId);
    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.match(mail.text, new RegExp(`Meeting id: ${meetingId}`));
    assert.match(
      mail.text,
      new RegExp(`Average score: ${analysis.average_score} \\(total ${analysis.total_score}\\)`),
    );
    for (const [i, goal] of INTERVIEW_GOAL_BODIES.entries()) {
      assert.ok(mail.text.includes(`- ${goal.name}: ${analysis.GoalResults[i].score}`), goal.name);
    }
    assert.match(mail.text, /offline rule-based evaluator/);

    // A re-run of the analysis does not email again.
    t.clock.advance(1_000);
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await runner.drain();
    assert.equal(relay.received.length, 1);
  });

  it('a relay that refuses is retried by the email job without touching the analysis', async () => {
    relay.state.refuse = true;
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    const runner = analysisRunner(t);
    const ran = await runner.drain(3);
    assert.deepEqual(
      ran.map((r) => [r.name, r.outcome]),
      [
        ['analysis.run', 'succeeded'],
        ['meeting.notification_email', 'retrying'],
      ],
    );
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    relay.state.refuse = false;
    t.clock.advance(30_000);
    assert.deepEqual(
      (await runner.runOnce()).map((r) => [r.name, r.outcome]),
      [['meeting.notification_email', 'succeeded']],
    );
    assert.equal(relay.received.at(-1)?.headers.get('x-understudy-meeting-id'), meetingId);
  });

  it('tells the recipients when the analysis failed', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    await t.deps.analysisPipeline.settleFailed(meetingId, 'The language model could not be reached.');
    await analysisRunner(t).drain();
    const mail = relay.received.at(-1)!;
    assert.equal(mail.headers.get('x-understudy-meeting-id'), meetingId);
    assert.match(mail.text, /analysis of this meeting failed/);
  });
});

describe('analysis: email notifications without SMTP_URL', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startAnalysisPlatform();
  });
  after(() => t.close());

  it('skips the email (logged) and still completes the analysis', async () => {
    const caller = await t.workspace();
    const setup = await createScenario(caller, {
      sessionOptions: { notification_emails: ['coach@example.com'] },
    });
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    const ran = await analysisRunner(t).drain();
    assert.deepEqual(
      ran.map((r) => r.name),
      ['analysis.run'],
    );
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    assert.deepEqual(await notificationJobs(t, meetingId), []);
  });
});
