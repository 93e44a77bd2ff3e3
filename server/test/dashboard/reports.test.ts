// The learner report in Chromium (docs/reports.md): from a meeting's page a coach opens the report,
// sees each goal with the participant's quoted sentences, writes a comment, and the page prints
// without the navigation or the editor (a real PDF from the browser's print).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { analysisRunner, createScenario, insertEndedMeeting } from '../analyses/helpers.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ApiClient, bearer, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials } from './session.ts';

describe('dashboard: learner report', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let meetingId: string;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    const credentials = freshCredentials('report');
    const session = await addSessionToContext(context, t.baseUrl, credentials);
    const { token } = ok(
      await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: credentials.email, password: credentials.password },
      }),
    );
    const caller = {
      call: (method: string, url: string, payload?: unknown) =>
        t.app.inject({
          method: method as 'GET',
          url: `/v1${url}`,
          headers: bearer(token),
          payload: payload as object,
        }),
    } as ApiClient;
    const setup = await createScenario(caller);
    meetingId = (await insertEndedMeeting(t, session.account.id, setup.scenarioId, STRONG_INTERVIEW))
      .meetingId;
    await analysisRunner(t).drain();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('opens from the meeting, quotes the participant, takes the coach’s comment and prints clean', async () => {
    // A meeting without a recording answers 404 to the page's recording request (as it should).
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, `/#/meetings/${meetingId}`, {
      context,
      ignore: /status of 404 .*\/v1\/recordings\/url-with-thumbnail/,
    });
    await settled(page);
    await page.getByRole('link', { name: 'Learner report' }).click();
    await page.getByRole('heading', { name: 'Learner report: Priya Raman' }).waitFor();
    await page.getByRole('heading', { name: 'Score per goal' }).waitFor();
    assert.equal(await page.locator('.report-goal').count(), 3);
    const quotes = page.locator('.report-goal__evidence q');
    assert.ok((await quotes.count()) > 0, 'the participant’s own sentences');
    const quoted = await quotes.first().innerText();
    assert.ok(
      STRONG_INTERVIEW.some((turn) => turn.speaker === 'user' && turn.message.includes(quoted)),
      quoted,
    );
    assert.match(await page.locator('.report').innerText(), /What to practise next/);

    await page.getByLabel('Your comment').fill('Lead with the latency numbers; they land.');
    await page.getByRole('button', { name: 'Save comment' }).click();
    await page.locator('.report-comment').waitFor();
    assert.equal(
      await page.locator('.report-comment').innerText(),
      'Lead with the latency numbers; they land.',
    );
    await page.getByRole('button', { name: 'Update comment' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'report');

    const printedAway = ['.sidenav', '.topbar', 'form.no-print', '.page-header__actions'];
    for (const selector of printedAway) {
      assert.equal(await page.locator(selector).first().isVisible(), true, `${selector} is on the screen`);
    }
    await page.emulateMedia({ media: 'print' });
    for (const hidden of printedAway) {
      assert.equal(await page.locator(hidden).first().isVisible(), false, `${hidden} is not printed`);
    }
    assert.equal(await page.locator('.report-comment').isVisible(), true);
    const pdf = await page.pdf({ format: 'A4' });
    assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
    await page.emulateMedia({ media: 'screen' });

    await page.setViewportSize(PHONE);
    await settled(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow}px)`);
    await dashboardShot(page, 'report-phone');
    assert.deepEqual(problems, []);
    await close();
  });
});
