// Assigned practice in Chromium (docs/assignments.md): a coach assigns a scenario to a person from
// the dashboard; the person opens their link signed out, on a phone, and starts the practice,
// which opens the meeting room; the assignment then shows them in progress.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

describe('dashboard: assignments', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let session: TestSession;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    session = await addSessionToContext(context, t.baseUrl, freshCredentials('assign'));
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/people',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
      payload: { name: 'Sam Lee', email: 'sam@example.com' },
    });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('assigns practice, and the person starts it from their link without signing in', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/assignments', { context });
    await settled(page);
    await page.getByRole('button', { name: 'Assign practice' }).click();
    await page.getByLabel('Sam Lee').check();
    await page.getByLabel('Attempts each').fill('2');
    await page.getByLabel('Note').fill('Warm up before the Friday call.');
    await page.getByRole('button', { name: 'Assign to 1 person' }).click();
    await page.waitForFunction(() => /^#\/assignments\/[0-9a-f-]{36}$/.test(location.hash));
    const row = page.locator('tr', { hasText: 'Sam Lee' });
    await row.getByText('not started').waitFor();
    assert.match(await row.innerText(), /0 of 2/);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'assignment');

    const id = (await page.evaluate(() => location.hash)).split('/').pop()!;
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/assignments/${id}`,
      headers: { cookie: session.cookie },
    });
    const link = String(read.json().data.people[0].practice_url);

    const phone = await browser.newContext({ viewport: PHONE });
    const learner = await openDashboard(browser, t.baseUrl, link.slice(t.baseUrl.length), {
      context: phone,
      ignore: /\/v1\/auth\/session|status of 401/,
    });
    await learner.page.getByText('Warm up before the Friday call.').waitFor();
    assert.match(await learner.page.locator('main').innerText(), /Sam Lee[\s\S]*2 of 2 attempts left/);
    assert.deepEqual(await seriousViolations(learner.page), []);
    await dashboardShot(learner.page, 'practice');
    await learner.page.getByRole('button', { name: 'Start practice' }).click();
    await learner.page.waitForURL(/\/room\/[0-9a-f-]{36}\?t=/);
    await learner.close();
    await phone.close();

    await page.reload();
    await settled(page);
    await page.locator('tr', { hasText: 'Sam Lee' }).getByText('in progress').waitFor();
    assert.deepEqual(problems, []);
    await close();
  });

  it('opens a public scenario with a link, and a visitor practises after giving their name', async () => {
    const scenarios = await t.app.inject({
      method: 'GET',
      url: '/v1/scenarios',
      headers: { cookie: session.cookie },
    });
    const scenario = scenarios.json().data.find((row: { visibility: string }) => row.visibility === 'public');
    const { page, problems, close } = await openDashboard(
      browser,
      t.baseUrl,
      `/#/scenarios/${scenario.id}?tab=practice-link`,
      { context },
    );
    await settled(page);
    await page.getByRole('button', { name: 'Create practice link' }).click();
    const shown = page.locator('[data-practice-link]');
    await shown.waitFor();
    const link = (await shown.innerText()).trim();
    assert.match(link, /\/#\/try\/[\w-]{40,}$/);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'practice-link');

    const phone = await browser.newContext({ viewport: PHONE });
    const visitor = await openDashboard(browser, t.baseUrl, link.slice(t.baseUrl.length), {
      context: phone,
      ignore: /\/v1\/auth\/session|status of (401|400)/,
    });
    await visitor.page.getByText(scenario.name).waitFor();
    await visitor.page.getByLabel('Your name').fill('Ana Silva');
    await visitor.page.getByLabel(/E-mail/).fill('ana@');
    await visitor.page.getByRole('button', { name: 'Start practice' }).click();
    await visitor.page.locator('.field__error').first().waitFor();
    assert.match(await visitor.page.locator('.field__error').first().innerText(), /email/i);
    assert.deepEqual(await seriousViolations(visitor.page), []);
    await dashboardShot(visitor.page, 'try');
    await visitor.page.getByLabel(/E-mail/).fill('ana@example.com');
    await visitor.page.getByRole('button', { name: 'Start practice' }).click();
    await visitor.page.waitForURL(/\/room\/[0-9a-f-]{36}\?t=/);
    await visitor.close();
    await phone.close();

    const meetings = await t.app.inject({
      method: 'GET',
      url: '/v1/meetings',
      headers: { cookie: session.cookie },
    });
    assert.ok(
      meetings.json().data.some((row: { person_name: string }) => row.person_name === 'Ana Silva'),
      'the visit is a meeting of the workspace',
    );
    assert.deepEqual(problems, []);
    await close();
  });

  it('files people in groups, filters by one, and assigns a whole group at once', async () => {
    const add = async (name: string) => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/people',
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
        payload: { name, groups: ['Support'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().data.id as string;
    };
    const ana = await add('Ana Silva');
    await add('Bo Chen');
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/people', { context });
    await settled(page);
    await page.getByLabel('Group').selectOption('Support');
    await page.locator('tbody tr').nth(1).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    assert.match(await page.locator('tbody').innerText(), /Ana Silva[\s\S]*Support/);

    await page.goto(`${t.baseUrl}/#/people/${ana}`);
    await page.getByLabel('Groups').fill('Support, Night shift');
    await page.getByRole('button', { name: 'Save groups' }).click();
    await page.locator('.badge', { hasText: 'Night shift' }).first().waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await page.goto(`${t.baseUrl}/#/assignments`);
    await page.getByRole('button', { name: 'Assign practice' }).click();
    await page.getByLabel(/^Night shift/).check();
    await page.getByRole('button', { name: 'Assign to 1 person' }).waitFor();
    await page.getByLabel(/^Support/).check();
    await page.getByRole('button', { name: 'Assign to 2 people' }).click();
    await page.waitForFunction(() => /^#\/assignments\/[0-9a-f-]{36}$/.test(location.hash));
    await page.locator('tr', { hasText: 'Bo Chen' }).waitFor();
    assert.match(await page.locator('tbody').innerText(), /Ana Silva/);
    assert.deepEqual(problems, []);
    await close();
  });
});
