// The participant's results on the meeting page in Chromium (docs/room.md, "Results"): a meeting
// of a scenario that shares results is held over the realtime protocol and analysed, then its
// meeting_url, opened as returned, shows the ended meeting with the score per goal, strengths,
// growth areas and what to practise next. ROOM_SCREENSHOTS=<dir> saves `results.png` there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { chromiumMissing, launchChromium, screenshotter } from '../chromium.ts';
import { type ApiClient, type ListeningPlatform, ok } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from '../live/helpers.ts';

const shot = screenshotter(process.env.ROOM_SCREENSHOTS ?? '');

describe('participant results in Chromium', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let api: ApiClient;
  let browser: Browser;

  before(async () => {
    t = await startLivePlatform({}, { speech: { recognizer: null, synthesizer: null } });
    api = await t.workspace();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the results on the ended meeting page', async () => {
    const { scenario } = await createScenario(api);
    ok(
      await api.call('PUT', `/scenarios/${scenario.id}`, {
        meeting_controls: { share_results_with_participant: true },
      }),
    );
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    await p.say('I have built payment systems for eight years, mostly on PostgreSQL.');
    await p.say('I designed a ledger handling a million writes a day, which cut reconciliation time by 40%.');
    p.send({ type: 'leave' });
    await p.next('ended');
    await createPlatformJobRunner(t.deps).drain();

    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(meeting.meeting_url);
    assert.equal(response?.status(), 200);
    await page.getByRole('heading', { name: 'This meeting has ended' }).waitFor();
    const results = page.getByRole('region', { name: 'Your results' });
    await results.locator('.results__goal-name', { hasText: 'Explains impact' }).waitFor({ timeout: 20_000 });
    await results.getByRole('heading', { name: 'Strengths' }).waitFor();
    await results.getByRole('heading', { name: 'What to practise next' }).waitFor();
    assert.ok((await page.locator('#results-strengths li').count()) > 0);
    assert.ok((await page.locator('#results-practise li').count()) > 0);
    assert.equal(await page.locator('#results-goals meter').count(), 1);
    assert.doesNotMatch(await page.content(), /SECRET-GOAL-INSTRUCTIONS/);
    await results.scrollIntoViewIfNeeded();
    await shot(page, 'results');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
