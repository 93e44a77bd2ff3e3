import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mintRequestId } from './request-id.ts';

test('request ids are req_ and 24 hex digits, none alike across refills of their pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5_000; i++) {
    const id = mintRequestId();
    assert.match(id, /^req_[0-9a-f]{24}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5_000);
});
