import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leadOfScenarioType } from './conversation-evidence.ts';
import {
  DISCOVERY_DUNNO,
  DISCOVERY_GOALS,
  DISCOVERY_REAL,
  DISCOVERY_STUFFED,
  INTERVIEW_DUNNO,
  INTERVIEW_GOALS,
  INTERVIEW_REAL,
  INTERVIEW_STUFFED,
} from './conversation-fixtures.ts';
import { evaluateGoalsOffline } from './offline-goal-scoring.ts';
import { parseScoreRange } from './score-range.ts';
import { splitSentences } from './text.ts';
import type { GoalDefinition, TranscriptTurn } from './types.ts';

// Issue 13: keyword-stuffed answers without a single question used to score 7/10 on every goal
// (the previous commit pinned that). The rubric now scores what was done, not the words used.

/** Each score as a share of its goal's range (0 = bottom, 1 = top). */
function shares(goals: GoalDefinition[], turns: TranscriptTurn[], type: string | null): number[] {
  return evaluateGoalsOffline(goals, turns, undefined, { lead: leadOfScenarioType(type) }).map((r, i) => {
    const range = parseScoreRange(goals[i]!.instructions);
    return (r.score - range.min) / (range.max - range.min);
  });
}

for (const [name, goals, real, stuffed, dunno, type] of [
  [
    'discovery (requirement gathering)',
    DISCOVERY_GOALS,
    DISCOVERY_REAL,
    DISCOVERY_STUFFED,
    DISCOVERY_DUNNO,
    'roleplay',
  ],
  ['interview', INTERVIEW_GOALS, INTERVIEW_REAL, INTERVIEW_STUFFED, INTERVIEW_DUNNO, 'interview'],
] as const) {
  for (const scenarioType of [type, null]) {
    test(`${name}, lead ${scenarioType ? 'from the scenario type' : 'inferred'}: real > stuffed, ok/dunno at the bottom`, () => {
      const r = shares(goals, real, scenarioType);
      const s = shares(goals, stuffed, scenarioType);
      const d = shares(goals, dunno, scenarioType);
      goals.forEach((goal, i) => {
        assert.ok(r[i]! >= s[i]! + 0.4, `${goal.name}: real ${r[i]} vs stuffed ${s[i]}`);
        assert.ok(s[i]! <= 0.25, `${goal.name}: stuffed ${s[i]} stays low`);
        assert.ok(d[i]! <= 0.15, `${goal.name}: ok/dunno ${d[i]} near the bottom`);
      });
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      assert.ok(mean(r) >= 0.6, `real conversation scores well: ${mean(r)}`);
      assert.ok(mean(r) - mean(s) >= 0.5, `mean margin ${mean(r)} vs ${mean(s)}`);
    });
  }
}

test('a conversation cut short scores between the bottom and the full conversation', () => {
  const lead = leadOfScenarioType('roleplay');
  const total = (turns: TranscriptTurn[]) =>
    evaluateGoalsOffline(DISCOVERY_GOALS, turns, undefined, { lead }).reduce((sum, r) => sum + r.score, 0);
  const partial = total(DISCOVERY_REAL.slice(0, 5));
  assert.ok(partial > total(DISCOVERY_DUNNO) + 4, String(partial));
  assert.ok(partial < total(DISCOVERY_REAL) - 8, String(partial));
});

test('a playback goal needs a playback and next steps: questions alone do not fill it', () => {
  const lead = leadOfScenarioType('roleplay');
  const noPlayback = DISCOVERY_REAL.slice(0, 13);
  const playback = (turns: TranscriptTurn[]) =>
    evaluateGoalsOffline(DISCOVERY_GOALS, turns, undefined, { lead })[3]!.score;
  assert.ok(playback(noPlayback) <= 4, String(playback(noPlayback)));
  assert.ok(playback(DISCOVERY_REAL) >= 6, String(playback(DISCOVERY_REAL)));
});

/** The turns as the pipeline builds them: one stored sentence per sentence, with ids. */
function withIds(turns: TranscriptTurn[]): TranscriptTurn[] {
  let id = 100;
  return turns.map((turn) => ({
    ...turn,
    sentences: splitSentences(turn.message).map((message, k) => ({
      id: ++id,
      message,
      startSeconds: turn.startSeconds + k,
      endSeconds: null,
      input: null,
    })),
  }));
}

test('each goal result lists the sentence ids it rests on', () => {
  const turns = withIds(DISCOVERY_REAL);
  const byId = new Map(turns.flatMap((t) => t.sentences!.map((s) => [s.id, { ...s, speaker: t.speaker }])));
  const results = evaluateGoalsOffline(DISCOVERY_GOALS, turns, undefined, { lead: 'participant' });
  for (const result of results) {
    assert.ok(result.sentence_ids.length > 0, result.goal_name);
    assert.deepEqual(
      result.sentence_ids,
      [...result.sentence_ids].sort((a, b) => a - b),
    );
    for (const id of result.sentence_ids) assert.ok(byId.has(id), `${id} is a transcript sentence`);
  }
  const cited = (i: number) => results[i]!.sentence_ids.map((id) => byId.get(id)!.message);
  // Problem discovery rests on the participant's question about today's planning (never on the
  // persona's answer: only the participant's sentences are cited).
  assert.ok(cited(0).includes('To start, how do your dispatchers plan the routes today?'));
  for (const result of results) {
    for (const id of result.sentence_ids)
      assert.equal(byId.get(id)!.speaker, 'user', `${id} is the participant's`);
  }
  // Playback and next steps rests on the commitment.
  assert.ok(cited(3).some((m) => m.includes('I will send you a written summary by Friday')));

  const stuffed = evaluateGoalsOffline(DISCOVERY_GOALS, withIds(DISCOVERY_STUFFED), undefined, {
    lead: 'participant',
  });
  for (const result of stuffed) assert.deepEqual(result.sentence_ids, [], `${result.goal_name}: no evidence`);
});

test('the texts say the score comes from a fixed rubric and name what was counted', () => {
  const [problem] = evaluateGoalsOffline(DISCOVERY_GOALS, DISCOVERY_REAL, undefined, { lead: 'participant' });
  assert.match(
    problem!.long_description,
    /^Offline rule-based evaluation: \d+ on a 1–10 scale\. A fixed rubric/,
  );
  assert.match(problem!.long_description, /questions asked 100%: \d+ questions/);
  assert.match(problem!.long_description, /facts elicited 100%/);
  const [stuffed] = evaluateGoalsOffline(DISCOVERY_GOALS, DISCOVERY_STUFFED, undefined, {
    lead: 'participant',
  });
  assert.match(stuffed!.short_description, /^Little evidence: 0 facts revealed.*0 questions/);
  assert.match(stuffed!.feedback, /Ask more open questions of your own/);
});
