// People in Chromium (docs/people.md): the list, and a person's page with their scores per goal
// over time (the chart's ranges on the goals' scale), their meetings and the feedback they got.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { analysisRunner, createScenario, insertEndedMeeting } from '../analyses/helpers.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ApiClient, bearer, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials } from './session.ts';

describe('dashboard: people', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let personId: string;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    const credentials = freshCredentials('people');
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
    personId = ok(
      await caller.call('POST', '/people', { name: 'Priya Raman', email: 'priya@example.com' }),
      201,
    ).data.id;
    const meetings = [];
    for (const turns of [WEAK_INTERVIEW, STRONG_INTERVIEW]) {
      meetings.push((await insertEndedMeeting(t, session.account.id, setup.scenarioId, turns)).meetingId);
      // Hours apart: the session (12 hours idle) is on the same clock.
      t.clock.advance(2 * 60 * 60 * 1000);
    }
    await t.deps.db
      .updateTable('meetings')
      .set({ person_id: personId })
      .where('id', 'in', meetings)
      .execute();
    await analysisRunner(t).drain();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('lists people and shows a person’s progress, meetings and feedback', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/people', { context });
    await settled(page);
    const row = page.locator('tr', { hasText: 'Priya Raman' });
    assert.match(await row.innerText(), /priya@example\.com[\s\S]*2/);
    await row.getByRole('link', { name: 'Priya Raman' }).click();
    await page.getByRole('heading', { name: 'Goals over time' }).waitFor();
    const chart = page.locator('[data-ranges]').first();
    await chart.waitFor();
    const ranges = JSON.parse(String(await chart.getAttribute('data-ranges')));
    assert.deepEqual(ranges.y, [0, 10], 'scores on the goals’ 0–10 scale');
    const feedback = await page.locator('.person__meetings').innerText();
    assert.match(feedback, /Backend screen/);
    assert.match(feedback, /\/10 — \S+/, 'each goal with its score out of its maximum and the feedback');
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'person');
    assert.deepEqual(problems, []);
    await close();

    const phone = await browser.newContext({ viewport: PHONE });
    await phone.addCookies(await context.cookies());
    const small = await openDashboard(browser, t.baseUrl, `/#/people/${personId}`, { context: phone });
    await small.page.getByRole('heading', { name: 'Goals over time' }).waitFor();
    await settled(small.page);
    const overflow = await small.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    assert.deepEqual(small.problems, []);
    await small.close();
    await phone.close();
  });
});
