import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, startPlatform, type TestPlatform } from '../harness.ts';

async function exhaust(t: TestPlatform, token: string, count: number, method: 'GET' | 'POST', url: string) {
  let last: Awaited<ReturnType<TestPlatform['app']['inject']>> | undefined;
  for (let i = 0; i < count; i += 1) {
    last = await t.app.inject({ method, url, headers: bearer(token) });
  }
  return last!;
}

describe('rate limits per API key', () => {
  test('600 requests a minute, with RateLimit-* headers and then 429 + Retry-After', async () => {
    const t = await startPlatform();
    try {
      const ws = await t.signup();
      const key = await t.createApiKey(ws);
      const first = await t.app.inject({ method: 'GET', url: '/v1/probe', headers: bearer(key.secret) });
      assert.equal(first.headers['ratelimit-limit'], '600');
      assert.equal(first.headers['ratelimit-remaining'], '599');
      assert.ok(Number(first.headers['ratelimit-reset']) <= 60);
      const last = await exhaust(t, key.secret, 599, 'GET', '/v1/probe');
      assert.equal(last.statusCode, 404);
      assert.equal(last.headers['ratelimit-remaining'], '0');
      const limited = await t.app.inject({ method: 'GET', url: '/v1/probe', headers: bearer(key.secret) });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      // Another key of the same workspace has its own budget.
      const other = await t.createApiKey(ws, { name: 'second' });
      const fresh = await t.app.inject({ method: 'GET', url: '/v1/probe', headers: bearer(other.secret) });
      assert.equal(fresh.statusCode, 404);
    } finally {
      await t.close();
    }
  });

  test('120 writes a minute; writes show the write budget', async () => {
    const t = await startPlatform();
    try {
      const ws = await t.signup();
      const write = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: bearer(ws.token) });
      assert.equal(write.headers['ratelimit-limit'], '120');
      assert.equal(write.headers['ratelimit-remaining'], '119');
      const last = await exhaust(t, ws.token, 119, 'POST', '/v1/probe');
      assert.notEqual(last.statusCode, 429);
      const limited = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: bearer(ws.token) });
      assert.equal(limited.statusCode, 429);
      const read = await t.app.inject({ method: 'GET', url: '/v1/probe', headers: bearer(ws.token) });
      assert.equal(read.statusCode, 404, 'reads still have budget');
      assert.equal(read.headers['ratelimit-limit'], '600');
    } finally {
      await t.close();
    }
  });

  test('sign-up and log-in have a per-address budget', async () => {
    const t = await startPlatform({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const login = () =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'x@example.com', password: 'whatever!!' },
        });
      for (let i = 0; i < 3; i += 1) await login();
      const limited = await login();
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
    } finally {
      await t.close();
    }
  });

  test('with REDIS_URL two server instances share one budget', {
    skip: !process.env.REDIS_URL && 'needs REDIS_URL',
  }, async () => {
    const a = await startPlatform();
    const b = await startPlatform({ database: a.deps.database });
    try {
      const ws = await a.signup();
      const key = await a.createApiKey(ws);
      await exhaust(a, key.secret, 300, 'GET', '/v1/probe');
      const onB = await exhaust(b, key.secret, 300, 'GET', '/v1/probe');
      assert.equal(onB.headers['ratelimit-remaining'], '0');
      const limited = await a.app.inject({ method: 'GET', url: '/v1/probe', headers: bearer(key.secret) });
      assert.equal(limited.statusCode, 429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
