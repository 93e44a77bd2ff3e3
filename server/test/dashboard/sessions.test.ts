import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { bearer, expectErrorCode, ok, startPlatform, type TestPlatform } from '../harness.ts';
import { createSessionCookie, freshCredentials, SESSION_COOKIE } from './session.ts';

const HOUR = 60 * 60 * 1000;
const setCookies = (header: string | string[] | undefined) =>
  header === undefined ? [] : Array.isArray(header) ? header : [header];

describe('dashboard sessions: the session cookie is one more credential of /v1', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform();
  });
  after(() => t.close());

  const get = (url: string, cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  test('sign-up starts a session: a Secure HttpOnly Lax cookie whose token is stored only as its SHA-256', async () => {
    const credentials = freshCredentials('signup');
    const response = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: credentials });
    const body = ok(response, 201);
    assert.equal(body.user.email, credentials.email);
    assert.equal(body.user.name, credentials.name);
    assert.equal(typeof body.account.id, 'string');
    assert.equal(typeof body.csrf_token, 'string');
    const [line] = setCookies(response.headers['set-cookie']);
    assert.match(line!, new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/', 'Max-Age=604800']) {
      assert.ok(line!.includes(attribute), `${attribute} in ${line}`);
    }
    const token = line!.split(';')[0]!.split('=')[1]!;
    const rows = await t.deps.db
      .selectFrom('user_sessions')
      .selectAll()
      .where('user_id', '=', body.user.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.token_hash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(rows).includes(token));
  });

  test('GET /v1/auth/session answers the session (same csrf_token) or 401', async () => {
    const session = await createSessionCookie(t.app, freshCredentials());
    const body = ok(await get('/v1/auth/session', session.cookie));
    assert.equal(body.user.id, session.user.id);
    assert.equal(body.account.id, session.account.id);
    assert.equal(body.csrf_token, session.csrfToken);
    expectErrorCode(await t.app.inject({ method: 'GET', url: '/v1/auth/session' }), 401, 'unauthorized');
    const forged = await get('/v1/auth/session', `${SESSION_COOKIE}=${'A'.repeat(43)}`);
    expectErrorCode(forged, 401, 'unauthorized');
    assert.match(String(forged.headers['set-cookie']), /Max-Age=0/);
  });

  test('the cookie authenticates /v1 reads as the user, with no permissive CORS', async () => {
    const session = await createSessionCookie(t.app, freshCredentials());
    const scenarios = await get('/v1/scenarios', session.cookie, { origin: 'https://evil.example' });
    assert.equal(ok(scenarios).data.length, 2, 'the seeded two');
    assert.equal(scenarios.headers['access-control-allow-origin'], undefined);
    assert.equal(scenarios.headers['access-control-allow-credentials'], undefined);
    expectErrorCode(await get('/v1/scenarios', `${SESSION_COOKIE}=nope`), 401, 'unauthorized');
  });

  test('cookie writes need X-CSRF-Token and the same site; bearer writes do not', async () => {
    const session = await createSessionCookie(t.app, freshCredentials());
    const create = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { cookie: session.cookie, ...headers },
        payload: { name: 'from the dashboard' },
      });
    const missing = expectErrorCode(await create({}), 403, 'csrf_token_invalid');
    assert.equal(missing.error.param, 'X-CSRF-Token');
    expectErrorCode(await create({ 'x-csrf-token': `${session.csrfToken}x` }), 403, 'csrf_token_invalid');
    const good = { 'x-csrf-token': session.csrfToken };
    const crossOrigin = await create({ ...good, origin: 'https://evil.example' });
    expectErrorCode(crossOrigin, 403, 'csrf_token_invalid');
    assert.ok(crossOrigin.headers['ratelimit-limit'], 'the refusal still carries the budget');
    expectErrorCode(await create({ ...good, 'sec-fetch-site': 'cross-site' }), 403, 'csrf_token_invalid');
    // A user-token-only route: the cookie is the user's credential.
    const created = ok(
      await create({ ...good, origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' }),
      201,
    );
    assert.match(created.data.secret, /^svc_/);

    // An API key sent alongside a cookie: the Authorization header wins and needs no CSRF token.
    const withKey = await t.app.inject({
      method: 'POST',
      url: '/v1/personas',
      headers: { ...bearer(created.data.secret), cookie: session.cookie },
      payload: { name: 'Keyed', description: 'made with the key' },
    });
    assert.notEqual(withKey.statusCode, 403, withKey.body);
    // A wrong Authorization header is not rescued by the cookie.
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/v1/scenarios',
      headers: { ...bearer('svc_wrong'), cookie: session.cookie },
    });
    expectErrorCode(wrong, 401, 'invalid_api_key');
  });

  test('sign-in with e-mail and password; wrong password and cross-site sign-in refused', async () => {
    const credentials = freshCredentials();
    await createSessionCookie(t.app, credentials);
    const signIn = (payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/sessions', payload: payload as object, headers });
    expectErrorCode(
      await signIn({ email: credentials.email, password: 'not the password' }),
      401,
      'invalid_credentials',
    );
    expectErrorCode(
      await signIn(
        { email: credentials.email, password: credentials.password },
        { 'sec-fetch-site': 'cross-site' },
      ),
      403,
      'csrf_token_invalid',
    );
    const again = await createSessionCookie(t.app, credentials);
    assert.equal(ok(await get('/v1/auth/session', again.cookie)).user.email, credentials.email);
    const upper = ok(
      await signIn({ email: credentials.email.toUpperCase(), password: credentials.password }),
      201,
    );
    assert.equal(upper.user.email, credentials.email);
  });

  test('sign-out needs the CSRF token, deletes the session and clears the cookie', async () => {
    const session = await createSessionCookie(t.app, freshCredentials());
    const signOut = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'DELETE',
        url: '/v1/auth/session',
        headers: { cookie: session.cookie, ...headers },
      });
    expectErrorCode(await signOut({}), 403, 'csrf_token_invalid');
    const response = await signOut({ 'x-csrf-token': session.csrfToken });
    assert.equal(response.statusCode, 204);
    assert.match(String(response.headers['set-cookie']), new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`));
    expectErrorCode(await get('/v1/auth/session', session.cookie), 401, 'unauthorized');
    expectErrorCode(await get('/v1/scenarios', session.cookie), 401, 'unauthorized');
    // Signing out twice (another tab) is not an error.
    assert.equal((await signOut({ 'x-csrf-token': session.csrfToken })).statusCode, 204);
  });

  test('sliding expiry of 12 hours, at most 7 days after sign-in', async () => {
    const session = await createSessionCookie(t.app, freshCredentials());
    const alive = async () => (await get('/v1/auth/session', session.cookie)).statusCode === 200;
    // Used every 11 hours, it lives on past 12 hours (15 × 11 h = 165 h) …
    for (let step = 1; step <= 15; step += 1) {
      t.clock.advance(11 * HOUR);
      assert.ok(await alive(), `alive after ${step * 11} h`);
    }
    // … but not past the absolute lifetime of 168 hours.
    t.clock.advance(4 * HOUR);
    assert.equal(await alive(), false);

    const idle = await createSessionCookie(t.app, freshCredentials());
    t.clock.advance(12 * HOUR + 1000);
    expectErrorCode(await get('/v1/auth/session', idle.cookie), 401, 'unauthorized');
  });

  test('sign-up is refused when disabled', async () => {
    const closed = await startPlatform({ env: { SIGNUP_ENABLED: 'false' } });
    try {
      const response = await closed.app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        payload: freshCredentials(),
      });
      expectErrorCode(response, 403, 'signup_disabled');
      const providers = ok(await closed.app.inject({ method: 'GET', url: '/v1/auth/providers' }));
      assert.deepEqual(providers, { password: true, signup: false, oidc: null });
    } finally {
      await closed.close();
    }
  });
});
