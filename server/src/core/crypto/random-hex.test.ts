import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomHex } from './random-hex.ts';

test('randomHex gives ids of the asked length, none alike, across refills of its pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5_000; i++) {
    const id = randomHex(12);
    assert.match(id, /^[0-9a-f]{24}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5_000);
  assert.match(randomHex(5_000), /^[0-9a-f]{10000}$/);
});
