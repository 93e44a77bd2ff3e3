// The dashboard's sign-in in Chromium against a real server: sign up, sign out, sign in, a
// forgotten password reset through the link the server logs, and sign-in through an OpenID
// Connect provider (a fake one on loopback). Screenshots go to docs/dashboard/ when asked for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { dashboardShot, openDashboard, seriousViolations, settled } from './browser.ts';
import { type FakeOidcProvider, startFakeOidcProvider } from './fake-oidc.ts';
import { freshCredentials, SESSION_COOKIE } from './session.ts';

describe('dashboard sign-in in Chromium', { skip: chromiumMissing }, () => {
  let idp: FakeOidcProvider;
  let t: ListeningPlatform;
  let browser: Browser;
  const resetLinks: string[] = [];
  // Signed out, the session check answers 401: expected. The provider lives on another port.
  let ignore: RegExp;

  before(async () => {
    idp = await startFakeOidcProvider();
    t = await startListeningPlatform({
      env: {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_PROVIDER_NAME: 'Fake IdP',
      },
    });
    const logger = t.deps.logger as unknown as { info: (...args: unknown[]) => void };
    logger.info = (fields: unknown) => {
      const link = (fields as { reset_url?: string } | null)?.reset_url;
      if (link) resetLinks.push(link);
    };
    ignore = new RegExp(`/v1/auth/session|status of 401|^left the server: ${idp.issuer}/authorize`);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
  });

  const heading = (page: Page) => page.locator('h1').textContent();
  const sessionCookie = async (page: Page) =>
    (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE);

  it('signs up, signs out, signs in, and resets a forgotten password by the logged link', async () => {
    const credentials = freshCredentials('browser');
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/sign-up', {
      ignore: new RegExp(`${ignore.source}|status of 400`),
    });
    await settled(page);
    await page.getByLabel('Your name').fill(credentials.name);
    await page.getByLabel('Email').fill(credentials.email);
    // A short password is refused on its field, in plain words (not the validator's own).
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refused = page
      .locator('.field--invalid', { has: page.getByLabel('Password') })
      .locator('.field__error');
    await refused.waitFor();
    assert.equal(await refused.textContent(), 'Invalid password: must be at least 8 characters long.');
    await page.getByLabel('Password').fill(credentials.password);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForFunction(() => location.hash === '#/');
    await settled(page);
    assert.equal(await heading(page), `Welcome, ${credentials.name}`);
    const cookie = await sessionCookie(page);
    assert.ok(cookie, 'the session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.secure, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie.includes('understudy_session')), false);

    // Sign out from the header.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/sign-in'));
    await settled(page);
    assert.equal(await sessionCookie(page), undefined);

    // Sign in again; a wrong password first shows the API's message.
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email or password.').waitFor();
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForFunction(() => location.hash === '#/');
    await settled(page);

    // Forgot the password: ask for a link, open it from the log, choose a new password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/sign-in'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await settled(page);
    assert.equal(await heading(page), 'Forgot your password?');
    await page.getByLabel('Email').fill(credentials.email);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check for the reset link').waitFor();
    const link = resetLinks.at(-1) ?? '';
    assert.ok(link.startsWith(`${t.baseUrl}/#/reset-password?token=`), `a logged link, got ${link}`);

    await page.goto(link);
    await settled(page);
    assert.equal(await heading(page), 'Choose a new password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a different password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('The two passwords are not the same.').waitFor();
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'reset-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForFunction(() => location.hash === '#/sign-in?reset=done');
    await page.getByText('Your password was changed').waitFor();
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForFunction(() => location.hash === '#/');
    await settled(page);

    // The used link says so.
    await page.goto(link);
    await settled(page);
    await page.getByLabel('New password', { exact: true }).fill('yet another password');
    await page.getByLabel('Repeat the new password').fill('yet another password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('This reset link is invalid, used or expired').waitFor();
    assert.deepEqual(
      problems.filter((problem) => !/status of 400/.test(problem)),
      [],
    );
    await close();
  });

  it('signs in with the identity provider from the sign-in page', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/sign-in', { ignore });
    await settled(page);
    const button = page.getByRole('link', { name: 'Sign in with Fake IdP' });
    await button.waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'sign-in-provider');
    idp.user = { sub: `browser-${Date.now()}`, email: 'olive.browser@example.com', name: 'Olive Browser' };
    await button.click();
    // The callback redirects to `/`, the overview.
    await page.waitForURL((url) => url.origin === t.baseUrl && url.pathname === '/');
    await page.getByRole('heading', { name: 'Welcome, Olive Browser' }).waitFor();
    await settled(page);
    assert.equal(await heading(page), 'Welcome, Olive Browser');
    assert.ok(await sessionCookie(page));
    assert.deepEqual(idp.tokenRequests.at(-1), { verifierMatched: true, clientAuthenticated: true });
    assert.deepEqual(problems, []);
    await close();
  });

  it('explains a failed provider sign-in on the sign-in page', async () => {
    const { page, problems, close } = await openDashboard(
      browser,
      t.baseUrl,
      '/v1/auth/oidc/callback?code=x&state=y',
      {
        ignore,
      },
    );
    await page.waitForFunction(() => location.hash.startsWith('#/sign-in'));
    await settled(page);
    await page.getByText('That sign-in took too long or was started in another window').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(problems, []);
    await close();
  });
});
