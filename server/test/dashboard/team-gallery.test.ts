// The screenshots of the team views in docs/dashboard/ (issue 30), at desktop and phone width:
// `DASHBOARD_SCREENSHOTS=docs/dashboard npm test -- dashboard/team-gallery`. Skipped otherwise (the
// views' behaviour is tested in team, people, assignments, reports and analytics .test.ts); each
// page is still checked for console errors and serious axe violations while it is photographed.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { analysisRunner, createScenario, insertEndedMeeting } from '../analyses/helpers.ts';
import { launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

const dir = process.env.DASHBOARD_SCREENSHOTS ?? '';

describe('dashboard: team views photographed', { skip: !dir && 'set DASHBOARD_SCREENSHOTS' }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let session: TestSession;
  const credentials = freshCredentials('gallery');
  const views: Array<{
    name: string;
    path: string;
    signedOut?: boolean;
    ready: (page: Page) => Promise<unknown>;
  }> = [];

  before(async () => {
    t = await startListeningPlatform();
    browser = await launchChromium();
    const desktop = await browser.newContext({ viewport: DESKTOP });
    contexts.push(desktop);
    session = await addSessionToContext(desktop, t.baseUrl, credentials);
    const call = async (method: string, url: string, payload?: unknown) => {
      const response = await t.app.inject({
        method: method as 'GET',
        url: `/v1${url}`,
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
        ...(payload ? { payload: payload as object } : {}),
      });
      assert.ok(response.statusCode < 300, response.body);
      return response.json();
    };
    const caller = {
      call: (method: string, url: string, payload?: unknown) =>
        t.app.inject({
          method: method as 'GET',
          url: `/v1${url}`,
          headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
          payload: payload as object,
        }),
    };
    const setup = await createScenario(caller as never);
    const people = [];
    for (const [name, email] of [
      ['Priya Raman', 'priya@example.com'],
      ['Sam Lee', 'sam@example.com'],
      ['Kim Park', null],
    ] as const) {
      people.push((await call('POST', '/people', { name, email, groups: ['Support', 'Q1 cohort'] })).data.id);
    }
    const meetings: string[] = [];
    for (const [index, turns] of [
      WEAK_INTERVIEW,
      STRONG_INTERVIEW,
      WEAK_INTERVIEW,
      STRONG_INTERVIEW,
    ].entries()) {
      const meeting = await insertEndedMeeting(t, session.account.id, setup.scenarioId, turns, {
        personName: index % 2 === 0 && index > 0 ? 'Sam Lee' : 'Priya Raman',
      });
      await t.deps.db
        .updateTable('meetings')
        .set({ person_id: people[index % 2 === 0 && index > 0 ? 1 : 0] })
        .where('id', '=', meeting.meetingId)
        .execute();
      meetings.push(meeting.meetingId);
      t.clock.advance(3 * 24 * 60 * 60 * 1000);
    }
    // Days went by: sign in again (the same user and workspace).
    session = await addSessionToContext(desktop, t.baseUrl, credentials);
    await analysisRunner(t).drain();
    await call('PUT', `/meetings/${meetings[3]}/report/comment`, {
      text: 'Much sharper than last week: you led with the latency numbers. Next, ask about the on-call rota.',
    });
    const assignment = (
      await call('POST', '/assignments', {
        scenario_id: setup.scenarioId,
        groups: ['Support'],
        due_at: new Date(t.clock.now().getTime() + 5 * 86_400_000).toISOString(),
        max_attempts: 3,
        note: 'Warm up before Friday’s customer calls.',
      })
    ).data;
    const practice = assignment.people[0].practice_url.slice(t.baseUrl.length);
    const scenarios = (await call('GET', '/scenarios')).data;
    const open = scenarios.find((row: { visibility: string }) => row.visibility === 'public');
    const tryLink = (await call('POST', `/scenarios/${open.id}/practice-link`)).data.url.slice(
      t.baseUrl.length,
    );
    const invitation = (await call('POST', '/invitations', { email: 'lee@example.com', role: 'coach' })).data;
    const heading = (name: string | RegExp) => (page: Page) =>
      page.getByRole('heading', { name }).first().waitFor();
    views.push(
      { name: 'team', path: '/#/team', ready: heading('Members') },
      {
        name: 'invitation',
        path: invitation.url.slice(t.baseUrl.length),
        signedOut: true,
        ready: heading(/Join/),
      },
      { name: 'people', path: '/#/people', ready: (page) => page.getByText('Priya Raman').first().waitFor() },
      { name: 'person', path: `/#/people/${people[0]}`, ready: heading('Goals over time') },
      {
        name: 'assignments',
        path: '/#/assignments',
        ready: (page) => page.locator('tbody tr').first().waitFor(),
      },
      {
        name: 'assignment',
        path: `/#/assignments/${assignment.id}`,
        ready: (page) => page.getByText('Kim Park').first().waitFor(),
      },
      {
        name: 'practice',
        path: practice,
        signedOut: true,
        ready: (page) => page.getByRole('button', { name: 'Start practice' }).waitFor(),
      },
      {
        name: 'practice-link',
        path: `/#/scenarios/${open.id}?tab=practice-link`,
        ready: (page) => page.locator('[data-practice-link]').waitFor(),
      },
      {
        name: 'try',
        path: tryLink,
        signedOut: true,
        ready: (page) => page.getByLabel('Your name').waitFor(),
      },
      { name: 'report', path: `/#/meetings/${meetings[3]}/report`, ready: heading('From your coach') },
      {
        name: 'analytics',
        path: '/#/analytics',
        ready: (page) => page.locator('tbody tr').first().waitFor(),
      },
      {
        name: 'analytics-scenario',
        path: `/#/analytics/${setup.scenarioId}`,
        ready: heading('Goals over time'),
      },
    );
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  it('photographs each view at desktop and phone width', async () => {
    mkdirSync(dir, { recursive: true });
    const phone = await browser.newContext({ viewport: PHONE });
    await addSessionToContext(phone, t.baseUrl, credentials);
    contexts.push(phone);
    for (const view of views) {
      for (const [suffix, viewport] of [
        ['', DESKTOP],
        ['-phone', PHONE],
      ] as const) {
        const signedOut = view.signedOut ? await browser.newContext({ viewport }) : null;
        if (signedOut) contexts.push(signedOut);
        const context = signedOut ?? (suffix ? phone : contexts[0]!);
        const { page, problems, close } = await openDashboard(browser, t.baseUrl, view.path, {
          context,
          ignore: /status of 401|\/v1\/auth\/session/,
        });
        await settled(page);
        await view.ready(page);
        await settled(page);
        assert.deepEqual(await seriousViolations(page), [], view.name);
        await page.screenshot({ path: join(dir, `${view.name}${suffix}.png`), fullPage: true });
        assert.deepEqual(problems, [], view.name);
        await close();
      }
    }
  });
});
