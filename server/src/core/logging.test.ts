import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrl } from './logging.ts';

test('credentials in query strings are redacted from logged URLs', () => {
  assert.equal(redactUrl('/room/abc?t=secret-token'), '/room/abc?t=[redacted]');
  assert.equal(redactUrl('/v0/ws?x=1&api_key=aik_123&y=2'), '/v0/ws?x=1&api_key=[redacted]&y=2');
  assert.equal(redactUrl('/v1/goals?limit=10'), '/v1/goals?limit=10');
  assert.equal(redactUrl(undefined), undefined);
});
