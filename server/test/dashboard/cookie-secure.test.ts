// The session cookies' Secure flag follows PUBLIC_URL: a browser drops a Secure cookie set over
// plain http to a non-loopback host, so there it must be left off or sign-in never works.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cookiesSecure, cookieWriter } from '../../src/platform/sessions/cookies.ts';

test('Secure when PUBLIC_URL is https or loopback, not on plain http elsewhere', () => {
  for (const url of [
    'https://understudy.example.com',
    'https://devbox:8443',
    'http://localhost:8080',
    'http://app.localhost',
    'http://127.0.0.1:8080',
    'http://[::1]:8080',
  ]) {
    assert.equal(cookiesSecure(url), true, url);
  }
  for (const url of ['http://devbox:8080', 'http://192.168.1.20', 'http://understudy.example.com']) {
    assert.equal(cookiesSecure(url), false, url);
  }
});

test('the written cookies carry Secure only when asked to', () => {
  assert.match(cookieWriter(true).session('t', 60), /; Secure/);
  assert.doesNotMatch(cookieWriter(false).session('t', 60), /Secure/);
  assert.doesNotMatch(cookieWriter(false).oidc('s', 60), /Secure/);
  assert.match(cookieWriter(false).cleared('x'), /HttpOnly/);
});
