// The room in Chromium across a hand-over and a lost connection (docs/realtime.md, "Reconnecting"):
// two platform instances on one database behind a loopback TCP proxy that plays the load
// balancer. SIGTERM's hand-over on the instance holding the room closes it with 1012: the room says
// the service is restarting, resumes at once on the other instance and goes on. With the
// connection cut, a typed line is kept and marked as sending; once the connection is back, the
// room sends it again with the same id, and it is stored and answered once. Skips without Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { TcpProxy } from '../../src/core/testing/tcp-proxy.ts';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { createMeeting, createScenario } from '../live/helpers.ts';

describe('the room across a hand-over and a lost connection', { skip: chromiumMissing }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let a: ListeningPlatform;
  let b: ListeningPlatform;
  let api: ApiClient;
  let browser: Browser;

  before(async () => {
    database = await openTestDatabase();
    // The proxy's address is the public one: the room's page and socket go through it.
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: 9 });
    const env = { PUBLIC_URL: `http://127.0.0.1:${proxy.port}` };
    const speech = { recognizer: null, synthesizer: null };
    a = await startListeningPlatform({ database: database.database, env, speech });
    b = await startListeningPlatform({ database: database.database, env, speech, clock: a.clock });
    proxy.retarget({ host: '127.0.0.1', port: Number(new URL(a.baseUrl).port) });
    api = await a.workspace();
    browser = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  });

  after(async () => {
    await browser?.close();
    await a?.close();
    await b?.close();
    await proxy?.close();
    await database?.close();
  });

  it('resumes at once after a hand-over, and resends a line typed while disconnected', async () => {
    const { scenario } = await createScenario(api, { welcome_message: 'Hi, I am Jane. Shall we begin?' });
    const meeting = await createMeeting(api, scenario.id);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sent: Array<{ type: string; id?: string; text?: string }> = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', (frame) => {
        if (typeof frame.payload === 'string') sent.push(JSON.parse(frame.payload));
      }),
    );

    await page.goto(`${meeting.room_meeting_url}?t=${meeting.room_token}`);
    await page.getByRole('button', { name: 'Get started' }).click();
    await page.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await page.getByRole('button', { name: 'Join meeting' }).click();
    const transcript = page.locator('#transcript');
    await transcript.getByText('Hi, I am Jane. Shall we begin?').waitFor({ timeout: 15_000 });

    const say = async (text: string) => {
      await page.getByLabel('Your message').fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
    };
    const agentLines = transcript.locator('li.line--agent');
    await say('I led the payments team for three years.');
    await agentLines.nth(1).waitFor({ timeout: 15_000 });

    // A deploy: instance a hands its meetings over (1012); the balancer now sends connections to b.
    proxy.retarget({ host: '127.0.0.1', port: Number(new URL(b.baseUrl).port) });
    await a.deps.meetings.hub.handOffAll();
    await transcript.getByText('The service is restarting. Reconnecting…').waitFor({ timeout: 10_000 });
    await transcript.getByText('Reconnected.').waitFor({ timeout: 10_000 });
    assert.ok(b.deps.meetings.hub.session(meeting.id), 'instance b holds the meeting');
    await transcript.locator('li.line--user', { hasText: 'payments team' }).waitFor();

    // The connection is lost; a line typed meanwhile is kept and shown as sending.
    proxy.cut();
    await transcript.getByText('Connection lost. Reconnecting…').waitFor({ timeout: 10_000 });
    await say('Mostly Go and PostgreSQL.');
    const pending = transcript.locator('li.line--user.line--pending', { hasText: 'Mostly Go' });
    await pending.waitFor();
    proxy.restore();
    await transcript.locator('li.line--user:not(.line--pending)', { hasText: 'Mostly Go' }).waitFor({
      timeout: 20_000,
    });
    await agentLines.nth(2).waitFor({ timeout: 15_000 });

    const finals = sent.filter((frame) => frame.type === 'utterance' && frame.text?.startsWith('Mostly Go'));
    assert.ok(finals.length >= 1 && new Set(finals.map((f) => f.id)).size === 1, JSON.stringify(finals));
    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    const users = read.sentenced_transcripts.filter((s: { speaker: string }) => s.speaker === 'user');
    assert.deepEqual(
      users.map((s: { message: string }) => s.message),
      ['I led the payments team for three years.', 'Mostly Go and PostgreSQL.'],
      'each line stored once',
    );
    assert.equal(read.status, 'active');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
