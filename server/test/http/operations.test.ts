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
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
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
