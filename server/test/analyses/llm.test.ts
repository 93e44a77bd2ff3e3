import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { computeSpeechAnalytics } from '../../src/platform/analyses/engine/speech-analytics.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { loadMeetingAnalysis } from '../../src/platform/analyses/service.ts';
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

describe('analysis with an LLM (local OpenAI-compatible server)', () => {
  let llm: FakeLlm;
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    llm = await FakeLlm.start();
    t = await startAnalysisPlatform({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' } });
    caller = await t.workspace();
    setup = await createScenario(caller, { sessionOptions: { memory_enabled: true } });
  });
  after(async () => {
    await t.close();
    await llm.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  const facts = () =>
    JSON.stringify({ facts: ['Works at Finlytics as a backend engineer.', 'Leads a team of four.'] });

  it('scores goals and writes summaries from a structured reply; speech analytics stay local', async () => {
    llm.respond = (request) =>
      request.response_format?.json_schema?.name === 'participant_facts'
        ? { content: facts() }
        : { content: validAnalysis(request) };
    const { meetingId, participantId } = await insertEndedMeeting(
      t,
      caller.accountId,
      setup.scenarioId,
      STRONG_INTERVIEW,
      { durationSeconds: 180 },
    );
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');

    const [request] = llm.ofSchema('meeting_analysis');
    assert.ok(request);
    assert.equal(request.model, 'test-model');
    assert.equal(request.response_format?.type, 'json_schema');
    const prompt = request.messages.find((m) => m.role === 'user')!.content!;
    assert.match(prompt, /\[00:30\] Priya Raman \(participant\): Our checkout API/);
    assert.match(prompt, /"score_min":1,"score_max":5/);

    const analysis = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));
    assert.equal(analysis.evaluator, 'llm');
    assert.equal(analysis.title, 'Backend screen with Priya');
    assert.deepEqual(analysis.strengths, ['Concrete numbers', 'Clear trade-off reasoning']);
    assert.deepEqual(
      analysis.GoalResults.map((r: { score: number }) => r.score),
      [10, 10, 5],
    );
    assert.equal(analysis.GoalResults[0].feedback, 'Model feedback for Communicate clearly.');
    assert.equal(analysis.total_score, 25);
    const local = computeSpeechAnalytics(STRONG_INTERVIEW, 180);
    assert.deepEqual(analysis.filler_words, local.filler_words);
    assert.deepEqual(analysis.weak_words, local.weak_words);
    assert.deepEqual(analysis.repetitions, local.repetitions);
    assert.deepEqual(analysis.sentence_starters, local.sentence_starters);
    const embedded = await loadMeetingAnalysis(t.deps.db, caller.accountId, meetingId);
    assert.equal(embedded?.goal_results[0]?.short_description, 'Model: strong on Communicate clearly');

    // Memory write-back from the model's facts, into the participant's default container.
    const memories = await t.deps.db
      .selectFrom('memories')
      .selectAll()
      .where('account_id', '=', caller.accountId)
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      memories.map((m) => [m.user_memory_tag, m.content, m.source, m.source_meeting_id]),
      [
        [`participant:${participantId}`, 'Works at Finlytics as a backend engineer.', 'meeting', meetingId],
        [`participant:${participantId}`, 'Leads a team of four.', 'meeting', meetingId],
      ],
    );
  });

  it('repairs a malformed reply with one more round', async () => {
    llm.respond = (request, index) => {
      if (request.response_format?.json_schema?.name === 'participant_facts') return { content: facts() };
      if (index === 0) return { content: 'Sure! The participant did great overall.' };
      return { content: validAnalysis(request) };
    };
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    const calls = llm.ofSchema('meeting_analysis');
    assert.equal(calls.length, 2);
    const repair = calls[1]!.messages.at(-1)!;
    assert.equal(repair.role, 'user');
    assert.match(repair.content!, /not a JSON object/);
    assert.equal(ok(await caller.call('GET', `/analyses/meeting/${meetingId}`)).evaluator, 'llm');
  });

  it('repairs a reply that leaves a goal out or scores outside its range', async () => {
    llm.respond = (request, index) => {
      if (request.response_format?.json_schema?.name === 'participant_facts')
        return { content: '{"facts":[]}' };
      if (index > 0) return { content: validAnalysis(request) };
      const reply = JSON.parse(validAnalysis(request));
      reply.goal_results[0].score = 42;
      reply.goal_results.pop();
      return { content: JSON.stringify(reply) };
    };
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
    const repair = llm.ofSchema('meeting_analysis')[1]!.messages.at(-1)!.content!;
    assert.match(repair, /score must be between 1 and 10/);
    assert.match(repair, /misses goal/);
  });

  // A reply still malformed after the repair: the offline evaluator writes the analysis
  // (server/test/analysis/llm-fallback.test.ts).

  it('retries a model that is down, keeping the meeting in processing, then fails after the last attempt', async () => {
    llm.respond = () => ({ status: 503, body: '{"error":"overloaded"}' });
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    const runner = analysisRunner(t);
    for (const wait of [5_000, 10_000, 20_000]) {
      assert.deepEqual(
        (await runner.runOnce()).map((r) => r.outcome),
        ['retrying'],
      );
      assert.equal((await meetingRow(t, meetingId)).analysis_status, 'processing');
      t.clock.advance(wait);
    }
    assert.deepEqual(
      (await runner.runOnce()).map((r) => r.outcome),
      ['succeeded'],
    );
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'failed');
    const failed = (await eventsOf(t, meetingId)).find((e) => e.event === 'analysis.failed');
    assert.ok(failed);
    assert.equal((failed.data as { error: string }).error, 'The language model answered with HTTP 503.');

    // Once the model is back, a re-trigger completes it.
    llm.respond = (request) =>
      request.response_format?.json_schema?.name === 'participant_facts'
        ? { content: facts() }
        : { content: validAnalysis(request) };
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await runner.drain();
    assert.equal((await meetingRow(t, meetingId)).analysis_status, 'completed');
  });
});
