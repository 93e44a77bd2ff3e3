import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { generateOpenApiDocuments } from '../../src/app/openapi.ts';
import { openTestDatabase, startPlatform, type TestPlatform } from '../harness.ts';

describe('operations endpoints', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform();
  });
  after(() => t.close());

  test('healthz, readyz and Prometheus metrics', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).json().status, 'ok');
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).json().status, 'ready');
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /http_requests_total\{/);
    assert.match(metrics.body, /process_cpu_user_seconds_total/);
  });

  test('the OpenAPI document is served at /v1/openapi.json', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const doc = response.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/v1/api-secrets'].post);
  });
});

test('/metrics without METRICS_TOKEN answers loopback clients only, not a proxied request', async () => {
  const t = await startPlatform();
  try {
    const local = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    assert.equal(local.statusCode, 200);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode,
      200,
    );
    for (const request of [
      { remoteAddress: '203.0.113.9' },
      { remoteAddress: '10.0.0.4' },
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } },
    ]) {
      const refused = await t.app.inject({ method: 'GET', url: '/metrics', ...request });
      assert.equal(refused.statusCode, 403, JSON.stringify(request));
      assert.equal(refused.json().error.code, 'permission_denied');
      assert.ok(refused.headers['x-request-id']);
      assert.doesNotMatch(refused.body, /http_requests_total/);
    }
  } finally {
    await t.close();
  }
});

test('/metrics with METRICS_TOKEN needs the bearer token, from anywhere', async () => {
  const token = 'metrics-token-0123456789';
  const t = await startPlatform({ env: { METRICS_TOKEN: token } });
  try {
    const get = (headers: Record<string, string>, remoteAddress = '203.0.113.9') =>
      t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    const remote = await get({ authorization: `Bearer ${token}` });
    assert.equal(remote.statusCode, 200);
    assert.match(remote.body, /process_cpu_user_seconds_total/);
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token}x` },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const refused = await get(headers);
      assert.equal(refused.statusCode, 401, JSON.stringify(headers));
      assert.equal(refused.json().error.code, 'unauthorized');
      assert.match(String(refused.headers['www-authenticate']), /^Bearer/);
    }
    // The token is required on loopback too: once set, it is the only way in.
    assert.equal((await get({}, '127.0.0.1')).statusCode, 401);
  } finally {
    await t.close();
  }
});

test('readyz answers 503 once the database is unreachable; healthz still answers', async () => {
  const database = await openTestDatabase();
  const t = await startPlatform({ database });
  try {
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    await database.close();
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(down.statusCode, 503);
    assert.equal(down.json().status, 'unavailable');
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  } finally {
    await t.close();
  }
});

test('the committed OpenAPI documents match what the code generates', async () => {
  const documents = await generateOpenApiDocuments();
  for (const [file, text] of Object.entries(documents)) {
    assert.equal(readFileSync(file, 'utf8'), text, `${file} is stale: run npm run openapi`);
  }
});
