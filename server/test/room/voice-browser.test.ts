// The voice loop in a real browser: Debian's Chromium whose fake microphone plays a WAV made at
// test time with the service's own Flite engine, against the real platform with the offline
// engines (PocketSphinx recognises, Flite speaks). The participant speaks while the persona is
// still reading its long welcome: the service hears them (speech.started, interim text), the
// persona's audio stops (barge-in by voice), the words land in the transcript through the
// service's recogniser, the persona answers by voice and the room plays it. The recording holds
// the persona's voice (mixed in) and has a duration. No request leaves the service's origin.
//
// Timeline: Chromium plays the WAV from the moment the room opens the microphone ("Allow camera
// and microphone"); the room joins about a second later and the welcome (about 20 s of speech)
// starts playing right after. The WAV is LEAD_SILENCE_MS of silence, the sentence, then silence,
// so the sentence lands inside the welcome whatever the machine's speed within a few seconds.
//
// Skips (with the reason) when /usr/bin/chromium or PocketSphinx is missing
// (scripts/ensure-chromium.sh, scripts/ensure-speech.sh). ROOM_SCREENSHOTS=<dir> saves screenshots.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { detectPocketSphinx } from '../../src/platform/speech/stt/pocketsphinx.ts';
import type { SpeechEngines } from '../../src/platform/speech/types.ts';
import { INPUT_SAMPLE_RATE } from '../../src/platform/speech/types.ts';
import { encodeWav } from '../../src/platform/speech/wav.ts';
import { chromiumMissing, launchChromium, screenshotter } from '../chromium.ts';
import { bearer, type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { silencePcm, spokenPcm } from '../speech/audio-fixtures.ts';
import { createInterviewMeeting, startedOfflineEngines, takeTheVoiceRoom } from './offline-voice.ts';
import { webmDurationMs } from './webm.ts';

const shot = screenshotter(process.env.ROOM_SCREENSHOTS ?? '', 'voice-');
const SENTENCE = 'I have five years of experience leading a support team';
const SENTENCE_WORDS = ['five', 'years', 'experience', 'leading', 'support', 'team'];
const LEAD_SILENCE_MS = 8000;
const WELCOME =
  'Hello, and thank you for joining me today. I am looking forward to hearing about your background and the work you have done so far. ' +
  'We will start with your experience, and then we will talk about a difficult situation you handled at work. ' +
  'After that I will leave some time for your own questions about the role, the team and the way we work together. ' +
  'Please take your time with each answer, there is no rush at all.';

const sphinx = await detectPocketSphinx();
const skip =
  chromiumMissing ||
  (!sphinx.available
    ? `PocketSphinx is not available: ${sphinx.reason} (run scripts/ensure-speech.sh)`
    : false);
if (skip) console.log(`# voice browser test skipped: ${skip}`);

interface Frame {
  type: string;
  [key: string]: unknown;
}

describe('the voice loop in Chromium with a fake microphone', { skip }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let key: string;
  let speech: SpeechEngines;
  const dir = mkdtempSync(join(tmpdir(), 'understudy-voice-'));

  const api = async (method: string, url: string, payload?: object) => {
    const response = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), payload });
    return { status: response.statusCode, body: response.json() };
  };

  let release: (() => void) | undefined;
  before(async () => {
    if (!sphinx.available) return;
    release = await takeTheVoiceRoom();
    speech = await startedOfflineEngines(sphinx.modelDir);
    // The participant's line, spoken by the service's own Flite ('rms' is recognised best).
    const wav = join(dir, 'participant.wav');
    const pcm = Buffer.concat([
      silencePcm(LEAD_SILENCE_MS),
      await spokenPcm(SENTENCE, 'rms'),
      silencePcm(8000),
    ]);
    writeFileSync(wav, encodeWav(pcm, INPUT_SAMPLE_RATE));
    t = await startListeningPlatform({ speech });
    key = (await t.createApiKey(await t.signup())).secret;
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}%noloop`,
    ]);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    await speech?.recognizer?.close();
    await speech?.synthesizer?.close();
    rmSync(dir, { recursive: true, force: true });
    release?.();
  });

  const createMeeting = () =>
    createInterviewMeeting(api, {
      prompt: 'Ask about the candidate’s experience leading a team, then about a difficult escalation.',
      welcome_message: WELCOME,
      // Recorded without a consent step: the room joins from the devices screen.
      session_options: { recording_enabled: true, recording_consent_required: false },
    });

  it('hears the participant through the service, plays the persona, stops it on barge-in, keeps to its origin', async () => {
    const meeting = await createMeeting();
    const origin = new URL(t.baseUrl).origin;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The persona tile's states, in order, and the participant's draft lines, as they were shown.
    await context.addInitScript(`(() => {
      window.__states = [];
      window.__drafts = [];
      new MutationObserver(() => {
        const state = document.getElementById('persona-tile')?.dataset.state;
        if (state && window.__states[window.__states.length - 1] !== state) window.__states.push(state);
        const draft = document.getElementById('user-draft');
        const text = draft && !draft.hidden ? document.getElementById('user-draft-text').textContent : '';
        if (text && window.__drafts[window.__drafts.length - 1] !== text) window.__drafts.push(text);
      }).observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
    })()`);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Every request the page makes, as Playwright and the DevTools protocol each see them.
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const devtools = await context.newCDPSession(page);
    await devtools.send('Network.enable');
    devtools.on('Network.requestWillBeSent', (event) => requests.push(event.request.url));
    const received: Frame[] = [];
    const sent: Frame[] = [];
    let binarySent = 0;
    page.on('websocket', (socket) => {
      requests.push(socket.url());
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string')
          received.push({ ...JSON.parse(frame.payload), at: Date.now() });
      });
      socket.on('framesent', (frame) => {
        if (typeof frame.payload === 'string') sent.push(JSON.parse(frame.payload));
        else binarySent += 1;
      });
    });
    const waitFor = async (what: string, test: () => boolean, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!test()) {
        if (Date.now() > deadline) {
          const types = received.map((frame) => frame.type).join(', ');
          throw new Error(`timed out waiting for ${what}; received: ${types}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // page.waitForFunction evaluates strings with eval(), which the room's CSP forbids: poll instead.
    const waitInPage = async (what: string, expression: string, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await page.evaluate(expression))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${expression})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const diagnostics = () =>
      page.evaluate('window.roomDiagnostics') as Promise<{
        input: string;
        output: string;
        audio: { received: number; played: number; cut: number; playedMs: number; context: string };
      }>;

    const pageResponse = await page.goto(`${meeting.room_meeting_url}?t=${meeting.room_token}`);
    await page.getByRole('button', { name: 'Get started' }).click();
    // The WAV starts playing into the microphone now.
    await page.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await page.getByText('The service will recognise your voice', { exact: false }).waitFor();
    await shot(page, '1-devices');
    await page.getByRole('button', { name: 'Join meeting' }).click();

    // Joined with the service's recogniser and voice.
    await page.getByText('Voice recognised by the service', { exact: false }).waitFor({ timeout: 15_000 });
    const join = sent.find((frame) => frame.type === 'join');
    assert.deepEqual(join?.audio, { output: true });
    const joined = received.find((frame) => frame.type === 'joined') as { speech?: Record<string, unknown> };
    assert.equal(joined?.speech?.recognition, 'pocketsphinx');
    assert.equal(joined?.speech?.synthesis, 'flite');
    const start = sent.find((frame) => frame.type === 'audio.start');
    assert.ok(start && Number.isInteger(start.start_ms), JSON.stringify(start));

    // The welcome plays through Web Audio.
    await waitFor('the welcome’s audio', () => received.some((frame) => frame.type === 'agent.audio'));
    const welcomeTurn = received.find((frame) => frame.type === 'agent.audio')!.turn_id as string;
    await waitInPage('the persona speaking', 'window.roomDiagnostics.audio.speaking === true');
    const welcomeHeardAt = Date.now();
    // MediaRecorder reports its start asynchronously; on a busy machine that can follow the welcome.
    await waitInPage('the recording started', 'window.roomDiagnostics.recordingStartedAt > 0', 15_000);
    const recordingStartedAt = (await page.evaluate('window.roomDiagnostics.recordingStartedAt')) as number;
    await shot(page, '2-persona-speaking');

    // The participant speaks over it: heard, the welcome is cut (barge-in by voice) at once.
    await waitFor('speech.started', () => received.some((frame) => frame.type === 'speech.started'), 20_000);
    await waitFor('the barge-in', () =>
      received.some(
        (frame) =>
          frame.type === 'agent.message' && frame.turn_id === welcomeTurn && frame.interrupted === true,
      ),
    );
    const heardAt = received.find((frame) => frame.type === 'speech.started')!.at as number;
    const cutAt = received.find((frame) => frame.type === 'agent.message' && frame.turn_id === welcomeTurn)!
      .at as number;
    assert.ok(cutAt >= heardAt, 'the welcome was cut after the participant started speaking');
    await waitInPage(
      'the welcome’s audio stopped',
      'window.roomDiagnostics.audio.cut > 0 && window.roomDiagnostics.audio.speaking === false',
      5000,
    );
    await shot(page, '3-listening');

    // The words reach the transcript through the service's recogniser.
    await waitFor('speech.stopped with text', () =>
      received.some((frame) => frame.type === 'speech.stopped' && String(frame.text).trim() !== ''),
    );
    const stopped = received.find((frame) => frame.type === 'speech.stopped' && String(frame.text).trim())!;
    const heard = String(stopped.text).toLowerCase();
    const matched = SENTENCE_WORDS.filter((word) => heard.includes(word));
    assert.ok(matched.length >= 3, `recognised "${heard}"`);
    await waitFor('the user sentence', () =>
      received.some(
        (frame) =>
          frame.type === 'transcript.sentence' &&
          (frame.sentence as { speaker: string }).speaker === 'user' &&
          matched.some((word) =>
            (frame.sentence as { message: string }).message.toLowerCase().includes(word),
          ),
      ),
    );
    await page.locator('#transcript li.line--user', { hasText: matched[0] }).waitFor();
    // While they spoke, a draft line showed it ("…", then each interim text the engine gave).
    const drafts = (await page.evaluate('window.__drafts')) as string[];
    assert.ok(drafts.length > 0, 'a draft line showed while the participant spoke');
    for (const interim of received.filter((frame) => frame.type === 'transcript.interim' && frame.text)) {
      assert.ok(
        drafts.includes(String(interim.text)),
        `interim "${interim.text}" shown: ${drafts.join(' | ')}`,
      );
    }

    // The persona answers by voice, and the room plays it to the end.
    const playedBefore = (await diagnostics()).audio.played;
    await waitFor('the reply’s audio', () =>
      received.some((frame) => frame.type === 'agent.audio' && frame.turn_id !== welcomeTurn),
    );
    await waitInPage('the reply played', `window.roomDiagnostics.audio.played > ${playedBefore}`);
    await shot(page, '4-reply');
    const after = await diagnostics();
    assert.equal(after.input, 'service');
    assert.equal(after.output, 'service');
    assert.equal(after.audio.context, 'running');
    assert.ok(after.audio.playedMs > 0);
    assert.ok(binarySent > 50, `microphone frames sent: ${binarySent}`);
    const states = (await page.evaluate('window.__states')) as string[];
    for (const state of ['speaking', 'listening', 'thinking'])
      assert.ok(states.includes(state), states.join(' → '));

    // Leave: the recording (camera + microphone + persona) uploads.
    await page.getByRole('button', { name: 'Leave the meeting' }).click();
    await page.getByRole('button', { name: 'Leave meeting' }).click();
    await page.getByText('Recording saved', { exact: false }).waitFor({ timeout: 30_000 });
    await shot(page, '5-ended');

    // Every request stayed on the service's origin (page, scripts, worklet, vendor module, socket).
    const foreign = requests.filter((url) => new URL(url.replace(/^ws/, 'http')).origin !== origin);
    assert.deepEqual(foreign, []);
    assert.ok(requests.some((url) => url.includes('/room-assets/vendor/fix-webm-duration.js')));
    // What no tool here can see (the worklet's own module fetch) the page's policy still bounds.
    const csp = pageResponse?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(
      csp,
      new RegExp(`connect-src 'self' ws://${new URL(t.baseUrl).host} wss://${new URL(t.baseUrl).host};`),
    );
    assert.deepEqual(errors, []);

    // The recording has a duration and holds the persona's voice: while the welcome played, the
    // fake microphone was still silent, so sound there can only be the mixed-in persona.
    const recording = await api('GET', `/v1/recordings/url-with-thumbnail/${meeting.id}`);
    assert.equal(recording.status, 200, JSON.stringify(recording.body));
    const { url } = recording.body.data as { url: string };
    const media = Buffer.from(await (await fetch(url)).arrayBuffer());
    const duration = webmDurationMs(media);
    assert.ok(duration !== null && duration > 5000, `duration ${duration}`);
    // From a little after the welcome was heard to a little before the participant's voice began
    // (speech.started comes ~0.3 s after the onset), in seconds of the recording.
    const span = {
      from: (Math.max(welcomeHeardAt, recordingStartedAt) - recordingStartedAt) / 1000 + 0.2,
      to: (heardAt - recordingStartedAt) / 1000 - 0.6,
    };
    assert.ok(span.to - span.from > 0.5, JSON.stringify(span));
    await page.goto(`${t.baseUrl}/room-assets/room.css`);
    const levels = (await page.evaluate(`(async () => {
      const bytes = await (await fetch(${JSON.stringify(url)})).arrayBuffer();
      const decoded = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes);
      const data = decoded.getChannelData(0);
      const rms = (from, to) => {
        let sum = 0;
        const a = Math.floor(from * decoded.sampleRate), b = Math.floor(to * decoded.sampleRate);
        for (let i = a; i < b; i += 1) sum += data[i] * data[i];
        return Math.sqrt(sum / Math.max(1, b - a));
      };
      const profile = [];
      for (let at = 0; at + 0.25 <= decoded.duration; at += 0.25) profile.push(Math.round(rms(at, at + 0.25) * 1000));
      return { welcome: rms(${JSON.stringify(span.from)}, ${JSON.stringify(span.to)}), seconds: decoded.duration, profile };
    })()`)) as { welcome: number; seconds: number; profile: number[] };
    assert.ok(
      levels.welcome > 0.005,
      `recording level while only the persona spoke: ${JSON.stringify({ span, ...levels })}`,
    );
    await context.close();
  });
});
