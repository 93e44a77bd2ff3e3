// Learner reports (docs/reports.md): a meeting's report quotes the participant's own sentences as
// each goal's evidence, says what to practise next and carries the coach's comment, which coaches
// write, viewers read, and another workspace never sees.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import {
  analysisRunner,
  createScenario,
  insertEndedMeeting,
  type ScenarioSetup,
  startAnalysisPlatform,
} from '../analyses/helpers.ts';
import { type ApiClient, bearer, expectError, ok, type TestPlatform } from '../harness.ts';

describe('learner reports', () => {
  let t: TestPlatform;
  let ws: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    t = await startAnalysisPlatform();
    ws = await t.workspace();
    setup = await createScenario(ws);
  });
  after(() => t.close());

  it('quotes the participant’s own sentences under each goal, once the analysis is written', async () => {
    const meeting = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, STRONG_INTERVIEW);
    const pending = ok(await ws.call('GET', `/meetings/${meeting.meetingId}/report`)).data;
    assert.equal(pending.status, 'pending');
    assert.equal(pending.results, null);
    assert.equal(pending.meeting.scenario.name, 'Backend screen');
    assert.equal(pending.meeting.persona_name, 'Morgan Lee');
    assert.equal(pending.shared_with_participant, false);

    await analysisRunner(t).drain();
    const report = ok(await ws.call('GET', `/meetings/${meeting.meetingId}/report`)).data;
    assert.equal(report.status, 'ready');
    const analysis = ok(await ws.call('GET', `/meetings/${meeting.meetingId}`)).data.analysis;
    assert.deepEqual(
      report.results.goals.map((goal: { name: string; score: number }) => [goal.name, goal.score]),
      analysis.goal_results.map((row: { goal: { name: string }; score: number }) => [
        row.goal.name,
        row.score,
      ]),
    );
    const participantSaid = STRONG_INTERVIEW.filter((turn) => turn.speaker === 'user').map(
      (turn) => turn.message,
    );
    const quoted = report.results.goals.flatMap(
      (goal: { evidence: Array<{ text: string }> }) => goal.evidence,
    );
    assert.ok(quoted.length > 0, 'the offline evaluator names the sentences it scored');
    for (const goal of report.results.goals) {
      assert.ok(goal.evidence.length <= 3);
      const starts = goal.evidence.map((quote: { start_ms: number }) => quote.start_ms);
      assert.deepEqual(
        starts,
        [...starts].sort((a, b) => a - b),
        'in the order said',
      );
      for (const quote of goal.evidence) {
        assert.ok(
          participantSaid.some((turn) => turn.includes(quote.text)),
          `only the participant's words: ${quote.text}`,
        );
        assert.match(quote.start, /^\d{2}:\d{2}$/);
      }
    }
    assert.ok(report.results.practise_next.length <= 4);
    assert.deepEqual(report.results.strengths, analysis.strengths);
    assert.equal(report.coach_comment, null);
  });

  it('a coach comments, a viewer reads it and may not write, another workspace sees nothing', async () => {
    const meeting = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    const coach = await t.member(ws, 'coach');
    const viewer = await t.member(ws, 'viewer');
    const as = (who: { token: string }, method: 'PUT' | 'GET' | 'DELETE', body?: object) =>
      t.app.inject({
        method,
        url: `/v1/meetings/${meeting.meetingId}/report${method === 'GET' ? '' : '/comment'}`,
        headers: bearer(who.token),
        ...(body ? { payload: body } : {}),
      });
    const written = ok(
      await as(coach, 'PUT', { text: '  Strong opening. Next time, ask about the on-call rota.  ' }),
    ).data;
    assert.equal(written.coach_comment.text, 'Strong opening. Next time, ask about the on-call rota.');
    assert.equal(typeof written.coach_comment.author, 'string');
    assert.equal(ok(await as(viewer, 'GET')).data.coach_comment.text, written.coach_comment.text);
    expectError(await as(viewer, 'PUT', { text: 'Mine' }), 403, 'role');
    expectError(await as(coach, 'PUT', { text: '   ' }), 400, 'text');
    expectError(await as(coach, 'PUT', {}), 400, 'text');

    const rewritten = ok(
      await ws.call('PUT', `/meetings/${meeting.meetingId}/report/comment`, { text: 'Better.' }),
    ).data;
    assert.equal(rewritten.coach_comment.text, 'Better.');
    assert.notEqual(rewritten.coach_comment.author, written.coach_comment.author, 'the latest author signs');

    const stranger = await t.workspace();
    expectError(await stranger.call('GET', `/meetings/${meeting.meetingId}/report`), 404, 'id');
    expectError(
      await stranger.call('PUT', `/meetings/${meeting.meetingId}/report/comment`, { text: 'x' }),
      404,
      'id',
    );
    expectError(await ws.call('GET', '/meetings/not-a-uuid/report'), 404, 'id');

    const removed = ok(await as(coach, 'DELETE')).data;
    assert.equal(removed.coach_comment, null);
  });
});
