// The participant's results on the meeting page in Chromium (docs/room.md, "Results"): a meeting
// of a scenario that shares results is held over the realtime protocol and analysed, then its
// meeting_url, opened as returned, shows the ended meeting with the score per goal, strengths,
// growth areas, what to practise next, the sentences the scores rest on and the coach's comment,
// and prints as the learner report. ROOM_SCREENSHOTS=<dir> saves `results.png` there.
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
    ok(
      await api.call('PUT', `/meetings/${meeting.id}/report/comment`, {
        text: 'Lead with the 40% next time.',
      }),
    );

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
    // The learner report: the participant's own words under the goal, the coach's comment.
    assert.ok((await results.locator('.results__evidence q').count()) > 0);
    assert.match(await results.locator('.results__evidence').first().innerText(), /at \d{2}:\d{2}/);
    await results.getByRole('heading', { name: 'From your coach' }).waitFor();
    assert.equal(await page.locator('#results-comment-text').innerText(), 'Lead with the 40% next time.');
    await results.scrollIntoViewIfNeeded();
    await shot(page, 'results');

    // On paper: the results without the post-call questions or the print button; a real PDF.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('#results-print').isVisible(), false);
    assert.equal(await page.locator('#ended-feedback').isVisible(), false);
    assert.equal(await page.locator('#results-goals').isVisible(), true);
    const pdf = await page.pdf({ format: 'A4' });
    assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
    await page.emulateMedia({ media: 'screen' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
