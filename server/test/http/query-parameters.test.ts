// Unknown query parameters on /v1 (docs/api-conventions.md, "Unknown parameters"): every route, the
// public room routes included, answers a misspelt or unknown query parameter with 400 naming it,
// as it does an unknown body field, instead of silently ignoring it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { closeQueryStrings } from '../../src/core/http/query-rules.ts';
import { createValidatorCompiler } from '../../src/core/http/validation.ts';
import { type ApiClient, bearer, ok, startPlatform, type TestPlatform } from '../harness.ts';
import { scenariosSecurity } from '../scenarios/security-fixture.ts';
import { appRoutes, normalise } from '../security.ts';
import { PLATFORM_SECURITY_FIXTURES } from '../security-fixtures.ts';

/** The security fixtures know a body valid for each route: Fastify validates bodies before query strings. */
const FIXTURES = PLATFORM_SECURITY_FIXTURES;

/** The /v1 routes outside the fixtures (public: no API key), each tried with a real room token. */
const PUBLIC_ROUTES: Record<string, { payload?: string; contentType?: string }> = {
  'GET /openapi.json': {},
  'GET /rooms/{}': {},
  'GET /rooms/{}/transcript': {},
  'PUT /rooms/{}/recording': { payload: 'x', contentType: 'video/webm' },
  'PUT /rooms/{}/recording/thumbnail': { payload: 'x', contentType: 'image/jpeg' },
  // Its room token is checked before validation (preValidation): an unknown meeting is a 404 first.
  'GET /rooms/{}/live': {},
  'GET /rooms/{}/results': {},
  'GET /rooms/{}/feedback/catalog': {},
  'PUT /rooms/{}/feedback': json({ rating: 'good' }),
  // Sign-in for the dashboard (no credential needed to be refused).
  'GET /auth/session': {},
  'DELETE /auth/session': {},
  'PUT /auth/session': json({ account_id: 'x' }),
  'POST /auth/session/token': {},
  'GET /practice/{}': {},
  'POST /practice/{}/meetings': {},
  'GET /try/{}': {},
  'POST /try/{}/meetings': json({ name: 'Sam' }),
  'GET /auth/invitations/{}': {},
  'POST /auth/invitations/{}/accept': json({}),
  'POST /auth/sessions': json({ email: 'nobody@example.com', password: 'long enough password' }),
  'POST /auth/signup': json({ email: 'nobody@example.com', password: 'long enough password', name: 'N' }),
  'POST /auth/password-resets': json({ email: 'nobody@example.com' }),
  'POST /auth/password-resets/confirm': json({ token: 'x'.repeat(43), password: 'long enough password' }),
  'GET /auth/providers': {},
  'GET /auth/oidc/start': {},
};

/**
 * The identity provider's redirect back may carry parameters of its own (Entra's `client_info`):
 * the OIDC callback opts out of the closed query string on purpose (`config.openQuery`).
 */
const OPEN_QUERY_ROUTES = new Set(['GET /auth/oidc/callback']);

function json(body: object) {
  return { payload: JSON.stringify(body), contentType: 'application/json' };
}

/** Bodies for the routes whose fixture sends none (the multipart form of create-with-gpt). */
const BOUNDARY = 'query-parameters-test';
const FORMS: Record<string, string> = {
  'POST /scenarios/create-with-gpt': `--${BOUNDARY}\r\nContent-Disposition: form-data; name="userInput"\r\n\r\nA mock interview\r\n--${BOUNDARY}--\r\n`,
};

/**
 * Ids that pass the path and body schemas (the 400 comes before anything is looked up), and a
 * real scenario export, the one body that is not made of ids.
 */
let exported: string;
const anyIds = new Proxy({} as Record<string, string>, {
  get: (_, name) => (name === 'exported' ? exported : randomUUID()),
});

