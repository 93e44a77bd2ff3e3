import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { loadMeetingAnalysis } from '../../src/platform/analyses/service.ts';
import { type ApiClient, expectErrorCode, ok, type TestPlatform } from '../harness.ts';
import {
  analysisRunner,
  createScenario,
  eventsOf,
  INTERVIEW_GOAL_BODIES,
  insertEndedMeeting,
  meetingRow,
  type ScenarioSetup,
  startAnalysisPlatform,
} from './helpers.ts';

const sorted = (value: object) => Object.keys(value).sort();

describe('analysis: pipeline and the three goal-result shapes', () => {
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;
  let meetingId: string;

  before(async () => {
    t = await startAnalysisPlatform();
    caller = await t.workspace();
    setup = await createScenario(caller, {
      goals: [...INTERVIEW_GOAL_BODIES, { name: 'Retired goal', instructions: 'Score 1-10.', active: false }],
    });
    ({ meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW));
    t.clock.advance(1_000);
    const ran = await analysisRunner(t).drain();
    assert.deepEqual(
      ran.map((r) => [r.name, r.outcome]),
      [['analysis.run', 'succeeded']],
    );
  });
  after(() => t.close());

  it('moves the meeting to completed and sets its summary', async () => {
    const meeting = await meetingRow(t, meetingId);
    assert.equal(meeting.analysis_status, 'completed');
    assert.ok(meeting.summary && meeting.summary.length > 20);
  });

  it('standalone: Meeting object and GoalResults[] of id, goal_id, score, feedback; lists as arrays', async () => {
    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(analysis.meeting_id, meetingId);
    assert.equal(analysis.scenario_id, setup.scenarioId);
    assert.equal(analysis.evaluator, 'offline');
    for (const field of [
      'id',
      'meeting_id',
      'title',
      'summary',
      'call_summary',
      'average_score',
      'total_score',
      'strengths',
      'growth_areas',
      'repetitions',
      'filler_words',
      'weak_words',
      'sentence_starters',
      'created_at',
      'recommendations',
      'highlights',
      'conversation_length',
    ]) {
      assert.ok(field in analysis, `standalone analysis has ${field}`);
    }
    assert.ok(Array.isArray(analysis.strengths) && analysis.strengths.length > 0);
    assert.ok(Array.isArray(analysis.growth_areas) && analysis.growth_areas.length > 0);
    assert.deepEqual(sorted(analysis.Meeting), ['created_at', 'id', 'person_name']);
    assert.equal(analysis.Meeting.id, meetingId);
    assert.equal(analysis.Meeting.person_name, 'Priya Raman');
    assert.equal(analysis.GoalResults.length, 3, 'the inactive goal is skipped');
    for (const result of analysis.GoalResults) {
      assert.deepEqual(sorted(result), [
        'feedback',
        'goal_id',
        'id',
        'score',
        'score_max',
        'score_min',
        'sentence_ids',
      ]);
      assert.ok(result.score >= result.score_min && result.score <= result.score_max, JSON.stringify(result));
    }
    assert.deepEqual(
      analysis.GoalResults.map((r: { goal_id: string }) => r.goal_id),
      setup.goalIds.slice(0, 3),
    );
    const scores = analysis.GoalResults.map((r: { score: number }) => r.score);
    assert.ok(scores[0] >= 1 && scores[0] <= 10);
    assert.ok(scores[2] >= 1 && scores[2] <= 5, 'scored in the 1–5 range its instructions state');
    const total = scores.reduce((a: number, b: number) => a + b, 0);
    assert.equal(analysis.total_score, total);
    assert.equal(analysis.average_score, Math.round((total / 3) * 100) / 100);
    assert.ok(analysis.filler_words.total >= 0 && Array.isArray(analysis.filler_words.items));
    assert.ok(analysis.highlights.every((h: { timestamp: string }) => /^\d{2,}:\d{2}$/.test(h.timestamp)));
    assert.equal(analysis.conversation_length, (await meetingRow(t, meetingId)).duration_seconds);

    const byId = ok(await caller.call('GET', `/analyses/${analysis.id}`));
    assert.deepEqual(byId, analysis);
  });

  it('embedded: goal_results[] of short_description, long_description, score and the original goal', async () => {
    const embedded = await loadMeetingAnalysis(t.deps.db, caller.accountId, meetingId);
    assert.ok(embedded);
    assert.ok(Array.isArray(embedded.strengths));
    assert.equal(embedded.goal_results.length, 3);
    for (const [index, result] of embedded.goal_results.entries()) {
      assert.deepEqual(sorted(result), [
        'feedback',
        'goal',
        'long_description',
        'score',
        'score_max',
        'score_min',
        'sentence_ids',
        'short_description',
      ]);
      assert.equal(result.goal.id, setup.goalIds[index]);
      assert.equal(result.goal.name, INTERVIEW_GOAL_BODIES[index]!.name);
      assert.equal(result.goal.instructions, INTERVIEW_GOAL_BODIES[index]!.instructions);
      assert.equal(result.goal.active, true);
    }
    assert.equal(await loadMeetingAnalysis(t.deps.db, (await t.workspace()).accountId, meetingId), null);
  });

  it('GET /meetings/{id} embeds the analysis once completed', async () => {
    const meeting = ok(await caller.call('GET', `/meetings/${meetingId}`)).data;
    assert.equal(meeting.analysis_status, 'completed');
    assert.ok(meeting.analysis, 'analysis embedded');
    assert.deepEqual(sorted(meeting.analysis.goal_results[0]), [
      'feedback',
      'goal',
      'long_description',
      'score',
      'score_max',
      'score_min',
      'sentence_ids',
      'short_description',
    ]);
    assert.equal(meeting.analysis.goal_results[0].goal.name, INTERVIEW_GOAL_BODIES[0]!.name);
    assert.deepEqual(
      meeting.analysis,
      await loadMeetingAnalysis(t.deps.db, caller.accountId, meetingId),
      'every field of the embedded analysis survives the response schema',
    );
    assert.equal(meeting.summary, meeting.analysis.summary);

    const pending = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    const unread = ok(await caller.call('GET', `/meetings/${pending.meetingId}`)).data;
    assert.equal(unread.analysis_status, 'not_started');
    assert.ok(!('analysis' in unread), 'no analysis before it is completed');
  });

  it('webhook: session.analysis_complete carries the spec analysis object, after transcript.ready', async () => {
    const events = await eventsOf(t, meetingId);
    assert.deepEqual(
      events.map((e) => e.event),
      ['transcript.ready', 'session.analysis_complete'],
    );
    const data = events[1]!.data as any;
    assert.equal(data.meeting_id, meetingId);
    assert.equal(data.scenario_id, setup.scenarioId);
    assert.deepEqual(sorted(data.analysis), [
      'analysis_id',
      'average_score',
      'call_summary',
      'conversation_length',
      'goal_results',
      'growth_areas',
      'highlights',
      'recommendations',
      'strengths',
      'summary',
      'total_score',
    ]);
    assert.equal(typeof data.analysis.strengths, 'string');
    assert.equal(typeof data.analysis.growth_areas, 'string');
    const standalone = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(data.analysis.analysis_id, standalone.id);
    assert.equal(data.analysis.strengths, standalone.strengths.join('\n'));
    assert.equal(data.analysis.goal_results.length, 3);
    for (const [index, result] of data.analysis.goal_results.entries()) {
      assert.deepEqual(sorted(result), ['goal', 'result']);
      assert.deepEqual(sorted(result.result), ['feedback', 'score']);
      assert.equal(result.goal, INTERVIEW_GOAL_BODIES[index]!.name);
      assert.equal(result.result.score, standalone.GoalResults[index].score);
      assert.equal(result.result.feedback, standalone.GoalResults[index].feedback);
    }
  });

  it('lists analyses of the workspace and of a scenario, with opt-in pagination', async () => {
    const other = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, WEAK_INTERVIEW, {
      personName: 'Sam Doe',
    });
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    const all = ok(await caller.call('GET', '/analyses'));
    assert.ok(Array.isArray(all));
    assert.deepEqual(
      all.map((a: { meeting_id: string }) => a.meeting_id),
      [other.meetingId, meetingId],
      'newest first',
    );
    const first = ok(await caller.call('GET', '/analyses?limit=1'));
    assert.equal(first.object, 'list');
    assert.equal(first.data.length, 1);
    assert.equal(first.has_more, true);
    const second = ok(
      await caller.call('GET', `/analyses?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
    );
    assert.equal(second.data[0].meeting_id, meetingId);
    assert.equal(second.has_more, false);

    const byScenario = ok(await caller.call('GET', `/analyses/scenario/${setup.scenarioId}`));
    assert.equal(byScenario.length, 2);
    for (const analysis of byScenario) {
      assert.deepEqual(sorted(analysis.Meeting), ['created_at', 'id', 'person_name']);
      assert.equal(analysis.GoalResults.length, 3);
    }
    assert.equal(byScenario[0].Meeting.person_name, 'Sam Doe');
    const strong = byScenario[1].GoalResults.map((r: { score: number }) => r.score);
    const weak = byScenario[0].GoalResults.map((r: { score: number }) => r.score);
    for (const [i, score] of strong.entries()) {
      assert.ok(score > weak[i], 'the strong interview scores higher');
    }
    const paged = ok(await caller.call('GET', `/analyses/scenario/${setup.scenarioId}?limit=1`));
    assert.equal(paged.data.length, 1);
    expectErrorCode(
      await caller.call(
        'GET',
        `/analyses/scenario/${setup.scenarioId}?cursor=${encodeURIComponent(first.next_cursor)}`,
      ),
      400,
      'invalid_pagination',
    );
  });

  it('answers 400 on a bad page size and 404 for unknown or malformed ids', async () => {
    const bad = expectErrorCode(await caller.call('GET', '/analyses?limit=0'), 400);
    assert.equal(bad.error.param, 'limit');
    expectErrorCode(await caller.call('GET', '/analyses/not-a-uuid'), 404, 'resource_not_found');
    expectErrorCode(await caller.call('GET', `/analyses/${crypto.randomUUID()}`), 404, 'resource_not_found');
    expectErrorCode(
      await caller.call('GET', `/analyses/meeting/${crypto.randomUUID()}`),
      404,
      'resource_not_found',
    );
    expectErrorCode(
      await caller.call('GET', `/analyses/scenario/${crypto.randomUUID()}`),
      404,
      'resource_not_found',
    );
  });

  it('isolates workspaces (404) and honours key scopes (403)', async () => {
    const stranger = await t.workspace();
    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    expectErrorCode(await stranger.call('GET', `/analyses/meeting/${meetingId}`), 404, 'resource_not_found');
    expectErrorCode(await stranger.call('GET', `/analyses/${analysis.id}`), 404, 'resource_not_found');
    expectErrorCode(
      await stranger.call('GET', `/analyses/scenario/${setup.scenarioId}`),
      404,
      'resource_not_found',
    );
    expectErrorCode(await stranger.call('POST', `/analyses/trigger/${meetingId}`), 404, 'resource_not_found');
    assert.deepEqual(ok(await stranger.call('GET', '/analyses')), []);

    const ws = await t.signup();
    const limited = await t.createApiKey(ws, { name: 'memories only', scopes: ['memories:read'] });
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/analyses',
      headers: { authorization: `Bearer ${limited.secret}` },
    });
    expectErrorCode(response, 403, 'insufficient_scope');
    const reader = await t.createApiKey(ws, { name: 'analyses reader', scopes: ['analyses:read'] });
    const trigger = await t.app.inject({
      method: 'POST',
      url: `/v1/analyses/trigger/${meetingId}`,
      headers: { authorization: `Bearer ${reader.secret}` },
    });
    expectErrorCode(trigger, 403, 'insufficient_scope');
  });

  it('keeps the goal definition when the goal is deleted; goal_id becomes null', async () => {
    ok(await caller.call('DELETE', `/goals/${setup.goalIds[0]}`));
    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(analysis.GoalResults[0].goal_id, null);
    assert.equal(analysis.GoalResults[1].goal_id, setup.goalIds[1]);
    const embedded = await loadMeetingAnalysis(t.deps.db, caller.accountId, meetingId);
    assert.equal(embedded?.goal_results[0]?.goal.id, setup.goalIds[0]);
    assert.equal(embedded?.goal_results[0]?.goal.name, INTERVIEW_GOAL_BODIES[0]!.name);
  });
});
