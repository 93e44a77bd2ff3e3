import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateGoalsOffline, goalKeywords } from './offline-goal-scoring.ts';
import { parseScoreRange } from './score-range.ts';
import { computeSpeechAnalytics } from './speech-analytics.ts';
import { INTERVIEW_GOALS, STRONG_INTERVIEW, WEAK_INTERVIEW } from './test-fixtures.ts';
import type { GoalDefinition } from './types.ts';

test('a strong interview scores higher than a weak one on every goal', () => {
  const strong = evaluateGoalsOffline(INTERVIEW_GOALS, STRONG_INTERVIEW);
  const weak = evaluateGoalsOffline(INTERVIEW_GOALS, WEAK_INTERVIEW);
  assert.equal(strong.length, INTERVIEW_GOALS.length);
  assert.equal(weak.length, INTERVIEW_GOALS.length);
  INTERVIEW_GOALS.forEach((goal, i) => {
    const range = parseScoreRange(goal.instructions);
    for (const result of [strong[i], weak[i]]) {
      assert.equal(result.goal_id, goal.id);
      assert.equal(result.goal_name, goal.name);
      assert.ok(Number.isInteger(result.score), `${goal.name}: integer score`);
      assert.ok(
        result.score >= range.min && result.score <= range.max,
        `${goal.name}: ${result.score} in range`,
      );
      assert.ok(result.short_description && result.long_description && result.feedback);
    }
    assert.ok(strong[i].score > weak[i].score, `${goal.name}: ${strong[i].score} > ${weak[i].score}`);
  });
});

test('the evaluator is deterministic', () => {
  const first = evaluateGoalsOffline(INTERVIEW_GOALS, STRONG_INTERVIEW);
  const second = evaluateGoalsOffline(structuredClone(INTERVIEW_GOALS), structuredClone(STRONG_INTERVIEW));
  assert.deepEqual(second, first);
  assert.deepEqual(
    evaluateGoalsOffline(INTERVIEW_GOALS, WEAK_INTERVIEW),
    evaluateGoalsOffline(INTERVIEW_GOALS, WEAK_INTERVIEW),
  );
});

test('inactive goals are skipped', () => {
  const goals: GoalDefinition[] = INTERVIEW_GOALS.map((g, i) => ({ ...g, active: i !== 1 }));
  const results = evaluateGoalsOffline(goals, STRONG_INTERVIEW);
  assert.deepEqual(
    results.map((r) => r.goal_id),
    ['goal-clarity', 'goal-questions'],
  );
  assert.deepEqual(evaluateGoalsOffline([{ ...INTERVIEW_GOALS[0], active: false }], STRONG_INTERVIEW), []);
});

test('descriptions quote the participant sentence the score rests on, or say nothing did it', () => {
  const [, depth, questions] = evaluateGoalsOffline(INTERVIEW_GOALS, STRONG_INTERVIEW);
  assert.match(depth.long_description, /Evidence: [^(]+\(\d\d:\d\d\): "/);
  assert.match(depth.feedback, /^What you did: /);
  assert.match(questions.feedback, /"[^"]*\?"/);
  assert.match(depth.long_description, /^Offline rule-based evaluation: \d+ on a 1–10 scale\./);

  const weakQuestions = evaluateGoalsOffline(INTERVIEW_GOALS, WEAK_INTERVIEW)[2];
  assert.match(weakQuestions.feedback, /^None of your sentences did this yet\. Ask more open questions/);
  assert.doesNotMatch(
    JSON.stringify(evaluateGoalsOffline(INTERVIEW_GOALS, WEAK_INTERVIEW)),
    /\bAI\b|into the conversation/,
  );
});

test('no participant speech scores the bottom of the range', () => {
  const agentOnly = STRONG_INTERVIEW.filter((t) => t.speaker === 'agent');
  const results = evaluateGoalsOffline(INTERVIEW_GOALS, agentOnly);
  assert.deepEqual(
    results.map((r) => r.score),
    [1, 1, 1],
  );
  assert.match(results[0].feedback, /No participant speech was captured/);
});

test('goals without a range in their instructions are scored 0-100', () => {
  const goal: GoalDefinition = {
    id: 'g',
    name: 'Explain latency trade-offs',
    description: null,
    instructions: null,
    active: true,
  };
  const [strong] = evaluateGoalsOffline([goal], STRONG_INTERVIEW);
  const [weak] = evaluateGoalsOffline([goal], WEAK_INTERVIEW);
  assert.ok(strong.score > 50 && strong.score <= 100, String(strong.score));
  assert.ok(weak.score >= 0 && weak.score < strong.score, String(weak.score));
});

test('goal keywords drop stop words, scoring boilerplate and evidence words, and are stemmed', () => {
  // "ask" and "questions" name a kind of evidence (questions asked), scored on its own.
  assert.deepEqual(
    goalKeywords(INTERVIEW_GOALS[2]).map((k) => k.stem),
    ['thought', 'interview', 'team', 'system', 'success', 'count', 'genuin', 'role'],
  );
});

test('precomputed speech analytics (over any duration) give the same results', () => {
  for (const turns of [STRONG_INTERVIEW, WEAK_INTERVIEW]) {
    assert.deepEqual(
      evaluateGoalsOffline(INTERVIEW_GOALS, turns, computeSpeechAnalytics(turns, 3600)),
      evaluateGoalsOffline(INTERVIEW_GOALS, turns),
    );
  }
});
