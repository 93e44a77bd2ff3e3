import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeWords, wordEditDistance, wordErrorRate } from '../../src/platform/speech/wer.ts';

test('word error rate counts substitutions, deletions and insertions per reference word', () => {
  assert.deepEqual(normalizeWords("I've led the team — twice, 'really'!"), [
    "i've",
    'led',
    'the',
    'team',
    'twice',
    'really',
  ]);
  assert.equal(wordErrorRate('I have five years of experience.', 'i have five years of experience'), 0);
  assert.equal(wordErrorRate('leading the support team', 'leading this support team'), 0.25);
  assert.equal(wordErrorRate('leading the support team', 'leading support team'), 0.25);
  assert.equal(wordErrorRate('leading the support team', 'leading the the support team'), 0.25);
  assert.equal(wordErrorRate('a b c d', ''), 1);
  assert.equal(wordErrorRate('', ''), 0);
  assert.equal(wordEditDistance(['a', 'b', 'c'], ['c', 'a', 'b']), 2);
  assert.equal(wordEditDistance(['kitten'], ['sitting']), 1);
});
