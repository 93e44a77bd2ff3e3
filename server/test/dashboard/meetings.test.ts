// The practice loop of the dashboard, end to end in Chromium against a real server: signed in, the
// team lead starts a practice meeting from the dashboard, the meeting page opens in a new tab, they
// talk with the persona (typing in the room's composer) and leave; the offline engine analyses the
// meeting (this file drives the job runner); then the dashboard lists the meeting, its page shows
// the transcript beside the recording, the per-goal analysis and the events, re-runs the analysis,
// the Results page charts it, and the meeting is deleted. axe-core on every view, one at phone width.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import type { JobRunner } from '../../src/core/jobs/index.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

const DAY = 86_400;

/** The ranges a chart drew (components/chart.js writes them on its element). */
async function rangesOf(page: Page, name: RegExp): Promise<{ x: number[]; y: number[] }> {
  const chart = page.getByRole('img', { name }).and(page.locator('[data-ranges]'));
  await chart.waitFor();
  return JSON.parse(String(await chart.getAttribute('data-ranges')));
}

/** No chart reaches past the card it is in. */
async function assertChartsFit(page: Page): Promise<void> {
  const overflows = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll('canvas')).filter((canvas) => {
        const card = canvas.closest('.card') ?? document.body;
        return canvas.getBoundingClientRect().right > card.getBoundingClientRect().right + 1;
      }).length,
  );
  assert.equal(overflows, 0, 'a chart is wider than its card');
}

/** `seconds` of silence as a WAV file (8 kHz, 8-bit mono). */
function silentWav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28); // bytes per second
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 128)]);
}

const PARTICIPANT_LINE = 'I designed a payments ledger on PostgreSQL with an outbox for events.';

