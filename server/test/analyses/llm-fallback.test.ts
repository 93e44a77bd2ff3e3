import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { OFFLINE_FALLBACK_REASON } from '../../src/platform/analyses/pipeline.ts';
import { FakeLlm, validAnalysis } from '../fixtures/analysis-llm.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';
import {
  analysisRunner,
  createScenario,
  eventsOf,
  insertEndedMeeting,
  meetingRow,
  type ScenarioSetup,
  startAnalysisPlatform,
} from './helpers.ts';

// When the platform model's analysis still breaks the schema after its repair round, the offline
// evaluator writes the analysis (marked as such) instead of leaving the meeting with none.
describe('analysis: offline fallback after an invalid model reply', () => {
  let llm: FakeLlm;
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    llm = await FakeLlm.start();
    t = await startAnalysisPlatform({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' } });
    caller = await t.workspace();
    setup = await createScenario(caller);
  });
  after(async () => {
    await t.close();
    await llm.close();
  });

  it('completes with the offline evaluator, says why, and cites sentences', async () => {
    llm.respond = () => ({ content: '{"title": "only a title"}' });
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    const ran = await analysisRunner(t).drain();
    assert.deepEqual(
      ran.map((r) => r.outcome),
      ['succeeded'],
    );
    assert.equal(llm.ofSchema('meeting_analysis').length, 2, 'one attempt and one repair');
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    assert.deepEqual(
      (await eventsOf(t, meetingId)).map((e) => e.event),
      ['transcript.ready', 'session.analysis_complete'],
    );

    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(analysis.evaluator, 'offline');
    assert.equal(analysis.evaluator_reason, OFFLINE_FALLBACK_REASON);
    assert.match(analysis.evaluator_reason, /did not return a valid analysis/);
    assert.match(analysis.summary, /offline rule-based summarizer/);
    assert.equal(analysis.GoalResults.length, 3);
    for (const result of analysis.GoalResults) {
      assert.ok(result.score >= 1, 'scored by the rubric');
      assert.ok(Array.isArray(result.sentence_ids));
    }
    assert.ok(analysis.GoalResults.some((r: { sentence_ids: number[] }) => r.sentence_ids.length > 0));

    // The cited ids are sentences of this meeting's transcript.
    const meeting = ok(await caller.call('GET', `/meetings/${meetingId}`)).data;
    const ids = new Set(meeting.sentenced_transcripts.map((s: { id: number }) => s.id));
    for (const result of meeting.analysis.goal_results) {
      for (const id of result.sentence_ids) assert.ok(ids.has(id), `sentence ${id} belongs to the meeting`);
    }
    assert.equal(meeting.analysis.evaluator_reason, OFFLINE_FALLBACK_REASON);
  });

  it('a valid model reply leaves evaluator_reason null and sentence_ids empty', async () => {
    llm.respond = (request) =>
      request.response_format?.json_schema?.name === 'participant_facts'
        ? { content: '{"facts":[]}' }
        : { content: validAnalysis(request) };
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(analysis.evaluator, 'llm');
    assert.equal(analysis.evaluator_reason, null);
    assert.deepEqual(analysis.GoalResults[0].sentence_ids, []);
  });
});
