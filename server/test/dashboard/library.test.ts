// The authoring library in Chromium against a real server: personas (create, edit with an avatar,
// a voice sample played from a blob URL, delete), goals, guardrails (on/off), a custom function
// called through "Send a test call" at a loopback receiver that checks the signature, and memories
// (add, import, delete a fact and a container). axe-core on every view; one view at phone width.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FUNCTION_SIGNATURE_HEADER, signFunctionBody } from '../../src/platform/live/function-call.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that records each call and answers with an order status. */
async function startReceiver(): Promise<{ server: Server; url: string; calls: Received[] }> {
  const calls: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      calls.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ order_status: 'shipped-from-receiver' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/tools/lookup-order`, calls };
}

const openDialog = (page: Page) => page.locator('dialog[open]');

describe('dashboard authoring library', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let session: TestSession;

  /** The API as the signed-in user (cookie + CSRF), to check what the views saved. */
  const apiAs = async (method: string, path: string) => {
    const response = await fetch(`${t.baseUrl}/v1/${path}`, {
      method,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    const json = /json/.test(String(response.headers.get('content-type')));
    return { status: response.status, body: json ? await response.json() : null };
  };

  /** Opens a view of the signed-in context, waits for it, and checks it with axe-core. */
  const view = async (path: string) => {
    const opened = await openDashboard(browser, t.baseUrl, `/#${path}`, { context });
    await settled(opened.page);
    assert.deepEqual(await seriousViolations(opened.page), [], `${path}: axe-core`);
    return opened;
  };

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    session = await addSessionToContext(context, t.baseUrl, freshCredentials('library'));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('creates, edits and deletes a persona, and plays a voice sample', async () => {
    const { page, problems, close } = await view('/personas');
    assert.equal(await page.locator('h1').textContent(), 'Personas');

    await page.getByRole('button', { name: 'New persona' }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel('Name', { exact: true }).fill('Dana Whitfield');
    await dialog.getByLabel('Job title').fill('VP of Engineering');
    await dialog.getByLabel('Demeanor').selectOption('analytical');
    await dialog.getByLabel('Background', { exact: false }).fill('Leads a platform organisation.');
    await dialog.getByLabel('Gender').selectOption('female');
    assert.deepEqual(await seriousViolations(page), [], 'persona form: axe-core');
    await dialog.getByRole('button', { name: 'Create persona' }).click();
    const row = page.locator('tr', { hasText: 'Dana Whitfield' });
    await row.waitFor();
    assert.match(await row.innerText(), /analytical/);

    await page.getByRole('button', { name: 'Edit Dana Whitfield' }).click();
    await openDialog(page).getByLabel('Job title').fill('CTO');
    const avatarOptions = await openDialog(page).getByLabel('Avatar').locator('option').allTextContents();
    await openDialog(page).getByLabel('Avatar').selectOption({ label: avatarOptions[1]! });
    await openDialog(page).getByRole('button', { name: 'Save persona' }).click();
    await page.locator('tr', { hasText: 'CTO' }).waitFor();
    await page.locator('tr', { hasText: 'Dana Whitfield' }).locator('img.avatar').waitFor();
    const dana = async () =>
      ((await apiAs('GET', 'personas')).body as any[]).find((persona) => persona.name === 'Dana Whitfield');
    const saved = await dana();
    assert.equal(saved.job_title, 'CTO');
    assert.ok(saved.avatar_id, 'the avatar was set');

    assert.deepEqual(await seriousViolations(page), [], 'personas after edit: axe-core');
    await dashboardShot(page, 'personas');

    await row.getByRole('button', { name: 'Delete' }).click();
    await openDialog(page).getByRole('button', { name: 'Delete' }).click();
    await page.locator('tr', { hasText: 'Dana Whitfield' }).waitFor({ state: 'detached' });
    assert.equal(await dana(), undefined);
    assert.deepEqual(problems, []);
    await close();
  });

  it('plays a voice sample from a blob URL', async (test) => {
    const [voice] = (await apiAs('GET', 'voices')).body.data;
    // GET /v1/voices/{id}/sample comes from another branch; until it is merged the route is missing.
    if ((await apiAs('GET', `voices/${voice.id}/sample`)).status === 404) {
      test.skip('GET /v1/voices/{id}/sample is not on this branch yet');
      return;
    }
    const { page, problems, close } = await view('/personas');
    const sample = page.waitForResponse((response) => /\/v1\/voices\/[^/]+\/sample$/.test(response.url()));
    await page.getByRole('button', { name: `Play sample: ${voice.name}` }).click();
    assert.equal((await sample).status(), 200);
    const audio = page.locator('audio[data-voice-sample]').first();
    await audio.waitFor();
    assert.match(String(await audio.getAttribute('src')), /^blob:/);
    assert.deepEqual(await seriousViolations(page), [], 'personas with a sample: axe-core');
    assert.deepEqual(problems, []);
    await close();
  });

  it('creates a goal (refusing bad metrics JSON) and several at once', async () => {
    const { page, problems, close } = await view('/goals');
    await page.getByRole('button', { name: 'New goal' }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel('Name', { exact: true }).fill('Discovery questions');
    await dialog.getByLabel('Scoring instructions').fill('Score 1-10 on open questions with follow-ups.');
    await dialog.getByLabel('Metrics (JSON)').fill('{ "weight": ');
    await dialog.getByText(/This is not valid JSON/).waitFor();
    await dialog.getByLabel('Metrics (JSON)').fill('{ "weight": 2 }');
    await dialog.getByRole('checkbox').first().check();
    await dialog.getByRole('button', { name: 'Create goal' }).click();
    await page.locator('tr', { hasText: 'Discovery questions' }).waitFor();

    await page.getByRole('button', { name: 'Add several' }).click();
    await openDialog(page)
      .getByLabel('Goals, one per line')
      .fill('Next steps | Score 1-10 on a concrete next step.\nRapport');
    await openDialog(page).getByRole('button', { name: 'Create goals' }).click();
    await page.locator('tr', { hasText: 'Rapport' }).waitFor();
    const goals = (await apiAs('GET', 'goals')).body as any[];
    const discovery = goals.find((goal) => goal.name === 'Discovery questions');
    assert.deepEqual(discovery.metrics, { weight: 2 });
    assert.equal(discovery.scenarios.length, 1);
    assert.equal(
      goals.find((goal) => goal.name === 'Next steps').instructions,
      'Score 1-10 on a concrete next step.',
    );
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'goals');
    assert.deepEqual(problems, []);
    await close();
  });

  it('creates a guardrail and switches it off', async () => {
    const { page, problems, close } = await view('/guardrails');
    await page.getByText('No guardrails yet').waitFor();
    await page.getByRole('button', { name: 'New guardrail' }).click();
    await openDialog(page).getByLabel('Name', { exact: true }).fill('no-salary-talk');
    await openDialog(page).getByLabel('Rule', { exact: true }).fill('Never quote a salary figure.');
    await openDialog(page).getByRole('button', { name: 'Create guardrail' }).click();
    const toggle = page.getByRole('checkbox', { name: 'Guardrail no-salary-talk on' });
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), true);
    await toggle.uncheck();
    await page.locator('tr', { hasText: 'no-salary-talk' }).getByText('Off', { exact: true }).waitFor();
    // The switch shows its new position at once; poll until the API has saved it.
    let guardrail = (await apiAs('GET', 'guardrails')).body.data[0];
    for (let tries = 0; guardrail.active && tries < 50; tries += 1) {
      await page.waitForTimeout(100);
      guardrail = (await apiAs('GET', 'guardrails')).body.data[0];
    }
    assert.equal(guardrail.active, false);
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'guardrails');
    assert.deepEqual(problems, []);
    await close();
  });

  it('creates a custom function, shows its secret once and sends a signed test call', async () => {
    const receiver = await startReceiver();
    try {
      const { page, problems, close } = await view('/functions');
      await page.getByRole('button', { name: 'New function' }).click();
      const dialog = openDialog(page);
      await dialog.getByLabel('Name', { exact: true }).fill('lookup_order');
      await dialog.getByLabel('Description').fill('Looks up an order by its number.');
      await dialog
        .getByLabel('Parameters (JSON Schema)')
        .fill('{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}');
      await dialog.getByLabel('Webhook URL').fill(receiver.url);
      await dialog.getByRole('button', { name: 'Create function' }).click();
      const secret = String(await page.locator('[data-secret]').textContent());
      assert.match(secret, /^whsec_/);

      await page.getByRole('button', { name: 'Send a test call to lookup_order' }).click();
      await openDialog(page).getByLabel('Arguments (JSON)').fill('{"order_id":"A-1001"}');
      await openDialog(page).getByRole('button', { name: 'Send test call' }).click();
      await page.locator('dialog[open] :is([data-test-result], .notice--error)').waitFor();
      assert.match(await openDialog(page).innerText(), /shipped-from-receiver/);
      assert.match(await page.locator('[data-test-result]').innerText(), /200/);
      assert.deepEqual(await seriousViolations(page), [], 'test call: axe-core');
      await dashboardShot(page, 'functions');

      assert.equal(receiver.calls.length, 1);
      const [call] = receiver.calls;
      assert.match(call!.body, /A-1001/);
      assert.equal(
        call!.headers[FUNCTION_SIGNATURE_HEADER.toLowerCase()],
        signFunctionBody(call!.body, secret),
        'the receiver saw a request signed with the secret shown',
      );
      assert.deepEqual(problems, []);
      await close();
    } finally {
      receiver.server.close();
    }
  });

  it('adds, imports and deletes memories, at phone width', async () => {
    const { page, problems, close } = await view('/memories');
    await page.setViewportSize(PHONE);
    await page.getByText('No memories yet').waitFor();
    await page.getByRole('button', { name: 'Add memories' }).click();
    await openDialog(page).getByLabel('Container (tag)').fill('candidate:jane@example.com');
    await openDialog(page)
      .getByLabel('Facts, one per line')
      .fill('- Prefers morning interviews\n- Lives in Lisbon');
    await openDialog(page).getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Added 2 facts').waitFor();
    await page.locator('tr', { hasText: 'Lives in Lisbon' }).waitFor();

    await page.getByRole('button', { name: 'Import' }).click();
    await openDialog(page)
      .getByLabel('Contents')
      .fill(JSON.stringify(['Lives in Lisbon', { content: 'Has 6 years of React', external_id: 'crm-1' }]));
    await openDialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Added 1 fact to').waitFor();
    await page.getByText('1 already held were skipped').waitFor();
    await page.locator('tr', { hasText: 'Has 6 years of React' }).waitFor();
    await settled(page);
    assert.deepEqual(await seriousViolations(page), [], 'memories at phone width: axe-core');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await page.setViewportSize(DESKTOP);
    await dashboardShot(page, 'memories');

    await page.locator('tr', { hasText: 'Lives in Lisbon' }).getByRole('button', { name: 'Delete' }).click();
    await openDialog(page).getByRole('button', { name: 'Delete' }).click();
    await page.locator('tr', { hasText: 'Lives in Lisbon' }).waitFor({ state: 'detached' });
    const tag = encodeURIComponent('candidate:jane@example.com');
    assert.equal((await apiAs('GET', `memories/tags/${tag}`)).body.data.memory_count, 2);

    await page.getByRole('button', { name: 'Delete container' }).click();
    await openDialog(page).getByRole('button', { name: 'Delete container' }).click();
    await page.getByText('No memories yet').waitFor();
    assert.equal((await apiAs('GET', `memories/tags/${tag}`)).status, 404);
    assert.deepEqual(
      problems.filter((problem) => !/status of 404/.test(problem)),
      [],
    );
    await close();
  });
});
