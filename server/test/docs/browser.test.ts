// The reference site in a real browser: Debian's Chromium driven by playwright-core against the
// platform on a loopback port. The platform reference renders its operations with Swagger UI,
// with no console error (a CSP violation would be one) and no request leaving the server; the
// landing page and the errors page are keyboard-navigable. Skips when /usr/bin/chromium is absent
// (scripts/ensure-chromium.sh installs it).
//
// REFERENCE_SCREENSHOTS=<dir> saves screenshots of the pages there (docs/reference/ holds the
// committed ones: `REFERENCE_SCREENSHOTS=docs/reference node scripts/test.mjs docs/browser`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumMissing, launchChromium, screenshotter } from '../chromium.ts';
import { seriousViolations } from '../dashboard/browser.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';

const shot = screenshotter(process.env.REFERENCE_SCREENSHOTS ?? '');

describe('reference site in Chromium', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page that records console errors, failed requests and any request to another origin. */
  async function open(path: string, viewport = { width: 1360, height: 900 }) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(t.baseUrl) && !request.url().startsWith('data:')) {
        problems.push(`left the server: ${request.url()}`);
      }
    });
    await page.goto(`${t.baseUrl}${path}`);
    return { page, problems, close: () => context.close() };
  }

  it('renders the platform reference: operations listed, no console error, nothing fetched elsewhere', async () => {
    const { page, problems, close } = await open('/docs/api/platform');
    await page.waitForSelector('#api-reference[data-rendered="true"]');
    // Every tag is listed, folded; a tag opens on its operations.
    const tags = await page.locator('.opblock-tag').count();
    assert.ok(tags > 15, `expected the platform's tags, saw ${tags}`);
    await page.locator('.opblock-tag[data-tag="Scenarios"]').click();
    await page.waitForSelector('.opblock-get');
    const operations = await page.locator('.opblock:not(.opblock-deprecated)').count();
    assert.ok(operations > 15, `expected the Scenarios operations (and the webhooks), saw ${operations}`);
    // An operation opens and shows its parameters and responses.
    await page.locator('.opblock-summary-control').first().click();
    await page.waitForSelector('.opblock.is-open .responses-wrapper');
    // Readable and operable: contrast, no control inside a control, examples reachable by keyboard.
    assert.deepEqual(await seriousViolations(page), []);
    await shot(page, 'api-platform');
    assert.deepEqual(problems, []);
    await close();
  });

  it('tries an operation against this server with a key entered under Authorize', async () => {
    const { key } = await t.workspace();
    const { page, problems, close } = await open('/docs/api/platform');
    await page.locator('.scheme-container .btn.authorize').click();
    // The platform has three schemes (API key, room token as header or query): fill in the key's.
    const bearer = page.locator('.auth-container').filter({ hasText: 'bearer (http, Bearer)' });
    await bearer.locator('input').fill(key);
    await bearer.locator('.btn.authorize').click();
    await page.locator('.btn-done').first().click();
    await page.locator('.opblock-tag[data-tag="Scenarios"]').click();
    const operation = page.locator('.opblock-get:has(.opblock-summary-path[data-path="/v1/scenarios"])');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.btn.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.textContent())?.trim(), '200');
    assert.deepEqual(problems, []);
    await close();
  });

  it('renders the mailbox reference from its committed document, read-only', async () => {
    const { page, problems, close } = await open('/docs/api/mailbox');
    await page.waitForSelector('#api-reference[data-rendered="true"]');
    await page.locator('.opblock-tag').first().click();
    await page.waitForSelector('.opblock');
    assert.ok((await page.locator('.opblock').count()) > 3);
    await page.locator('.opblock-summary-control').first().click();
    await page.waitForSelector('.opblock.is-open');
    assert.equal(await page.locator('.opblock.is-open .try-out__btn').count(), 0, 'no Try it out');
    assert.deepEqual(problems, []);
    await close();
  });

  it('shows the landing page, reachable by keyboard from the skip link to every section', async () => {
    const { page, problems, close } = await open('/docs');
    await shot(page, 'landing');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.closest('main') !== null);
    assert.ok(focused, 'after the skip link, focus moves into the content');
    for (const heading of ['API references', 'SDKs and changelog', 'Guides']) {
      assert.ok(await page.getByRole('heading', { name: heading }).isVisible(), heading);
    }
    assert.deepEqual(problems, []);
    await close();
  });

  it("lands on an error's section from its doc_url", async () => {
    const { page, problems, close } = await open('/docs/errors#idempotency_key_in_use');
    const section = page.locator('#idempotency_key_in_use');
    assert.ok(await section.isVisible());
    const top = await section.evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 200, `the section is at the top of the window (${top}px)`);
    await shot(page, 'errors');
    assert.deepEqual(problems, []);
    await close();
  });

  it('fits a phone screen: no sideways scrolling', async () => {
    for (const path of ['/docs', '/docs/errors', '/docs/guides/webhooks']) {
      const { page, problems, close } = await open(path, { width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
      if (path === '/docs') await shot(page, 'landing-phone');
      assert.deepEqual(problems, []);
      await close();
    }
  });

  it('renders a guide with its navigation', async () => {
    const { page, problems, close } = await open('/docs/guides/webhooks');
    assert.ok(await page.locator('.sidebar a[aria-current="page"]').isVisible());
    assert.deepEqual(problems, []);
    await close();
  });
});
