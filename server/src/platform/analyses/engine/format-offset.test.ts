import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatOffset } from './format-offset.ts';

test('formatOffset pads minutes and seconds', () => {
  assert.equal(formatOffset(0), '00:00');
  assert.equal(formatOffset(5), '00:05');
  assert.equal(formatOffset(65), '01:05');
  assert.equal(formatOffset(599), '09:59');
  assert.equal(formatOffset(600), '10:00');
});

test('formatOffset lets minutes exceed 59', () => {
  assert.equal(formatOffset(4503), '75:03');
  assert.equal(formatOffset(6000), '100:00');
});

test('formatOffset truncates fractions and clamps bad input to zero', () => {
  assert.equal(formatOffset(59.99), '00:59');
  assert.equal(formatOffset(-3), '00:00');
  assert.equal(formatOffset(Number.NaN), '00:00');
  assert.equal(formatOffset(Number.POSITIVE_INFINITY), '00:00');
});
