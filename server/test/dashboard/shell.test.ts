// The dashboard shell: served at `/` with its security headers and vendored libraries, and in
// Chromium a signed-out visitor lands on the sign-in view (no console error, nothing fetched from
// elsewhere, no serious axe-core violation, usable at phone width).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';

describe('dashboard shell', () => {
  let t: ListeningPlatform;

  before(async () => {
    t = await startListeningPlatform();
  });
  after(() => t?.close());

  it('serves the page at / with a self-only CSP that forbids framing', async () => {
    const response = await fetch(`${t.baseUrl}/`);
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get('content-type')), /^text\/html/);
    const csp = String(response.headers.get('content-security-policy'));
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const body = await response.text();
    assert.doesNotMatch(body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.match(body, /\/dashboard-assets\/js\/main\.js/);
  });

  it('serves its libraries from its own origin, with ETags', async () => {
    for (const [file, type] of [
      ['htm-preact.js', /javascript/],
      ['uplot.js', /javascript/],
      ['uplot.css', /css/],
    ] as const) {
      const response = await fetch(`${t.baseUrl}/dashboard-assets/vendor/${file}`);
      assert.equal(response.status, 200, file);
      assert.match(String(response.headers.get('content-type')), type, file);
      const etag = String(response.headers.get('etag'));
      const again = await fetch(`${t.baseUrl}/dashboard-assets/vendor/${file}`, {
        headers: { 'If-None-Match': etag },
      });
      assert.equal(again.status, 304, file);
    }
    assert.equal((await fetch(`${t.baseUrl}/dashboard-assets/vendor/nope.js`)).status, 404);
    assert.equal((await fetch(`${t.baseUrl}/dashboard-assets/js/main.js`)).status, 200);
  });

  describe('in Chromium', { skip: chromiumMissing }, () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser?.close());

    // Signed out, the session check answers 401 (or 404 before sessions exist): expected.
    const ignore = /\/v1\/auth\/session|status of 40[14]/;

    it('sends a signed-out visitor to the sign-in view, keeping where they were going', async () => {
      const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/scenarios', { ignore });
      await page.waitForFunction(() => location.hash === '#/sign-in?next=%2Fscenarios');
      await settled(page);
      assert.equal(await page.locator('h1').textContent(), 'Sign in');
      assert.ok(await page.getByLabel('Email').isVisible());
      assert.ok(await page.getByLabel('Password').isVisible());
      assert.deepEqual(await seriousViolations(page), []);
      await dashboardShot(page, 'sign-in');
      assert.deepEqual(problems, []);
      await close();
    });

    it('fits a phone screen without horizontal scrolling', async () => {
      const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/sign-up', {
        viewport: PHONE,
        ignore,
      });
      await settled(page);
      assert.equal(await page.locator('h1').textContent(), 'Create your account');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
      assert.deepEqual(await seriousViolations(page), []);
      assert.deepEqual(problems, []);
      await close();
    });
  });
});