let t: TestPlatform;
let ws: ApiClient;
let room: { id: string; token: string };
before(async () => {
  t = await startPlatform();
  ws = await t.workspace();
  const authored = await scenariosSecurity.setup(ws, t);
  exported = authored.exported!;
  const meeting = ok(await ws.call('POST', '/meetings', { scenario_id: authored.id }), 201).data;
  room = { id: meeting.id, token: meeting.room_token };
});
after(() => t.close());

describe('unknown query parameters on /v1', () => {
  test('every route answers 400 naming the unknown parameter', async () => {
    const tried = new Set<string>();
    const refusals: string[] = [];
    const expectRefused = (route: string, response: Awaited<ReturnType<TestPlatform['app']['inject']>>) => {
      tried.add(normalise(route));
      const body = response.json();
      if (response.statusCode !== 400 || body.error?.param !== 'colour') {
        refusals.push(`${route}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        return;
      }
      assert.equal(body.error.code, 'parameter_invalid', route);
      assert.match(body.error.message, /unknown parameter: colour/, route);
    };
    for (const fixture of FIXTURES) {
      for (const [route, check] of Object.entries(fixture.routes)) {
        const [method, path] = route.split(' ') as [string, string];
        const filled = path.replace(/\{(\w+)\}|\*/g, (_, name: string | undefined) =>
          encodeURIComponent(anyIds[check.params?.[name ?? '*'] ?? name ?? '*']!),
        );
        const query = [check.query?.(anyIds), 'colour=blue'].filter(Boolean).join('&');
        const payload = check.body?.(anyIds);
        const form = FORMS[route];
        const response = await t.app.inject({
          method: method as 'GET',
          url: `/v1${filled}?${query}`,
          headers: {
            ...bearer(ws.token),
            ...(form ? { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } : {}),
          },
          ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
          ...(form ? { payload: form } : {}),
        });
        expectRefused(route, response);
      }
    }
    for (const [route, { payload, contentType }] of Object.entries(PUBLIC_ROUTES)) {
      const [method, path] = route.split(' ') as [string, string];
      const token = path.startsWith('/rooms/') ? `t=${room.token}&` : '';
      const url = `/v1${path.replaceAll('{}', room.id)}?${token}colour=blue`;
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        ...(payload === undefined ? {} : { payload, headers: { 'content-type': contentType! } }),
      });
      expectRefused(route, response);
    }
    assert.deepEqual(refusals, [], 'routes that did not refuse the unknown parameter');
    const untried = appRoutes(t).filter(
      (route) => !tried.has(route) && route !== 'OPTIONS /rooms/*' && !OPEN_QUERY_ROUTES.has(route),
    );
    assert.deepEqual(untried, [], 'every /v1 route is tried');
  });

  test('known parameters still pass, and a CORS preflight keeps its query', async () => {
    const listed = await t.app.inject({
      method: 'GET',
      url: '/v1/personas?limit=5',
      headers: bearer(ws.token),
    });
    assert.equal(listed.statusCode, 200, listed.body);
    // A preflight repeats the URL of the request it precedes (the room's `?t=`), whatever it holds.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/v1/rooms/${randomUUID()}/recording?t=x`,
    });
    assert.equal(preflight.statusCode, 204);
  });

  test('a querystring schema that cannot be closed stops the app from starting', async () => {
    const register = async (querystring: object | undefined) => {
      const app = Fastify();
      app.setValidatorCompiler(createValidatorCompiler());
      closeQueryStrings(app, (url) => url.startsWith('/v1/'));
      app.get('/v1/x', { schema: querystring ? { querystring } : {} }, async (request) => request.query);
      try {
        await app.ready();
        return await app.inject({ method: 'GET', url: '/v1/x?a=1&b=2' });
      } finally {
        await app.close();
      }
    };
    await assert.rejects(register({ anyOf: [{ type: 'object' }] }), /must be an object schema/);
    assert.equal((await register(undefined)).statusCode, 400);
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal((await register(open)).statusCode, 400, 'an open schema is closed');
    const closedOnlyA = await register({
      ...open,
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    });
    assert.deepEqual(closedOnlyA.json(), { a: '1', b: '2' });
  });
});
