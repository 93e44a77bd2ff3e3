import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import bcrypt from 'bcryptjs';
import { decodeJwt, SignJWT } from 'jose';
import { DUMMY_HASH, PASSWORD_COST } from '../../src/platform/identity/service.ts';
import { bearer, startPlatform, type TestPlatform } from '../harness.ts';

describe('identity: sign-up, log-in, user tokens', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform();
  });
  after(() => t.close());

  test('sign-up answers 201 with token, user and account, and the token works on /v1', async () => {
    const email = `signup-${Date.now()}@example.com`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email, password: 'long enough password', name: 'Ada' },
    });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.equal(body.user.email, email);
    assert.equal(body.user.name, 'Ada');
    assert.match(body.account.id, /^[0-9a-f-]{36}$/);
    assert.equal(typeof body.token, 'string');
    assert.ok(!JSON.stringify(body).includes('long enough password'));
    const list = await t.app.inject({ method: 'GET', url: '/v1/api-secrets', headers: bearer(body.token) });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().data, []);
  });

  test('the same email cannot sign up twice; bad input names the param', async () => {
    const ws = await t.signup();
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: ws.email.toUpperCase(), password: 'another password', name: 'X' },
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.param, 'email');
    const short = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'a@example.com', password: 'short', name: 'X' },
    });
    assert.equal(short.statusCode, 400);
    assert.equal(short.json().error.param, 'password');
  });

  test('log-in returns a token for the right password and one 401 for any wrong input', async () => {
    const ws = await t.signup();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ws.email, password: 'correct horse battery' },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(decodeJwt(ok.json().token).acct, ws.accountId);
    for (const payload of [
      { email: ws.email, password: 'wrong password!' },
      { email: 'nobody@example.com', password: 'correct horse battery' },
    ]) {
      const refused = await t.app.inject({ method: 'POST', url: '/auth/login', payload });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().error.code, 'invalid_credentials');
    }
  });

  test('JWKS publishes the verification key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    assert.equal(response.statusCode, 200);
    const [key] = response.json().keys;
    assert.equal(key.kty, 'EC');
    assert.equal(key.alg, 'ES256');
    assert.equal(key.d, undefined, 'no private part');
  });

  test('an expired token, a tampered token and a token signed by someone else get 401', async () => {
    const ws = await t.signup();
    const [header, payload, signature] = ws.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, acct: '00000000-0000-0000-0000-000000000000' }),
    ).toString('base64url');
    const foreign = await new SignJWT({ acct: ws.accountId, mid: ws.membershipId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(ws.userId)
      .setIssuer(t.deps.config.publicUrl)
      .setAudience('understudy')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a guessed secret that is long enough'));
    for (const token of [`${header}.${forged}.${signature}`, foreign, 'not-a-token']) {
      const response = await t.app.inject({ method: 'GET', url: '/v1/api-secrets', headers: bearer(token) });
      assert.equal(response.statusCode, 401, token);
    }
    t.clock.advance(13 * 60 * 60 * 1000);
    const expired = await t.app.inject({ method: 'GET', url: '/v1/api-secrets', headers: bearer(ws.token) });
    assert.equal(expired.statusCode, 401);
  });
});

test('the hash an unknown e-mail is compared against costs what a real one does', () => {
  assert.equal(bcrypt.getRounds(DUMMY_HASH), PASSWORD_COST);
  assert.equal(bcrypt.compareSync('not-a-real-password', DUMMY_HASH), true);
});

describe('identity: sign-up is off in production unless enabled', () => {
  test('403 signup_disabled', async () => {
    const t = await startPlatform({ env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com' } });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'p@example.com', password: 'long enough password', name: 'P' },
      });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().error.code, 'signup_disabled');
    } finally {
      await t.close();
    }
  });
});
