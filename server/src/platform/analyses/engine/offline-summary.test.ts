import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatOffset } from './format-offset.ts';
import { evaluateGoalsOffline } from './offline-goal-scoring.ts';
import { summarizeOffline } from './offline-summary.ts';
import { computeSpeechAnalytics } from './speech-analytics.ts';
import { INTERVIEW_GOALS, STRONG_INTERVIEW, WEAK_INTERVIEW } from './test-fixtures.ts';
import type { TranscriptTurn } from './types.ts';

function summarize(
  turns: TranscriptTurn[],
  durationSeconds: number,
  participantName: string | null,
  withGoals = true,
) {
  return summarizeOffline({
    scenarioName: 'Backend engineer interview',
    personaName: 'Morgan',
    participantName,
    turns,
    evaluations: evaluateGoalsOffline(INTERVIEW_GOALS, turns),
    analytics: computeSpeechAnalytics(turns, durationSeconds),
    durationSeconds,
    goals: withGoals ? INTERVIEW_GOALS : undefined,
  });
}

for (const [name, turns, duration] of [
  ['strong', STRONG_INTERVIEW, 180],
  ['weak', WEAK_INTERVIEW, 80],
] as const) {
  test(`summarizeOffline fills every field (${name} interview)`, () => {
    const summary = summarize(turns, duration, 'Priya');
    for (const field of ['title', 'summary', 'call_summary'] as const) {
      assert.ok(summary[field].trim().length > 0, field);
    }
    for (const field of ['strengths', 'growth_areas', 'recommendations', 'highlights'] as const) {
      assert.ok(summary[field].length > 0, field);
    }
    for (const list of [summary.strengths, summary.growth_areas, summary.recommendations]) {
      for (const line of list) assert.ok(line.trim().length > 0 && !line.includes('\n'));
    }
    // Highlight timestamps point at participant turns of this transcript.
    const starts = new Set(
      turns.filter((t) => t.speaker === 'user').map((t) => formatOffset(t.startSeconds)),
    );
    for (const h of summary.highlights) {
      assert.match(h.timestamp, /^\d{2,}:\d{2}$/);
      assert.ok(starts.has(h.timestamp), `${h.timestamp} is a participant turn`);
      assert.ok(h.title.length > 0);
    }
    const times = summary.highlights.map((h) => h.timestamp);
    assert.deepEqual(times, [...times].sort());
    assert.match(summary.summary, /offline rule-based summarizer; no language model was used/);
  });
}

test('summarizeOffline names the people and reports measured facts', () => {
  const strong = summarize(STRONG_INTERVIEW, 180, 'Priya');
  assert.equal(strong.title, 'Backend engineer interview: Priya with Morgan');
  assert.match(strong.summary, /^Priya spoke 239 words over 6 turns in a 3-minute session with Morgan/);
  assert.match(
    strong.summary,
    /Goal scores: Communicate clearly \d+; Demonstrate technical depth \d+; Ask thoughtful/,
  );
  assert.match(strong.call_summary, /Morgan opened with: "Hi, I'm Morgan from the platform team\."/);
  assert.ok(strong.strengths.some((s) => s.startsWith('Asked 3 questions')));
  assert.deepEqual(
    strong.highlights.map((h) => h.timestamp),
    ['00:06', '00:30', '02:22'],
  );

  const weak = summarize(WEAK_INTERVIEW, 80, null);
  assert.equal(weak.title, 'Backend engineer interview with Morgan');
  assert.ok(weak.growth_areas.includes('Asked no questions.'));
  assert.ok(weak.growth_areas.some((g) => g.startsWith('Frequent filler words')));
  assert.ok(weak.recommendations.some((r) => r.startsWith('Focus next on')));
});

test('without goal definitions, scores are listed but not ranked', () => {
  const summary = summarize(WEAK_INTERVIEW, 80, null, false);
  assert.match(summary.summary, /Goal scores:/);
  assert.ok(!summary.recommendations.some((r) => r.startsWith('Focus next on')));
});

test('summarizeOffline handles a silent participant', () => {
  const summary = summarize(
    STRONG_INTERVIEW.filter((t) => t.speaker === 'agent'),
    180,
    null,
  );
  assert.deepEqual(summary.highlights, []);
  assert.deepEqual(summary.strengths, ['None identified: the participant did not speak.']);
  assert.ok(summary.growth_areas.includes('No participant speech was captured.'));
});

test('summarizeOffline is deterministic', () => {
  assert.deepEqual(summarize(STRONG_INTERVIEW, 180, 'Priya'), summarize(STRONG_INTERVIEW, 180, 'Priya'));
});
