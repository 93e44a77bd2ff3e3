import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAllowedOrigin } from './origin.ts';

test('Origin: PUBLIC_URL host and loopback-to-loopback pass; a rebinding page does not', () => {
  const publicUrl = 'https://api.example.com';
  assert.equal(isAllowedOrigin(undefined, 'api.example.com', publicUrl), true);
  assert.equal(isAllowedOrigin('https://api.example.com', 'api.example.com', publicUrl), true);
  // DNS rebinding: the attacker's name is both the page's origin and the Host it sends.
  assert.equal(isAllowedOrigin('http://evil.example:8080', 'evil.example:8080', publicUrl), false);
  assert.equal(isAllowedOrigin('http://localhost:6274', '127.0.0.1:8080', publicUrl), true);
  assert.equal(isAllowedOrigin('http://localhost:6274', '[::1]:8080', publicUrl), true);
  assert.equal(isAllowedOrigin('http://localhost:6274', 'api.example.com', publicUrl), false);
  assert.equal(isAllowedOrigin('not a url', 'api.example.com', publicUrl), false);
});
