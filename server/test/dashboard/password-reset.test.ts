import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectErrorCode, ok, startPlatform, type TestPlatform } from '../harness.ts';
import { createSessionCookie, freshCredentials } from './session.ts';

/** Collects what the platform logs at info level (the reset links). */
function captureInfo(t: TestPlatform): string[] {
  const lines: string[] = [];
  const logger = t.deps.logger as unknown as { info: (...args: unknown[]) => void };
  logger.info = (...args: unknown[]) => {
    // Strings and the reset's own fields; Fastify's request logs carry circular objects.
    const fields = args.map((arg) =>
      typeof arg === 'string' ? arg : String((arg as { reset_url?: unknown })?.reset_url ?? ''),
    );
    const line = fields.join(' ');
    if (/password reset/i.test(line)) lines.push(line);
  };
  return lines;
}

const linkFor = (lines: string[], email: string) => {
  const line = lines.find((entry) => entry.includes(`Password reset link for ${email}`));
  const match = line && /#\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(line);
  return match ? match[1]! : null;
};

describe('password reset by a link written to the log (development)', () => {
  let t: TestPlatform;
  let logged: string[];
  before(async () => {
    t = await startPlatform({ env: { PUBLIC_URL: 'http://127.0.0.1:9999' } });
    logged = captureInfo(t);
  });
  after(() => t.close());

  const requestReset = (email: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/password-resets', payload: { email } });
  const confirm = (token: string, password: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/password-resets/confirm',
      payload: { token, password },
      headers: cookie ? { cookie } : {},
    });
  const signIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/sessions', payload: { email, password } });

  test('an unknown address answers the same 202 and logs no link', async () => {
    const before = logged.length;
    const response = await requestReset(`nobody-${Date.now()}@example.com`);
    assert.equal(response.statusCode, 202);
    assert.equal(response.body, '');
    assert.equal(logged.length, before);
  });

  test('the logged link sets a new password once, and ends the other sessions', async () => {
    const credentials = freshCredentials('reset');
    const elsewhere = await createSessionCookie(t.app, credentials);
    const here = await createSessionCookie(t.app, credentials);
    assert.equal((await requestReset(credentials.email.toUpperCase())).statusCode, 202);
    const token = linkFor(logged, credentials.email);
    assert.ok(token, `a link in ${logged.join('\n')}`);
    assert.ok(logged.some((line) => line.includes(`http://127.0.0.1:9999/#/reset-password?token=${token}`)));

    const response = await confirm(token, 'a brand new password', here.cookie);
    assert.equal(response.statusCode, 204, response.body);
    expectErrorCode(await signIn(credentials.email, credentials.password), 401, 'invalid_credentials');
    ok(await signIn(credentials.email, 'a brand new password'), 201);
    const session = (cookie: string) =>
      t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie } });
    expectErrorCode(await session(elsewhere.cookie), 401, 'unauthorized');
    ok(await session(here.cookie));

    const reused = expectErrorCode(await confirm(token, 'yet another password'), 400, 'parameter_invalid');
    assert.equal(reused.error.param, 'token');
  });

  test('a link expires after an hour; a newer password retires older links', async () => {
    const credentials = freshCredentials('reset');
    await createSessionCookie(t.app, credentials);
    await requestReset(credentials.email);
    const first = linkFor(logged, credentials.email)!;
    t.clock.advance(61 * 60 * 1000);
    expectErrorCode(await confirm(first, 'too late password'), 400, 'parameter_invalid');

    logged.length = 0;
    await requestReset(credentials.email);
    const second = linkFor(logged, credentials.email)!;
    logged.length = 0;
    await requestReset(credentials.email);
    const third = linkFor(logged, credentials.email)!;
    assert.notEqual(second, third);
    assert.equal((await confirm(third, 'the third password')).statusCode, 204);
    expectErrorCode(await confirm(second, 'the second password'), 400, 'parameter_invalid');
    expectErrorCode(await confirm('made-up', 'some password here'), 400, 'parameter_invalid');
  });
});

describe('password reset in production', () => {
  test('logs no link (mail delivery is not built)', async () => {
    const t = await startPlatform({
      env: { APP_ENV: 'production', PUBLIC_URL: 'https://dashboard.example.com', SIGNUP_ENABLED: 'true' },
    });
    try {
      const logged = captureInfo(t);
      const credentials = freshCredentials('reset-prod');
      await createSessionCookie(t.app, credentials);
      assert.equal(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/auth/password-resets',
            payload: { email: credentials.email },
          })
        ).statusCode,
        202,
      );
      assert.ok(logged.some((line) => line.includes('password reset requested')));
      assert.ok(!logged.some((line) => line.includes('reset-password?token=')));
    } finally {
      await t.close();
    }
  });
});
