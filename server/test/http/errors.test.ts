import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import { createHttpApp } from '../../src/app/http-app.ts';
import { toAppError } from '../../src/core/http/error-handler.ts';
import { bearer, startPlatform, type TestPlatform, type Workspace } from '../harness.ts';

function assertErrorShape(body: Record<string, any>, status: number, code: string) {
  assert.equal(body.status, 'error');
  assert.equal(typeof body.message, 'string');
  assert.equal(body.error.code, code, `expected ${code} (HTTP ${status}), got ${JSON.stringify(body)}`);
  assert.equal(typeof body.error.type, 'string');
  assert.equal(body.error.message, body.message);
  assert.match(body.error.doc_url, new RegExp(`/docs/errors#${code}$`));
  assert.match(body.request_id, /^req_[0-9a-f]{24}$/);
}

describe('errors and request ids on every response', () => {
  let t: TestPlatform;
  let ws: Workspace;
  before(async () => {
    t = await startPlatform();
    ws = await t.signup();
  });
  after(() => t.close());

  const cases: Array<[string, () => InjectOptions, number, string, string | null]> = [
    [
      'unknown route',
      () => ({ method: 'GET', url: '/v1/unknown', headers: bearer(ws.token) }),
      404,
      'route_not_found',
      null,
    ],
    ['unknown route outside /v1', () => ({ method: 'GET', url: '/nope' }), 404, 'route_not_found', null],
    [
      'wrong method',
      () => ({ method: 'PATCH', url: '/v1/api-secrets', headers: bearer(ws.token) }),
      405,
      'method_not_allowed',
      null,
    ],
    [
      'malformed JSON',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { ...bearer(ws.token), 'content-type': 'application/json' },
        payload: '{"name": ',
      }),
      400,
      'invalid_json',
      'body',
    ],
    [
      'wrong content type',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { ...bearer(ws.token), 'content-type': 'text/csv' },
        payload: 'name\nx',
      }),
      415,
      'unsupported_media_type',
      'Content-Type',
    ],
    [
      'body too large',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { ...bearer(ws.token), 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      }),
      413,
      'payload_too_large',
      'body',
    ],
    [
      'schema violation',
      () => ({ method: 'POST', url: '/v1/api-secrets', headers: bearer(ws.token), payload: { name: 42 } }),
      400,
      'parameter_invalid',
      'name',
    ],
    [
      'unknown field',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: bearer(ws.token),
        payload: { name: 'k', colour: 'red' },
      }),
      400,
      'parameter_invalid',
      'colour',
    ],
    [
      'membership_id in the body',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: bearer(ws.token),
        payload: { name: 'k', membership_id: 'x' },
      }),
      400,
      'parameter_not_allowed',
      'membership_id',
    ],
    [
      'org_id in the body',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: bearer(ws.token),
        payload: { name: 'k', org_id: 'x' },
      }),
      400,
      'parameter_not_allowed',
      'org_id',
    ],
    [
      // PostgreSQL text cannot hold NUL: refused up front rather than failing in the database.
      'a NUL character in a body string',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: bearer(ws.token),
        payload: { name: 'k\u0000' },
      }),
      400,
      'parameter_invalid',
      'name',
    ],
    [
      'a NUL character nested in the body',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: bearer(ws.token),
        payload: { name: 'k', scopes: ['memories:read', 'memories:write\u0000'] },
      }),
      400,
      'parameter_invalid',
      'scopes[1]',
    ],
    [
      // JSON this deep fits in the body limit; walking it must not overflow the stack (a 500).
      'a body nested a hundred thousand levels deep',
      () => ({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { ...bearer(ws.token), 'content-type': 'application/json' },
        payload: `{"name":"k","scopes":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      }),
      400,
      'parameter_invalid',
      // Refused by the depth bound (docs/reliability.md, "Bad input"), naming the parameter.
      'scopes',
    ],
    [
      'a NUL character in the query',
      () => ({ method: 'GET', url: '/v1/api-secrets?cursor=a%00', headers: bearer(ws.token) }),
      400,
      'parameter_invalid',
      'cursor',
    ],
    [
      'a path that is not validly percent-encoded',
      () => ({ method: 'GET', url: '/v1/api-secrets/%zz', headers: bearer(ws.token) }),
      400,
      'invalid_request',
      'path',
    ],
    [
      'an overlong path segment',
      () => ({ method: 'GET', url: `/v1/api-secrets/${'1'.repeat(600)}`, headers: bearer(ws.token) }),
      400,
      'invalid_request',
      'path',
    ],
    ['missing credentials', () => ({ method: 'GET', url: '/v1/api-secrets' }), 401, 'unauthorized', null],
    [
      'unknown route without credentials',
      () => ({ method: 'GET', url: '/v1/unknown' }),
      401,
      'unauthorized',
      null,
    ],
    [
      'malformed authorization header',
      () => ({ method: 'GET', url: '/v1/api-secrets', headers: { authorization: 'Basic abc' } }),
      401,
      'unauthorized',
      null,
    ],
  ];

  for (const [name, request, status, code, param] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const response = await t.app.inject(request());
      assert.equal(response.statusCode, status, response.body);
      assertErrorShape(response.json(), status, code);
      assert.equal(response.json().error.param, param);
      assert.equal(response.headers['x-request-id'], response.json().request_id);
    });
  }

  test('successful responses carry X-Request-Id too; a well-formed incoming one is kept', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/v1/api-secrets', headers: bearer(ws.token) });
    assert.match(String(ok.headers['x-request-id']), /^req_/);
    const traced = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'trace-123' },
    });
    assert.equal(traced.headers['x-request-id'], 'trace-123');
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': '<script>' },
    });
    assert.match(String(hostile.headers['x-request-id']), /^req_/);
  });
});

test('an unexpected failure is a 500 that leaks no internals', async () => {
  const { app } = await createHttpApp({
    logger: pino({ level: 'silent' }),
    publicUrl: 'http://localhost',
    openapi: { title: 't', version: '1', description: 'd', serverPath: '/' },
  });
  app.get('/boom', async () => {
    throw new Error('connection string postgres://secret@db failed at /srv/app/file.ts');
  });
  const response = await app.inject({ method: 'GET', url: '/boom' });
  assert.equal(response.statusCode, 500);
  assertErrorShape(response.json(), 500, 'internal_error');
  assert.ok(!response.body.includes('secret'));
  assert.ok(!response.body.includes('file.ts'));
  await app.close();
});

test('text PostgreSQL cannot store is a 400, whichever way it reached the database', () => {
  for (const code of ['22021', '22P05']) {
    const error = toAppError(
      Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code }),
    );
    assert.equal(error.status, 400, code);
    assert.equal(error.code, 'parameter_invalid', code);
  }
});
