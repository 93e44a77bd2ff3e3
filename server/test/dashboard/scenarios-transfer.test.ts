// The Scenarios views' file flows in Chromium against a real server (a second file so each stays
// well inside the test timeout): a scenario is exported, imported again and deleted; one is
// generated from a description and an uploaded file; a practice meeting starts from a scenario.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, openDashboard, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

const SCRIPT = '## Interview flow\n1. Ask about a **system** they designed.';

describe('dashboard: scenario export, import, generation and practice', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let session: TestSession;
  let scenarioId: string;

  /** The API as the signed-in user, to check what the views did. */
  const apiGet = async (path: string) => {
    const response = await fetch(`${t.baseUrl}/v1/${path}`, { headers: { cookie: session.cookie } });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    session = await addSessionToContext(context, t.baseUrl, freshCredentials('scenario-files'));
    // The scenario to export (the form that creates one is tested in scenarios.test.ts).
    const personas = await apiGet('personas');
    const response = await fetch(`${t.baseUrl}/v1/scenarios`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        'x-csrf-token': session.csrfToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: 'Backend screen',
        type: 'interview',
        persona_id: (Array.isArray(personas.body) ? personas.body : personas.body.data)[0].id,
        prompt: SCRIPT,
      }),
    });
    assert.equal(response.status, 201);
    scenarioId = (await response.json()).id;
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('exports the scenario, imports the file as a new one, and deletes the original', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, `/#/scenarios/${scenarioId}`, {
      context,
    });
    await settled(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    const exported = JSON.parse(await readFile(String(await download.path()), 'utf8'));
    assert.equal(exported.scenario.name, 'Backend screen');
    assert.equal(download.suggestedFilename(), 'backend-screen.json');

    await page.getByRole('link', { name: 'Scenarios' }).first().click();
    await page.waitForFunction(() => location.hash === '#/scenarios');
    await settled(page);
    await page.waitForFunction(() => document.querySelectorAll('table.table tbody tr').length === 3);
    await page.locator('[data-import-file]').setInputFiles({
      name: 'backend-screen.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(exported)),
    });
    await page.getByText('Imported.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table.table tbody tr').length === 4);
    assert.equal(await page.getByRole('link', { name: 'Backend screen', exact: true }).count(), 2);

    // Delete the original, after confirming.
    await page.goto(`${t.baseUrl}/#/scenarios/${scenarioId}`);
    await settled(page);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete this scenario?').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await dialog.getByRole('button', { name: 'Delete scenario' }).click();
    await page.waitForFunction(() => location.hash === '#/scenarios');
    await page.waitForFunction(() => document.querySelectorAll('table.table tbody tr').length === 3);
    assert.equal((await apiGet(`scenarios/${scenarioId}`)).status, 404);
    assert.deepEqual(problems, []);
    await close();
  });

  it('creates a scenario from a description and an uploaded job description', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/scenarios', { context });
    await settled(page);
    await page.getByRole('button', { name: 'Create from a description' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel('What do you want to practise?')
      .fill('A mock interview for a senior data engineer');
    await dialog.getByLabel('Length in minutes').fill('15');
    await dialog.getByLabel('Résumé or job description').setInputFiles({
      name: 'job.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Senior data engineer at Acme: Spark, Kafka, data modelling.'),
    });
    assert.deepEqual(await seriousViolations(page), []);
    await dialog.getByRole('button', { name: 'Create scenario' }).click();
    await page.waitForFunction(() => /^#\/scenarios\/[0-9a-f-]{36}$/.test(location.hash));
    await settled(page);
    const id = (await page.evaluate(() => location.hash)).slice('#/scenarios/'.length);
    const { body } = await apiGet(`scenarios/${id}`);
    assert.equal(await page.locator('[data-page-title]').textContent(), body.name);
    assert.equal(body.call_duration, 15);
    assert.ok(body.goals.length > 0, 'the generator wrote goals');
    assert.deepEqual(problems, []);
    await close();
  });

  it('starts a practice meeting as the signed-in user', async () => {
    const { page, close } = await openDashboard(browser, t.baseUrl, '/#/scenarios', { context });
    await settled(page);
    await page.getByRole('link', { name: 'Backend screen', exact: true }).click();
    await settled(page);
    await page.getByRole('button', { name: 'Start a practice meeting' }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?(.*&)?t=/, { waitUntil: 'commit' });
    const meetingId = /\/meetings\/([0-9a-f-]{36})/.exec(page.url())![1];
    const { body } = await apiGet(`meetings/${meetingId}`);
    assert.equal((body.data ?? body).person_name, session.user.name);
    await close();
  });
});
