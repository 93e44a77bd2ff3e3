import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { bearer, OWN_COUNTERS, startPlatform, type TestPlatform } from '../harness.ts';

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

  test('every /v1 response carries RateLimit-*: 401s, 404s, public routes and authenticated calls', async () => {
    const t = await startPlatform();
    try {
      const ws = await t.signup();
      const key = await t.createApiKey(ws);
      const scoped = await t.createApiKey(ws, { name: 'memories only', scopes: ['memories:read'] });
      const cases: Array<{
        name: string;
        status: number;
        method?: 'GET' | 'POST';
        url: string;
        token?: string;
      }> = [
        { name: 'authenticated call', status: 200, url: '/v1/personas', token: key.secret },
        { name: 'authenticated 404', status: 404, url: '/v1/no-such-thing', token: key.secret },
        { name: 'key without the scope', status: 403, url: '/v1/personas', token: scoped.secret },
        { name: 'no credentials', status: 401, url: '/v1/personas' },
        { name: 'unknown key', status: 401, url: '/v1/personas', token: `svc_${'0'.repeat(64)}` },
        { name: 'unknown route without credentials', status: 401, url: '/v1/no-such-thing' },
        { name: 'room route (unknown meeting)', status: 404, url: `/v1/rooms/${randomUUID()}?t=x` },
        { name: 'the API description', status: 200, url: '/v1/openapi.json' },
        { name: 'JWKS', status: 200, url: '/.well-known/jwks.json' },
        { name: 'log-in', status: 401, method: 'POST', url: '/auth/login' },
      ];
      for (const { name, status, method = 'GET', url, token } of cases) {
        const response = await t.app.inject({
          method,
          url,
          headers: token ? bearer(token) : {},
          ...(method === 'POST'
            ? { payload: { email: 'nobody@example.com', password: 'not the one!' } }
            : {}),
        });
        assert.equal(response.statusCode, status, `${name}: ${response.body}`);
        for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
          assert.match(String(response.headers[header]), /^\d+$/, `${name} carries ${header}`);
        }
      }
    } finally {
      await t.close();
    }
  });

  test('requests without a valid credential spend a per-address budget, then 429', async () => {
    const t = await startPlatform({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '3', ...OWN_COUNTERS } });
    try {
      const ws = await t.signup();
      const anonymous = [
        () => t.app.inject({ method: 'GET', url: '/v1/personas' }),
        () => t.app.inject({ method: 'GET', url: '/v1/personas', headers: bearer(`svc_${'1'.repeat(64)}`) }),
        () => t.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
      ];
      const remaining = [];
      for (const call of anonymous) {
        const response = await call();
        assert.equal(response.headers['ratelimit-limit'], '3');
        remaining.push(response.headers['ratelimit-remaining']);
      }
      assert.deepEqual(remaining, ['2', '1', '0'], 'one budget for 401s and public routes alike');
      const limited = await t.app.inject({ method: 'GET', url: `/v1/rooms/${randomUUID()}` });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      // A valid credential from the same address spends its own budget.
      const authenticated = await t.app.inject({
        method: 'GET',
        url: '/v1/personas',
        headers: bearer(ws.token),
      });
      assert.equal(authenticated.statusCode, 200);
      assert.equal(authenticated.headers['ratelimit-limit'], '600');
    } finally {
      await t.close();
    }
  });

  test('per-address budgets count the client behind TRUST_PROXY_HOPS proxies, and ignore X-Forwarded-For without', async () => {
    const call = (t: TestPlatform, forwardedFor: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v1/openapi.json',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    const proxied = await startPlatform({
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY_HOPS: '1', ...OWN_COUNTERS },
    });
    try {
      assert.equal((await call(proxied, '203.0.113.1')).statusCode, 200);
      assert.equal((await call(proxied, '203.0.113.1')).statusCode, 429);
      assert.equal((await call(proxied, '198.51.100.7, 203.0.113.2')).statusCode, 200, 'the nearest hop');
    } finally {
      await proxied.close();
    }
    const direct = await startPlatform({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '1', ...OWN_COUNTERS } });
    try {
      assert.equal((await call(direct, '203.0.113.1')).statusCode, 200);
      assert.equal((await call(direct, '203.0.113.9')).statusCode, 429, 'a forged header buys no budget');
    } finally {
      await direct.close();
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
