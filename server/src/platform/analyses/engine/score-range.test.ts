import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseScoreRange } from './score-range.ts';

test('parseScoreRange finds the requested range', () => {
  const cases: [string, { min: number; max: number }][] = [
    ['Score 1-10 based on clarity.', { min: 1, max: 10 }],
    ['score 1 - 10', { min: 1, max: 10 }],
    ['Give a score from 0 to 100.', { min: 0, max: 100 }],
    ['0 to 100', { min: 0, max: 100 }],
    ['Rate the answer out of 5.', { min: 0, max: 5 }],
    ['Use a 1–5 scale.', { min: 1, max: 5 }],
    ['Use a 1—7 scale', { min: 1, max: 7 }],
    ['Rate on a 1-5-point scale', { min: 1, max: 5 }],
    ['Give a score between 1 and 7 for structure', { min: 1, max: 7 }],
    ['On a scale of one to ten, how confident were they?', { min: 1, max: 10 }],
    ['Score from 1 (poor) to 5 (excellent).', { min: 1, max: 5 }],
    ['Award 0-10 points for each answer', { min: 0, max: 10 }],
    ['Rate 5-1, five being best', { min: 1, max: 5 }],
  ];
  for (const [instructions, expected] of cases) {
    assert.deepEqual(parseScoreRange(instructions), expected, instructions);
  }
});

test('parseScoreRange prefers the range next to a scoring word over counts', () => {
  assert.deepEqual(parseScoreRange('Ask 2-3 follow-up questions. Score 1-10.'), { min: 1, max: 10 });
  assert.deepEqual(parseScoreRange('Expect 10-15 minutes; score 0-10 points'), { min: 0, max: 10 });
});

test('parseScoreRange defaults to 0-100', () => {
  assert.deepEqual(parseScoreRange(null), { min: 0, max: 100 });
  assert.deepEqual(parseScoreRange(''), { min: 0, max: 100 });
  assert.deepEqual(parseScoreRange('Judge how well they listened.'), { min: 0, max: 100 });
  assert.deepEqual(parseScoreRange('Ask 2-3 follow-up questions.'), { min: 0, max: 100 });
  assert.deepEqual(parseScoreRange('They should answer 3 out of 5 questions'), { min: 0, max: 100 });
  assert.deepEqual(parseScoreRange('Score 10-10'), { min: 0, max: 100 });
});

test('parseScoreRange returns a fresh object', () => {
  const a = parseScoreRange(null);
  a.max = 5;
  assert.deepEqual(parseScoreRange(null), { min: 0, max: 100 });
});