describe('dashboard: meetings and results', { skip: chromiumMissing }, () => {
  let database: TestDatabase;
  let t: ListeningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let session: TestSession;
  let runner: JobRunner;
  const credentials = freshCredentials('meetings');
  let scenario: { id: string; name: string };
  let meetingId = '';

  /** The /v1 API as the signed-in user (the session cookie and its CSRF token). */
  const api = async (method: string, url: string, payload?: object) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url: `/v1${url}`,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };

  /** Runs due jobs (advancing the fake clock past their delays) until the analysis is `status`. */
  async function analysisReaches(status: string) {
    for (let round = 0; round < 100; round += 1) {
      const read = await api('GET', `/meetings/${meetingId}`);
      if (read.body.data.analysis_status === status && read.body.data.status === 'ended')
        return read.body.data;
      t.clock.advance(1_000);
      await runner.drain();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the analysis did not reach ${status}`);
  }

  before(async () => {
    // A database of its own: the job runner here runs every due job it finds.
    database = await openTestDatabase();
    t = await startListeningPlatform({
      database: database.database,
      speech: { recognizer: null, synthesizer: null },
    });
    runner = createPlatformJobRunner(t.deps);
    browser = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
    context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    session = await addSessionToContext(context, t.baseUrl, credentials);
    // A seeded scenario, recording with consent (the room then records, and asks first).
    const listed = await api('GET', '/scenarios');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const first = (listed.body.data ?? listed.body)[0] as { id: string; name: string };
    assert.ok(first, 'sign-up seeds scenarios');
    const updated = await api('PUT', `/scenarios/${first.id}`, {
      session_options: { recording_enabled: true, recording_consent_required: true },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    scenario = { id: first.id, name: first.name };
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
    await database?.close();
  });

  async function view(path: string, check: (page: Page) => Promise<void>, viewport?: typeof PHONE) {
    const opened = await openDashboard(browser, t.baseUrl, path, { context });
    if (viewport) await opened.page.setViewportSize(viewport);
    await settled(opened.page);
    await check(opened.page);
    assert.deepEqual(await seriousViolations(opened.page), [], path);
    assert.deepEqual(opened.problems, [], path);
    await opened.close();
  }

  it('starts a practice meeting from the dashboard and opens it in a new tab', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, '/#/meetings', { context });
    await settled(page);
    await page.getByText('No meetings yet').waitFor();
    await page.getByRole('button', { name: 'Start a practice meeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a practice meeting' });
    await dialog.getByLabel('Scenario').selectOption({ label: scenario.name });
    assert.equal(await dialog.getByLabel('Participant name').inputValue(), credentials.name);
    assert.deepEqual(await seriousViolations(page), []);

    const opened = context.waitForEvent('page');
    await dialog.getByRole('button', { name: 'Start meeting' }).click();
    const room = await opened;
    const link = dialog.locator('[data-meeting-url]');
    await link.waitFor();
    const url = String(await link.getAttribute('href'));
    assert.match(url, /\/meetings\/[0-9a-f-]{36}\?t=/);
    meetingId = url.match(/\/meetings\/([0-9a-f-]{36})/)![1]!;
    await room.waitForLoadState();
    assert.equal(room.url(), url);
    // The room records only while it is the visible tab (a background tab's recorder may stay empty).
    await room.bringToFront();

    // In the room: welcome, camera and microphone, consent, a typed turn, the reply, leave.
    await room.getByRole('button', { name: 'Get started' }).click();
    await room.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await room.getByText('Camera and microphone are ready', { exact: false }).waitFor();
    await room.getByRole('button', { name: 'Continue', exact: true }).click();
    await room.getByLabel('I agree that my camera and microphone are recorded', { exact: false }).check();
    await room.getByRole('button', { name: 'Join with recording' }).click();
    const agentLines = room.locator('#transcript li.line--agent');
    await agentLines.first().waitFor({ timeout: 15_000 });
    // The recorder has started (as the room's own test waits for) before the turn is taken.
    await room.locator('#rec-indicator').waitFor();
    // The meeting's clock (a fake one here) moves on, so the sentences have distinct offsets.
    t.clock.advance(20_000);
    await room.getByLabel('Your message').fill(PARTICIPANT_LINE);
    await room.getByRole('button', { name: 'Send' }).click();
    await room.locator('#transcript li.line--user', { hasText: PARTICIPANT_LINE }).waitFor();
    await agentLines.nth(1).waitFor({ timeout: 15_000 });
    await room.getByRole('button', { name: 'Leave the meeting' }).click();
    await room.getByRole('button', { name: 'Leave meeting' }).click();
    await room.getByRole('heading', { name: 'The meeting has ended' }).waitFor({ timeout: 15_000 });
    // Headless Chromium's recorder sometimes hands over no data from a fake camera; the room then
    // says so, and the meeting page shows the transcript without a player (both are checked).
    await room.getByText(/Recording saved|Nothing was recorded/).waitFor({ timeout: 30_000 });
    // The post-call questions: the checklist opens for a call that had issues.
    const questions = room.getByRole('region', { name: 'How did the call go?' });
    await questions.getByLabel('I had some issues').check();
    await questions.getByLabel('It was slow to reply').check();
    await questions.getByLabel('Anything else?').fill('The persona took a while to answer.');
    await questions.getByRole('button', { name: 'Send feedback' }).click();
    await questions.getByText('your feedback was sent to the team').waitFor();
    await dashboardShot(room, 'room-feedback');
    await room.close();

    // Closing the dialog shows the new meeting in the list.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('table a', { hasText: credentials.name }).waitFor();
    assert.deepEqual(problems, []);
    await close();
  });

  it('lists the meeting once analysed, with its score', async () => {
    const analysed = await analysisReaches('completed');
    assert.ok(analysed.analysis.goal_results.length > 0, 'the scenario has goals');
    await view('/#/meetings', async (page) => {
      const row = page.locator('tbody tr', { hasText: credentials.name });
      await row.getByText('completed').waitFor();
      await row.getByText(scenario.name).waitFor();
      // The filters narrow the list (through the address) and clearing them brings it back.
      await page.getByLabel('Search').fill('nobody-by-this-name');
      await page.getByText('No meetings match these filters').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await row.waitFor();
      await page.getByLabel('Status').selectOption('ended');
      await page.waitForFunction(() => location.hash.includes('status=ended'));
      await row.waitFor();
      await dashboardShot(page, 'meetings');
    });
  });

  it("shows the meeting's transcript beside the recording, the analysis and the events", async () => {
    await view(`/#/meetings/${meetingId}`, async (page) => {
      await page.getByRole('heading', { level: 1, name: credentials.name }).waitFor();
      const line = page.locator('.transcript__line', { hasText: PARTICIPANT_LINE });
      await line.waitFor();
      await page
        .locator('video.recording__media')
        .or(page.getByText('This meeting has no recording.'))
        .waitFor();
      // With a player, choosing a sentence asks it to play from there (the highlight that follows
      // the playing position is not asserted: headless Chromium plays a recorder's WebM unreliably).
      if (await page.locator('video.recording__media').count()) await line.locator('button').click();
      await page.locator('[data-analysis] .goal-result').first().waitFor();
      assert.ok((await page.locator('[data-analysis] .goal-result').count()) > 0);
      // Scores read out of their goal's range; the rubric's internals stay behind "How this was scored".
      const score = page.locator('[data-analysis] .goal-result__score').first();
      assert.match(String(await score.textContent()), /^\d+\/(5|10|100)$/);
      assert.doesNotMatch(await page.locator('[data-analysis]').innerText(), /weight \d+%/);
      await page.locator('[data-analysis] .goal-result').first().getByText('How this was scored').click();
      assert.match(
        await page.locator('[data-analysis] .goal-result').first().innerText(),
        /Offline rule-based evaluation/,
      );
      await page.getByRole('heading', { name: 'Speech analytics' }).waitFor();
      const events = page.locator('[data-events]');
      await events.getByText('meeting.ended').waitFor();
      await events.getByText('session.analysis_complete').waitFor();
      // The participant's feedback, given in the room, with the catalog's labels.
      await page.getByText('I had some issues').waitFor();
      await page.getByText('It was slow to reply').waitFor();
      await page.getByText('The persona took a while to answer.').waitFor();
      // No model on this server: the page says the scripted engine played the persona.
      await page
        .locator('[data-engine-notice="meeting"]', { hasText: 'The scripted engine played the persona' })
        .waitFor();
    });
  });

  it('re-runs the analysis and shows it again when it completes', async () => {
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, `/#/meetings/${meetingId}`, {
      context,
    });
    await settled(page);
    await page.getByRole('button', { name: 'Re-run analysis' }).click();
    await page.getByRole('status').getByText('The analysis is running', { exact: false }).waitFor();
    await analysisReaches('completed');
    // The page polls, and offers the action again once the new analysis is in.
    await page.getByRole('button', { name: 'Re-run analysis' }).waitFor({ timeout: 15_000 });
    await page.locator('[data-analysis] .goal-result').first().waitFor();
    assert.deepEqual(problems, []);
    await close();
  });

  it('fits the meeting page on a phone', async () => {
    await view(
      `/#/meetings/${meetingId}`,
      async (page) => {
        await page.locator('[data-analysis]').waitFor();
        await page.locator('[data-events] li').first().waitFor();
        // Known gap: the recording's <video> still widens the page on a phone (see the todo below).
        await dashboardShot(page, 'meeting');
      },
      PHONE,
    );
  });

  it.todo('the meeting page with a recording has no horizontal scroll at phone width');
  it("seeks the recording to a sentence's time when the sentence is chosen, and highlights it", async () => {
    const read = await api('GET', `/meetings/${meetingId}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const sentences = read.body.data.sentenced_transcripts as Array<{
      message: string;
      start_ms: number;
      start_duration: string;
      sequence_number: number;
    }>;
    for (const sentence of sentences) {
      assert.ok(Number.isInteger(sentence.start_ms) && sentence.start_ms >= 0, JSON.stringify(sentence));
      const seconds = Math.floor(sentence.start_ms / 1000);
      const shown = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      assert.equal(sentence.start_duration, shown);
    }
    const chosen = sentences.find((sentence) => sentence.message.includes(PARTICIPANT_LINE));
    assert.ok(chosen && chosen.start_ms > 0, JSON.stringify(sentences));
    const last = [...sentences].sort((a, b) => a.sequence_number - b.sequence_number).at(-1)!;
    assert.notEqual(last.message, chosen.message, 'the persona answered after the chosen line');

    // Headless Chromium's recorder may have stored nothing: the recording is served here as a
    // minute of silence (a WAV the page can seek in), so only the page's own seeking is tested.
    const { page, problems, close } = await openDashboard(browser, t.baseUrl, `/#/meetings/${meetingId}`, {
      context,
    });
    const wav = silentWav(60);
    await page.route(`**/v1/recordings/url-with-thumbnail/${meetingId}`, (route) =>
      route.fulfill({
        json: { success: true, data: { url: `${t.baseUrl}/test-recording.wav`, content_type: 'audio/wav' } },
      }),
    );
    await page.route('**/test-recording.wav', (route) => {
      const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? '');
      if (!range)
        return route.fulfill({ body: wav, contentType: 'audio/wav', headers: { 'accept-ranges': 'bytes' } });
      const start = Number(range[1]);
      const end = range[2] ? Number(range[2]) : wav.length - 1;
      return route.fulfill({
        status: 206,
        body: wav.subarray(start, end + 1),
        contentType: 'audio/wav',
        headers: { 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${wav.length}` },
      });
    });
    await page.reload();
    await settled(page);
    const player = page.locator('audio.recording__media');
    await player.waitFor();
    await page.waitForFunction(() => (document.querySelector('audio') as HTMLAudioElement).readyState >= 1);
    const line = page.locator('.transcript__line', { hasText: PARTICIPANT_LINE });
    await line.locator('button').click();
    await page.waitForFunction((seconds) => {
      const audio = document.querySelector('audio') as HTMLAudioElement;
      return audio.currentTime >= seconds - 0.05 && audio.currentTime < seconds + 3;
    }, chosen.start_ms / 1000);
    assert.equal(await line.getAttribute('aria-current'), 'true');
    assert.equal(await page.locator('.transcript__line[aria-current="true"]').count(), 1);
    await page.evaluate(() => (document.querySelector('audio') as HTMLAudioElement).pause());
    assert.deepEqual(problems, []);
    await close();
  });

  it('charts the results per scenario and per participant', async () => {
    await view(`/#/results?scenario=${scenario.id}`, async (page) => {
      await page
        .getByRole('img', { name: /Distribution of average scores/ })
        .locator('canvas')
        .first()
        .waitFor();
      await page
        .getByRole('img', { name: /goal's score by meeting/ })
        .locator('canvas')
        .first()
        .waitFor();
      await page
        .getByRole('img', { name: /average score by meeting/ })
        .locator('canvas')
        .first()
        .waitFor();
      assert.ok((await page.locator('canvas').count()) >= 3);
      // The data-table alternative lists the meeting.
      const trends = page.locator('figure', {
        has: page.getByRole('img', { name: /goal's score by meeting/ }),
      });
      await trends.getByText('Show the data as a table').click();
      await trends.locator('table').getByText(credentials.name).waitFor();
      // One meeting: a day either side of it (not years), the score on its 0–10 scale, whole
      // meetings counted, and nothing wider than its card.
      const trend = await rangesOf(page, /goal's score by meeting/);
      assert.ok(trend.x[1] - trend.x[0] <= 3 * DAY && trend.x[1] - trend.x[0] >= DAY, JSON.stringify(trend));
      assert.deepEqual(trend.y, [0, 10]);
      const spread = await rangesOf(page, /Distribution of average scores/);
      assert.deepEqual(spread, { x: [0.5, 10.5], y: [0, 1] });
      await assertChartsFit(page);
      await dashboardShot(page, 'results');
    });
  });

  it('charts many meetings over their own span, and fits a phone', async () => {
    const read = (await api('GET', `/scenarios/${scenario.id}`)).body;
    const goals = (read.data ?? read).Goals as Array<{ id: string }>;
    const first = Date.parse('2026-03-02T10:00:00Z');
    // A year of practice, every other week: served in place of this scenario's one analysis.
    const many = Array.from({ length: 24 }, (_, index) => ({
      id: `analysis-${index}`,
      average_score: 1 + (index % 10),
      GoalResults: goals.map((goal, at) => ({
        id: index * 10 + at,
        goal_id: goal.id,
        score: 1 + ((index + at) % 10),
      })),
      Meeting: {
        id: randomUUID(),
        created_at: new Date(first + index * 14 * DAY * 1000).toISOString(),
        person_name: credentials.name,
      },
    }));
    for (const viewport of [undefined, PHONE]) {
      const { page, problems, close } = await openDashboard(
        browser,
        t.baseUrl,
        `/#/results?scenario=${scenario.id}`,
        {
          context,
        },
      );
      if (viewport) await page.setViewportSize(viewport);
      await page.route(`**/v1/analyses/scenario/${scenario.id}?**`, (route) =>
        route.fulfill({ json: { success: true, data: many, has_more: false } }),
      );
      await page.reload();
      await settled(page);
      const trend = await rangesOf(page, /goal's score by meeting/);
      const span = (many.length - 1) * 14 * DAY;
      assert.ok(
        trend.x[1] - trend.x[0] >= span && trend.x[1] - trend.x[0] <= span * 1.1,
        JSON.stringify(trend),
      );
      assert.deepEqual(trend.y, [0, 10]);
      const spread = await rangesOf(page, /Distribution of average scores/);
      assert.deepEqual(spread.x, [0.5, 10.5]);
      assert.deepEqual(spread.y, [0, 3], 'ten buckets of 24 meetings: at most 3 in one');
      await assertChartsFit(page);
      if (viewport) await dashboardShot(page, 'results-phone');
      assert.deepEqual(problems, []);
      await close();
    }
  });

  it('shows the meeting on the overview', async () => {
    await view('/#/', async (page) => {
      await page.locator('.recent__item', { hasText: credentials.name }).waitFor();
      const notice = page.locator('[data-engine-notice="overview"]');
      await notice.getByRole('link', { name: /How to connect a model/ }).waitFor();
      await dashboardShot(page, 'overview');
    });
  });

  it('deletes the meeting after confirming what is removed', async () => {
    await view(`/#/meetings/${meetingId}`, async (page) => {
      await page.getByRole('button', { name: 'Delete meeting' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this meeting?' });
      await dialog.getByText('transcript, recording, analysis', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Delete meeting' }).click();
      await page.waitForFunction(() => location.hash === '#/meetings');
      await page.getByText('No meetings yet').waitFor();
    });
    assert.equal((await api('GET', `/meetings/${meetingId}`)).status, 404);
  });
});
