import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DISCOVERY_GOALS, DISCOVERY_STUFFED } from './conversation-fixtures.ts';
import { evaluateGoalsOffline } from './offline-goal-scoring.ts';

// Issue 13: the offline evaluator can be gamed. Reproduced here before the rubric changes.
test('keyword-stuffed answers without a single question score 7/10 on every goal', () => {
  const scores = evaluateGoalsOffline(DISCOVERY_GOALS, DISCOVERY_STUFFED).map((r) => r.score);
  assert.deepEqual(scores, [7, 7, 7, 7]);
});
