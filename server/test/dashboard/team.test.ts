// The Team view in Chromium (docs/teams.md): an owner invites a colleague and is shown the link;
// the colleague opens it signed out, creates their account and lands in the workspace with their
// role (no integrations in their navigation); the owner changes the role and reads the audit log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials } from './session.ts';

describe('dashboard: the team', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let owner: BrowserContext;

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    owner = await browser.newContext({ viewport: DESKTOP });
    await addSessionToContext(owner, t.baseUrl, freshCredentials('team-owner'));
  });
  after(async () => {
    await owner?.close();
    await browser?.close();
    await t?.close();
  });

  it('invites by link, the invitee signs up into the workspace as a coach, and the owner sees it all', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/team', { context: owner });
    await settled(page);
    await page.getByText('You are an owner').waitFor();
    await page.getByLabel('E-mail').fill('sam.coach@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('coach');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await page.locator('[data-secret]').textContent();
    assert.match(String(link), /\/#\/invitations\/[\w-]{40,}$/);
    await page.getByText('No mail relay is configured').waitFor();
    await page.getByRole('table', { name: 'Invitations' }).getByText('sam.coach@example.com').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await dashboardShot(page, 'team');

    // The invitee, signed out, on a phone.
    const invitee = await browser.newContext({ viewport: PHONE });
    const joined = await openDashboard(browser, t.baseUrl, String(link).slice(t.baseUrl.length), {
      context: invitee,
      ignore: /\/v1\/auth\/session|status of 401/,
    });
    await joined.page.getByText('as a coach').waitFor();
    await joined.page.getByLabel('Your name').fill('Sam Coach');
    await joined.page.getByLabel('Choose a password').fill('correct horse battery');
    assert.deepEqual(await seriousViolations(joined.page), []);
    await dashboardShot(joined.page, 'invitation');
    await joined.page.getByRole('button', { name: 'Create account and join' }).click();
    await joined.page.waitForFunction(() => location.hash === '#/');
    await joined.page.getByRole('link', { name: 'Meetings' }).first().waitFor();
    // On a phone the navigation is behind the menu button: read its links, shown or not.
    const nav = String(await joined.page.locator('#site-nav').textContent());
    assert.doesNotMatch(nav, /API keys|Webhooks|Mailbox/, 'a coach is not shown the integrations');
    assert.match(nav, /Team/);
    assert.deepEqual(joined.problems, []);
    await joined.close();
    await invitee.close();

    // The owner makes Sam a viewer and reads the log.
    await page.reload();
    await settled(page);
    await page.getByLabel('Role of Sam Coach').selectOption('viewer');
    await page.getByRole('table', { name: 'Audit log' }).getByText('coach → viewer').waitFor();
    await page.getByRole('table', { name: 'Audit log' }).getByText('joined').first().waitFor();

    // Removed from their only workspace, Sam comes back with a new link and their own password.
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('table', { name: 'Audit log' }).getByText('removed').first().waitFor();
    await page.getByLabel('E-mail').fill('sam.coach@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('coach');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const again = String(await page.locator('[data-secret]').textContent());
    const returning = await openDashboard(browser, t.baseUrl, again.slice(t.baseUrl.length), {
      ignore: /\/v1\/auth\/session|status of 401/,
    });
    await returning.page.getByText('You already have an account with this address.').waitFor();
    await returning.page.getByLabel('Your password').fill('correct horse battery');
    await returning.page.getByRole('button', { name: /^Join / }).click();
    await returning.page.waitForFunction(() => location.hash === '#/');
    assert.deepEqual(returning.problems, []);
    await returning.close();
    assert.deepEqual(problems, []);
    await close();
  });
});
