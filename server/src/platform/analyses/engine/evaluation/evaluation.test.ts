// The offline analysis on the hand-scored conversations (issue 27): prints how far it is from the
// team lead's bands and asserts the quality goal (QUALITY_GOAL_WITHIN_BAND, 85% of goals within
// band) and the feedback, highlight and citation goals. Run alone:
// `npm test -- analyses/engine/evaluation`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONVERSATIONS, SCENARIOS } from './conversations.ts';
import { checkSet, formatReport, measure, QUALITY_GOAL_WITHIN_BAND } from './measure.ts';

test('the evaluation set is large and varied enough, and every goal has a band', () => {
  assert.ok(CONVERSATIONS.length >= 30, `${CONVERSATIONS.length} conversations`);
  const kinds = new Set(CONVERSATIONS.map((c) => c.scenario.kind));
  assert.ok(kinds.size >= 6, `${kinds.size} kinds`);
  assert.ok(SCENARIOS.length >= 8, `${SCENARIOS.length} scenarios`);
  for (const conversation of CONVERSATIONS) {
    for (const goal of conversation.scenario.goals) {
      assert.ok(conversation.bands[goal.id], `${conversation.id}: band for ${goal.id}`);
    }
  }
  assert.deepEqual(checkSet(), []);
});

test('the offline analysis meets the quality goal against the hand-scored bands', () => {
  const report = measure();
  console.log(`\n${formatReport(report)}\n`);
  const share = report.total.within / report.total.goals;
  console.log(`Within band: ${(share * 100).toFixed(1)}% (quality goal ${QUALITY_GOAL_WITHIN_BAND * 100}%).`);
  assert.ok(
    share >= QUALITY_GOAL_WITHIN_BAND,
    `${(share * 100).toFixed(1)}% within band, goal ${QUALITY_GOAL_WITHIN_BAND * 100}%`,
  );
  assert.equal(report.total.quotesGoal, 0, "feedback hands back the goal's words");
  assert.equal(report.total.claimsNoEvidence, 0, 'feedback claims no evidence for a met goal');
  assert.equal(report.total.trivialHighlights, 0, 'trivial highlights');
  assert.equal(
    report.total.citedPersona + report.total.citedMissing,
    0,
    'persona or unknown sentence ids cited',
  );
  assert.equal(
    report.total.goals,
    CONVERSATIONS.reduce((n, c) => n + c.scenario.goals.length, 0),
  );
});
