import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { expectErrorCode, ok, startPlatform, type TestPlatform } from '../harness.ts';
import { type FakeOidcProvider, startFakeOidcProvider } from './fake-oidc.ts';
import { SESSION_COOKIE } from './session.ts';

const PUBLIC_URL = 'http://127.0.0.1:8089';
const setCookies = (response: LightMyRequestResponse) => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
};
const cookieNamed = (response: LightMyRequestResponse, name: string) =>
  setCookies(response).find((line) => line.startsWith(`${name}=`) && !line.startsWith(`${name}=;`));

describe('sign-in through an OpenID Connect provider (authorization code with PKCE)', () => {
  let idp: FakeOidcProvider;
  let t: TestPlatform;
  before(async () => {
    idp = await startFakeOidcProvider();
    t = await startPlatform({
      env: {
        PUBLIC_URL,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_PROVIDER_NAME: 'Fake IdP',
      },
    });
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  /** GET /start: the provider's authorization URL and the login cookie's `name=value`. */
  async function start() {
    const response = await t.app.inject({ method: 'GET', url: '/v1/auth/oidc/start' });
    assert.equal(response.statusCode, 302, response.body);
    const line = cookieNamed(response, 'understudy_oidc');
    assert.ok(line, 'the login cookie');
    return { authorize: new URL(response.headers.location as string), cookie: line.split(';')[0]!, line };
  }

  /** The provider's redirect back to the callback (path and query). */
  async function authorize(url: URL): Promise<URL> {
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302);
    return new URL(response.headers.get('location')!);
  }

  const callback = (back: URL, cookie: string | null) =>
    t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: cookie ? { cookie } : {},
    });

  const signInError = (response: LightMyRequestResponse) => {
    assert.equal(response.statusCode, 302, response.body);
    const match = /^\/#\/sign-in\?error=(\w+)$/.exec(response.headers.location as string);
    assert.ok(match, `redirected to ${response.headers.location}`);
    assert.equal(cookieNamed(response, SESSION_COOKIE), undefined);
    return match[1];
  };

  test('the providers list names the provider', async () => {
    const providers = ok(await t.app.inject({ method: 'GET', url: '/v1/auth/providers' }));
    assert.deepEqual(providers, {
      password: true,
      signup: true,
      oidc: { name: 'Fake IdP', issuer: idp.issuer, start_url: '/v1/auth/oidc/start' },
    });
  });

  test('start → provider → callback signs in with a session cookie and lands on /', async () => {
    const { authorize: url, cookie, line } = await start();
    assert.equal(url.origin + url.pathname, `${idp.issuer}/authorize`);
    const query = url.searchParams;
    assert.equal(query.get('response_type'), 'code');
    assert.equal(query.get('client_id'), idp.clientId);
    assert.equal(query.get('redirect_uri'), `${PUBLIC_URL}/v1/auth/oidc/callback`);
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.match(query.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(query.get('state') && query.get('nonce'));
    assert.match(line, /HttpOnly/);
    assert.match(line, /Secure/);
    assert.match(line, /Path=\/v1\/auth\/oidc/);
    assert.ok(!line.includes(query.get('state')!), 'the state is sealed');

    const response = await callback(await authorize(url), cookie);
    assert.equal(response.statusCode, 302, response.body);
    assert.equal(response.headers.location, '/');
    assert.deepEqual(idp.tokenRequests.at(-1), { verifierMatched: true, clientAuthenticated: true });
    const session = cookieNamed(response, SESSION_COOKIE)!.split(';')[0]!;
    assert.ok(setCookies(response).some((entry) => /^understudy_oidc=;.*Max-Age=0/.test(entry)));
    const body = ok(
      await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie: session } }),
    );
    assert.equal(body.user.email, idp.user.email);
    assert.equal(body.user.name, idp.user.name);
    const scenarios = ok(
      await t.app.inject({ method: 'GET', url: '/v1/scenarios', headers: { cookie: session } }),
    );
    assert.equal(scenarios.data.length, 2, 'a new workspace, seeded');

    // The same subject again: the same user and workspace.
    const again = await start();
    const second = await callback(await authorize(again.authorize), again.cookie);
    const secondSession = cookieNamed(second, SESSION_COOKIE)!.split(';')[0]!;
    const secondBody = ok(
      await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie: secondSession } }),
    );
    assert.equal(secondBody.user.id, body.user.id);
    assert.equal(secondBody.account.id, body.account.id);
  });

  test('the callback accepts parameters the provider adds, and a bad query lands on the sign-in page', async () => {
    const { authorize: url, cookie } = await start();
    const back = await authorize(url);
    back.searchParams.set('client_info', 'x'); // Entra
    back.searchParams.set('client-request-id', 'c0ffee'); // ADFS
    const response = await callback(back, cookie);
    assert.equal(response.statusCode, 302, response.body);
    assert.equal(response.headers.location, '/');

    const again = await start();
    const overlong = await authorize(again.authorize);
    overlong.searchParams.set('state', 's'.repeat(600));
    assert.equal(signInError(await callback(overlong, again.cookie)), 'oidc_state_mismatch');
  });

  test('a callback without its login cookie, or with another state, is refused', async () => {
    const { authorize: url, cookie } = await start();
    const back = await authorize(url);
    assert.equal(signInError(await callback(back, null)), 'oidc_state_mismatch');
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    assert.equal(signInError(await callback(forged, cookie)), 'oidc_state_mismatch');
    t.clock.advance(11 * 60 * 1000);
    assert.equal(
      signInError(await callback(back, cookie)),
      'oidc_state_mismatch',
      'expired after ten minutes',
    );
    t.clock.advance(-11 * 60 * 1000); // back to the provider's time, for the id_tokens of later tests
  });

  test('a code issued for another sign-in fails the PKCE check at the token endpoint', async () => {
    const victim = await start();
    const stolen = await authorize(victim.authorize);
    const attacker = await start();
    const attackerBack = await authorize(attacker.authorize);
    // The attacker's own state and cookie, with the victim's code: the verifier does not match.
    const mixed = new URL(attackerBack);
    mixed.searchParams.set('code', stolen.searchParams.get('code')!);
    assert.equal(signInError(await callback(mixed, attacker.cookie)), 'oidc_exchange_failed');
    assert.equal(idp.tokenRequests.at(-1)!.verifierMatched, false);
  });

  test('the provider refusing, or an id_token with another nonce, ends on the sign-in page', async () => {
    idp.denyWith = 'access_denied';
    try {
      const { authorize: url, cookie } = await start();
      assert.equal(signInError(await callback(await authorize(url), cookie)), 'oidc_denied');
    } finally {
      idp.denyWith = null;
    }
    idp.nonceOverride = 'another-nonce';
    try {
      const { authorize: url, cookie } = await start();
      assert.equal(signInError(await callback(await authorize(url), cookie)), 'oidc_token_invalid');
    } finally {
      idp.nonceOverride = null;
    }
    // The same flow with the right nonce succeeds: the refusal above was the nonce's.
    const { authorize: url, cookie } = await start();
    assert.equal((await callback(await authorize(url), cookie)).headers.location, '/');
  });

  test('without OIDC_CLIENT_ID there is no OIDC sign-in', async () => {
    const plain = await startPlatform({ env: { OIDC_ISSUER: idp.issuer } });
    try {
      expectErrorCode(
        await plain.app.inject({ method: 'GET', url: '/v1/auth/oidc/start' }),
        404,
        'resource_not_found',
      );
      assert.equal(ok(await plain.app.inject({ method: 'GET', url: '/v1/auth/providers' })).oidc, null);
    } finally {
      await plain.close();
    }
  });
});
