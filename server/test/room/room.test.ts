// The meeting room in a real browser: Debian's Chromium driven by playwright-core, with fake
// camera and microphone, against the real platform on a loopback port (offline engine) WITHOUT
// the service's speech engines — the room's fallbacks: the browser's recognition and speech
// synthesis, or typing (voice-browser.test.ts covers the service's engines). Signs up,
// creates a meeting through the API, opens the room with `?t=`, walks through welcome,
// permissions and consent, joins, types a turn, sees the persona's reply, leaves, and checks
// through the API that the meeting ended. Skips when /usr/bin/chromium is absent
// (scripts/ensure-chromium.sh installs it).
//
// ROOM_SCREENSHOTS=<dir> saves screenshots of each step there (for looking at the design).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumMissing, launchChromium, screenshotter } from '../chromium.ts';
import { bearer, type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { webmDurationMs } from './webm.ts';

const shot = screenshotter(process.env.ROOM_SCREENSHOTS ?? '');

interface Meeting {
  id: string;
  room_meeting_url: string;
  meeting_url: string;
  room_token: string;
}

describe('meeting room in Chromium', { skip: chromiumMissing }, () => {
  let t: ListeningPlatform;
  let browser: Browser;
  let key: string;
  let scenario: { id: string; name: string; personaName: string };

  const api = async (method: string, url: string, payload?: object) => {
    const response = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), payload });
    return { status: response.statusCode, body: response.json() };
  };

  /** A seeded scenario when the workspace has one, else a small one made here. */
  async function pickScenario() {
    const listed = await api('GET', '/v1/scenarios');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const seeded = (listed.body.data as { id: string; default_kind: string | null }[]).find(
      (s) => s.default_kind,
    );
    let id = seeded?.id;
    if (!id) {
      const persona = await api('POST', '/v1/personas', {
        name: 'Elena Fischer',
        job_title: 'Engineering Manager',
        gender: 'female',
        demeanor: 'friendly',
      });
      assert.equal(persona.status, 201, JSON.stringify(persona.body));
      const created = await api('POST', '/v1/scenarios', {
        name: 'Backend Engineer Interview',
        type: 'interview',
        persona_id: persona.body.id ?? persona.body.data?.id,
        description: 'A short screening interview.',
        prompt: 'Ask about a system the candidate designed, then about an incident they handled.',
        call_duration: 10,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      id = (created.body.id ?? created.body.data?.id) as string;
    }
    // Exercise the consent step: the scenario records and asks first.
    const updated = await api('PUT', `/v1/scenarios/${id}`, {
      session_options: { recording_enabled: true, recording_consent_required: true },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const full = updated.body.data ?? updated.body;
    return { id, name: full.name as string, personaName: full.Persona?.name as string };
  }

  async function createMeeting(): Promise<Meeting> {
    const created = await api('POST', '/v1/meetings', { scenario_id: scenario.id, person_name: 'Sam Lee' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.success, true);
    return created.body.data;
  }

  before(async () => {
    t = await startListeningPlatform({ speech: { recognizer: null, synthesizer: null } });
    const workspace = await t.signup();
    key = (await t.createApiKey(workspace)).secret;
    scenario = await pickScenario();
    browser = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('welcome, permissions, consent, a typed turn, the reply, leave: the meeting ends', async () => {
    const meeting = await createMeeting();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const response = await page.goto(`${meeting.room_meeting_url}?t=${meeting.room_token}`);
    assert.equal(response?.status(), 200);
    const headers = response!.headers();
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.match(headers['content-security-policy']!, /frame-ancestors \*/);
    assert.match(headers['content-security-policy']!, /script-src 'self'/);

    // Welcome: scenario and persona.
    await page.getByRole('heading', { level: 1, name: scenario.name }).waitFor();
    if (scenario.personaName) await page.getByText(scenario.personaName, { exact: true }).first().waitFor();
    assert.equal(await page.locator('#welcome-avatar').getAttribute('alt'), '');
    await shot(page, '1-welcome');
    await page.getByRole('button', { name: 'Get started' }).click();

    // Camera and microphone (fake devices, granted).
    await page.getByRole('heading', { name: 'Camera and microphone' }).waitFor();
    await page.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await page.getByText('Camera and microphone are ready', { exact: false }).waitFor();
    await shot(page, '2-devices');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    // Recording consent: refusing to tick is caught, then consent and join.
    await page.getByRole('heading', { name: 'Recording consent' }).waitFor();
    await page.getByRole('button', { name: 'Join with recording' }).click();
    await page.getByRole('alert').getByText('Tick the box', { exact: false }).waitFor();
    await page.getByLabel('I agree that my camera and microphone are recorded', { exact: false }).check();
    await page.getByRole('button', { name: 'Join with recording' }).click();

    // In the meeting: the persona opens the call (welcome message).
    const agentLines = page.locator('#transcript li.line--agent');
    await agentLines.first().waitFor({ timeout: 15_000 });
    await page.locator('#rec-indicator').waitFor();
    assert.match((await page.locator('#timer-elapsed').textContent()) ?? '', /^\d\d:\d\d$/);
    assert.notEqual(await page.locator('#timer-limit').textContent(), '--:--');

    // A typed turn, and the persona's reply.
    const answer = 'I designed a payments ledger on PostgreSQL with an outbox for events.';
    await page.getByLabel('Your message').fill(answer);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#transcript li.line--user', { hasText: answer }).waitFor();
    await agentLines.nth(1).waitFor({ timeout: 15_000 });
    assert.ok(((await agentLines.nth(1).textContent()) ?? '').trim().length > 0);
    await shot(page, '3-meeting');

    // Leave (confirmed in a dialog): the end screen, and the recording uploads.
    await page.getByRole('button', { name: 'Leave the meeting' }).click();
    await page.getByRole('button', { name: 'Leave meeting' }).click();
    await page.getByRole('heading', { name: 'The meeting has ended' }).waitFor({ timeout: 15_000 });
    await page.getByText('You left the meeting.').waitFor();
    await page.getByText('Recording saved', { exact: false }).waitFor({ timeout: 20_000 });
    await shot(page, '4-ended');
    assert.deepEqual(errors, []);

    // The API agrees: ended by the participant, who joined and left, with the typed line stored.
    const read = await api('GET', `/v1/meetings/${meeting.id}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const stored = read.body.data ?? read.body;
    assert.equal(stored.status, 'ended');
    const participant = stored.participants?.[0];
    assert.ok(participant?.joined_at, 'participant joined');
    assert.ok(participant?.left_at, 'participant left');
    const said = (stored.sentenced_transcripts ?? []).map((s: { message: string }) => s.message).join(' ');
    assert.match(said, /payments ledger/);

    // What MediaRecorder recorded, and the camera still, reached storage and are served signed.
    const recording = await api('GET', `/v1/recordings/url-with-thumbnail/${meeting.id}`);
    assert.equal(recording.status, 200, JSON.stringify(recording.body));
    const { url, thumbnail_url, content_type, size_bytes } = recording.body.data;
    assert.match(content_type, /^video\/webm/);
    assert.ok(size_bytes > 0);
    const media = await fetch(url);
    assert.equal(media.status, 200);
    // MediaRecorder writes no duration; the room wrote it in before uploading (players can seek).
    const duration = webmDurationMs(Buffer.from(await media.arrayBuffer()));
    assert.ok(duration !== null && duration > 0, `WebM duration ${duration}`);
    assert.ok(thumbnail_url, 'the thumbnail frame was uploaded');
    assert.match((await fetch(thumbnail_url)).headers.get('content-type') ?? '', /^image\//);

    // The full-page view of the ended meeting (meeting_url opens as returned: it carries the token)
    // shows the outcome and the transcript.
    assert.equal(
      meeting.meeting_url,
      `${meeting.room_meeting_url.replace('/room/', '/meetings/')}?t=${meeting.room_token}`,
    );
    const full = await page.goto(meeting.meeting_url);
    assert.equal(full?.status(), 200);
    await page.getByRole('heading', { name: 'This meeting has ended' }).waitFor();
    await page.locator('#ended-transcript li.line--user', { hasText: 'payments ledger' }).waitFor();
    await shot(page, '5-meeting-page');
    await context.close();
  });

  it('shows nothing about the meeting without the right token', async () => {
    const meeting = await createMeeting();
    const context = await browser.newContext();
    const page = await context.newPage();
    const wrong = meeting.room_token.slice(0, -1) + (meeting.room_token.endsWith('A') ? 'B' : 'A');
    for (const url of [
      meeting.room_meeting_url,
      `${meeting.room_meeting_url}?t=${wrong}`,
      `${meeting.room_meeting_url}?t=`,
    ]) {
      const response = await page.goto(url);
      assert.equal(response?.status(), 404, url);
      await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
      const html = await page.content();
      assert.doesNotMatch(html, new RegExp(scenario.name), url);
      if (scenario.personaName) assert.doesNotMatch(html, new RegExp(scenario.personaName), url);
      assert.doesNotMatch(html, new RegExp(meeting.id), url);
      assert.equal(await page.locator('script').count(), 0, url);
    }
    // The meeting page without the right token sends its opener to the dashboard's meeting page.
    const plain = meeting.meeting_url.split('?')[0]!;
    for (const url of [plain, `${plain}?t=${wrong}`]) {
      const redirect = await t.app.inject({ url: new URL(url).pathname + new URL(url).search });
      assert.equal(redirect.statusCode, 302, url);
      assert.equal(redirect.headers.location, `/#/meetings/${meeting.id}`, url);
    }
    // The meeting was never joined.
    const read = await api('GET', `/v1/meetings/${meeting.id}`);
    assert.equal((read.body.data ?? read.body).status, 'created');
    await context.close();
  });

  it('speaks the persona’s lines in a fitting voice and sends recognised speech as utterances', async () => {
    const meeting = await createMeeting();
    const welcome = await t.app.inject({
      url: `/v1/rooms/${meeting.id}`,
      headers: { 'x-room-token': meeting.room_token },
    });
    assert.equal(welcome.statusCode, 200, welcome.body);
    const voice = welcome.json().persona.voice as { language: string; browser_voice_hints: string[] };
    const fitting = `${voice.browser_voice_hints[1]} Online`;
    const context = await browser.newContext();
    // Headless Chromium has neither voices nor a speech service: stand-ins record what the room does.
    await context.addInitScript(`(() => {
      const lang = ${JSON.stringify(voice.language)};
      const voices = [
        { name: 'Decoy Voice', lang, localService: true, default: true },
        { name: ${JSON.stringify(fitting)}, lang, localService: false, default: false },
        { name: 'Google Deutsch', lang: 'de-DE', localService: false, default: false },
      ];
      window.__spoken = [];
      class Utterance extends EventTarget {
        constructor(text) { super(); this.text = text; this.voice = null; this.lang = ''; this.pitch = 1; this.rate = 1; }
      }
      const synth = new EventTarget();
      synth.getVoices = () => voices;
      synth.speak = (u) => {
        window.__spoken.push({ text: u.text, voice: u.voice && u.voice.name, lang: u.lang });
        setTimeout(() => u.dispatchEvent(new Event('end')), 20);
      };
      synth.cancel = () => {};
      Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
      window.SpeechSynthesisUtterance = Utterance;
      class Recognition extends EventTarget {
        start() { window.__recognition = this; setTimeout(() => { this.dispatchEvent(new Event('start')); this.dispatchEvent(new Event('audiostart')); }, 0); }
        stop() { this.abort(); }
        abort() { if (window.__recognition === this) window.__recognition = null; setTimeout(() => this.dispatchEvent(new Event('end')), 0); }
      }
      const results = (text, isFinal) => { const r = [{ transcript: text, confidence: 0.9 }]; r.isFinal = isFinal; return [r]; };
      window.__say = async (text) => {
        const r = window.__recognition;
        if (!r) return false;
        r.dispatchEvent(new Event('speechstart'));
        const words = text.split(' ');
        const interim = Object.assign(new Event('result'), { resultIndex: 0, results: results(words.slice(0, 3).join(' '), false) });
        r.dispatchEvent(interim);
        await new Promise((resolve) => setTimeout(resolve, 300));
        r.dispatchEvent(Object.assign(new Event('result'), { resultIndex: 0, results: results(text, true) }));
        return true;
      };
      window.SpeechRecognition = Recognition;
    })()`);
    const page = await context.newPage();
    const sent: Record<string, unknown>[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', (frame) => {
        if (typeof frame.payload === 'string') sent.push(JSON.parse(frame.payload));
      }),
    );
    await page.goto(`${meeting.room_meeting_url}?t=${meeting.room_token}`);
    await page.getByRole('button', { name: 'Get started' }).click();
    await page.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await page.getByText('Your browser will try to recognise your voice', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    // Declining the recording joins without it.
    await page.getByRole('button', { name: 'Join without recording' }).click();
    const agentLines = page.locator('#transcript li.line--agent');
    await agentLines.first().waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('#rec-indicator').isVisible(), false);

    // The opening line was spoken, sentence by sentence, in the voice the catalog hints at.
    await page.waitForFunction(() => (window as unknown as { __spoken: unknown[] }).__spoken.length > 0);
    const spoken = (await page.evaluate('window.__spoken')) as {
      text: string;
      voice: string;
      lang: string;
    }[];
    assert.ok(
      spoken.every((line) => line.voice === fitting && line.lang === voice.language),
      JSON.stringify(spoken),
    );
    const opening = ((await agentLines.first().textContent()) ?? '').replace(/\s+/g, ' ');
    assert.ok(opening.includes(spoken[0]!.text), `${opening} / ${spoken[0]!.text}`);

    // Speaking once the persona is quiet: an interim result (barge-in), then the final utterance.
    await page.waitForFunction(() =>
      Boolean((window as unknown as { __recognition: unknown }).__recognition),
    );
    const said = 'I want to ask my manager for a raise next week.';
    assert.equal(await page.evaluate(`window.__say(${JSON.stringify(said)})`), true);
    await page.locator('#transcript li.line--user', { hasText: said }).waitFor();
    await agentLines.nth(1).waitFor({ timeout: 15_000 });
    const join = sent.find((frame) => frame.type === 'join');
    assert.deepEqual(join?.consent, { recording: false });
    assert.equal(join?.recording, false);
    assert.ok(sent.some((frame) => frame.type === 'utterance' && frame.final === false));
    const utterance = sent.find((frame) => frame.type === 'utterance' && frame.final === true);
    assert.equal(utterance?.text, said);
    assert.ok(Number.isInteger(utterance?.start_ms) && Number.isInteger(utterance?.end_ms));
    assert.ok((utterance!.start_ms as number) < (utterance!.end_ms as number));

    await page.getByRole('button', { name: 'Leave the meeting' }).click();
    await page.getByRole('button', { name: 'Leave meeting' }).click();
    await page.getByRole('heading', { name: 'The meeting has ended' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('#upload').isVisible(), false);
    const read = await api('GET', `/v1/meetings/${meeting.id}`);
    const stored = read.body.data ?? read.body;
    assert.equal(stored.status, 'ended');
    assert.ok(
      stored.sentenced_transcripts.some(
        (s: { speaker: string; message: string }) => s.speaker === 'user' && s.message === said,
      ),
    );
    await context.close();
  });

  it('picks a voice that fits the persona and speaks whole sentences', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/room-assets/room.css`);
    // A string, not a function: the test runner's transpiler would add helpers the page lacks.
    const result = (await page.evaluate(`(async () => {
      const { pickVoice, takeSentences } = await import('/room-assets/js/voice.js');
      const voice = (name, lang, extra = {}) => ({ name, lang, localService: true, default: false, ...extra });
      const installed = [
        voice('Google Deutsch', 'de-DE', { default: true }),
        voice('Microsoft David - English (United States)', 'en-US'),
        voice('Microsoft Zira - English (United States)', 'en-US'),
        voice('Google UK English Female', 'en-GB'),
        voice('Google UK English Male', 'en-GB'),
        voice('Samantha', 'en-US'),
      ];
      const name = (want) => pickVoice(installed, want)?.name ?? null;
      return {
        hinted: name({ hints: ['Microsoft Aria', 'Samantha'], language: 'en-US', gender: 'female' }),
        britishMale: name({ hints: ['Google UK English Male'], language: 'en-GB', gender: 'male' }),
        noHintFemale: name({ hints: [], language: 'en-US', gender: 'female' }),
        noHintMale: name({ hints: [], language: 'en-US', gender: 'male' }),
        otherLanguage: name({ hints: [], language: 'fr-FR', gender: 'female' }),
        sentences: takeSentences('Hello there. It costs 3.5 dollars! And then'),
        partial: takeSentences('It is version 3.'),
      };
    })()`)) as Record<string, unknown>;
    assert.equal(result.hinted, 'Samantha');
    assert.equal(result.britishMale, 'Google UK English Male');
    assert.equal(result.noHintFemale, 'Microsoft Zira - English (United States)');
    assert.equal(result.noHintMale, 'Microsoft David - English (United States)');
    assert.equal(result.otherLanguage, null); // nothing speaks French: the browser chooses by `lang`
    assert.deepEqual(result.sentences, [['Hello there.', 'It costs 3.5 dollars!'], ' And then']);
    assert.deepEqual(result.partial, [[], 'It is version 3.']);
    await context.close();
  });

  it('can be embedded in another site’s page', async () => {
    const meeting = await createMeeting();
    // Another origin (a second loopback port) framing the room as docs/room.md shows.
    const embed = `<!doctype html><title>Customer site</title><iframe title="Meeting" src="${meeting.room_meeting_url}?t=${meeting.room_token}" allow="camera; microphone; autoplay" width="1000" height="700"></iframe>`;
    const site = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(embed);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe');
    await frame.getByRole('heading', { level: 1, name: scenario.name }).waitFor();
    await frame.getByRole('button', { name: 'Get started' }).click();
    await frame.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await frame.getByText('Camera and microphone are ready', { exact: false }).waitFor();
    await context.close();
    await new Promise((resolve) => site.close(resolve));
  });
});
