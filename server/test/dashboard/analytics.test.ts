// Team analytics in Chromium (docs/analytics.md): the scenarios' table, and a scenario's page with a
// chart per goal of the cohort's average per week on the goal's scale (right with one period and
// with several: the time axis spans days, not years), the participants' progress, the assignment
// completion and the CSV link; at desktop and phone width, with axe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { analysisRunner, createScenario, insertEndedMeeting } from '../analyses/helpers.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ApiClient, bearer, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials } from './session.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('dashboard: analytics', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let caller: ApiClient;
  let scenarioId: string;
  let accountId: string;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    const credentials = freshCredentials('analytics');
    const session = await addSessionToContext(context, t.baseUrl, credentials);
    accountId = session.account.id;
    const { token } = ok(
      await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: credentials.email, password: credentials.password },
      }),
    );
    caller = {
      call: (method: string, url: string, payload?: unknown) =>
        t.app.inject({
          method: method as 'GET',
          url: `/v1${url}`,
          headers: bearer(token),
          payload: payload as object,
        }),
    } as ApiClient;
    scenarioId = (await createScenario(caller)).scenarioId;
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  const personMeeting = async (personId: string, turns: typeof WEAK_INTERVIEW) => {
    const { meetingId } = await insertEndedMeeting(t, accountId, scenarioId, turns);
    await t.deps.db
      .updateTable('meetings')
      .set({ person_id: personId })
      .where('id', '=', meetingId)
      .execute();
  };

  it('charts one meeting on a span of days, on the goal’s scale', async () => {
    const priya = ok(
      await caller.call('POST', '/people', { name: 'Priya Raman', email: 'priya@example.com' }),
      201,
    ).data.id;
    await personMeeting(priya, WEAK_INTERVIEW);
    await analysisRunner(t).drain();
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, `/#/analytics/${scenarioId}`, {
      context,
    });
    await page.getByRole('heading', { name: 'Goals over time' }).waitFor();
    await settled(page);
    const charts = page.locator('[data-ranges]');
    await charts.first().waitFor();
    assert.equal(await charts.count(), 3, 'a chart per goal');
    const ranges = JSON.parse(String(await charts.first().getAttribute('data-ranges')));
    assert.deepEqual(ranges.y, [0, 10], 'the goal’s 0–10 scale');
    const span = ranges.x[1] - ranges.x[0];
    assert.ok(span <= 3 * 86_400, `one meeting's week spans days, not years (${span} s)`);
    const third = JSON.parse(String(await charts.nth(2).getAttribute('data-ranges')));
    assert.deepEqual(third.y, [0, 5], 'a 1–5 goal on its own scale');
    assert.deepEqual(problems, []);
    await close();
  });

  it('lists scenarios, and shows a scenario’s goals, participants, assignments and CSV link', async () => {
    const people = ok(await caller.call('GET', '/people')).data as Array<{ id: string; name: string }>;
    const priya = people.find((person) => person.name === 'Priya Raman')!.id;
    const ana = ok(await caller.call('POST', '/people', { name: 'Ana Ruiz' }), 201).data.id;
    const carl = ok(await caller.call('POST', '/people', { name: 'Carl Berg' }), 201).data.id;
    // Weeks of practice: Priya improves, Ana practises once. Hours apart, not days: the session
    // (12 hours idle) is on the same clock; the weeks come from moving meetings back in time.
    t.clock.advance(HOUR);
    await personMeeting(ana, STRONG_INTERVIEW);
    t.clock.advance(HOUR);
    await personMeeting(priya, STRONG_INTERVIEW);
    await analysisRunner(t).drain();
    const rows = await t.deps.db
      .selectFrom('meetings')
      .select(['id', 'ended_at'])
      .where('scenario_id', '=', scenarioId)
      .orderBy('ended_at')
      .execute();
    // Spread the three meetings over three weeks: 14 days ago, 7 days ago, now.
    for (const [index, row] of rows.entries()) {
      const back = (rows.length - 1 - index) * 7 * DAY;
      await t.deps.db
        .updateTable('meetings')
        .set({ ended_at: new Date(new Date(row.ended_at!).getTime() - back) })
        .where('id', '=', row.id)
        .execute();
    }
    ok(
      await caller.call('POST', '/assignments', {
        scenario_id: scenarioId,
        person_ids: [priya, ana, carl],
      }),
      201,
    );

    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/analytics', { context });
    await settled(page);
    const row = page.locator('tr', { hasText: 'Backend screen' });
    assert.match(await row.innerText(), /3[\s\S]*2[\s\S]*\d+%[\s\S]*0 of 3 done/);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'analytics');
    await row.getByRole('link', { name: 'Backend screen' }).click();
    await page.getByRole('heading', { name: 'Goals over time' }).waitFor();
    await settled(page);
    const chart = page.locator('[data-ranges]').first();
    await chart.waitFor();
    const ranges = JSON.parse(String(await chart.getAttribute('data-ranges')));
    assert.deepEqual(ranges.y, [0, 10]);
    const span = ranges.x[1] - ranges.x[0];
    assert.ok(span >= 14 * 86_400 && span <= 30 * 86_400, `three weeks, a little room (${span} s)`);
    const participants = page.locator('table', { has: page.locator('caption', { hasText: 'Participants' }) });
    const priyaRow = participants.locator('tr', { hasText: 'Priya Raman' });
    assert.match(await priyaRow.innerText(), /2[\s\S]*\d+%[\s\S]*\d+%[\s\S]*\+\d+ pts[\s\S]*not started/i);
    assert.match(
      await participants.locator('tr', { hasText: 'Carl Berg' }).innerText(),
      /0[\s\S]*not started/i,
    );
    const download = page.getByRole('link', { name: 'Download CSV' });
    const address = String(await download.getAttribute('href'));
    assert.equal(address, `/v1/analytics/scenarios/${scenarioId}/results.csv`);
    // The link works with the session cookie alone.
    const csv = await page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'same-origin' });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text: await response.text(),
      };
    }, address);
    assert.equal(csv.status, 200);
    assert.equal(csv.type, 'text/csv; charset=utf-8');
    assert.equal(csv.text.trim().split('\r\n').length, 1 + 3 * 3);
    await page.getByLabel('Group meetings by').selectOption('month');
    await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0);
    // The data table (folded in its <details>) names the period.
    await page
      .locator('.chart-table th', { hasText: /^Month$/ })
      .first()
      .waitFor({ state: 'attached' });
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByLabel('Group meetings by').selectOption('week');
    await page
      .locator('.chart-table th', { hasText: /^Week$/ })
      .first()
      .waitFor({ state: 'attached' });
    await dashboardShot(page, 'analytics-scenario');
    assert.deepEqual(problems, []);
    await close();

    const phone = await browser.newContext({ viewport: PHONE });
    await phone.addCookies(await context.cookies());
    for (const path of ['/#/analytics', `/#/analytics/${scenarioId}`]) {
      const small = await openDashboard(browser, t.baseUrl, path, { context: phone });
      await settled(small.page);
      if (path !== '/#/analytics') await small.page.locator('[data-ranges]').first().waitFor();
      const overflow = await small.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      assert.ok(overflow <= 0, `${path}: page is ${overflow}px wider than the screen`);
      assert.deepEqual(await seriousViolations(small.page), []);
      await dashboardShot(
        small.page,
        path === '/#/analytics' ? 'analytics-phone' : 'analytics-scenario-phone',
      );
      assert.deepEqual(small.problems, []);
      await small.close();
    }
    await phone.close();
  });
});
