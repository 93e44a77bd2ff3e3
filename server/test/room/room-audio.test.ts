// The room's audio and display parts in a real browser, against the stand-in room server (no
// database): the capture worklet's 16 kHz PCM, the persona audio queue and its barge-in cut, the
// recording's WebM duration (fix-webm-duration served from the room's origin), the status line's
// rules, the activity indicator and the transcript that keeps the newest line in view. Skips when
// /usr/bin/chromium is absent (scripts/ensure-chromium.sh installs it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { startFakeRoomServer } from './fake-room-server.ts';
import { webmDurationMs } from './webm.ts';

describe('room audio and display parts in Chromium', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startFakeRoomServer>>;
  let browser: Browser;
  let page: Page;

  before(async () => {
    server = await startFakeRoomServer();
    browser = await launchChromium([
      '--autoplay-policy=no-user-gesture-required',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Any page of the room's origin will do: the modules are imported by the tests.
    await page.goto(`${server.address}/room-assets/room.css`);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  // A string, not a function: the test runner's transpiler would add helpers the page lacks.
  const run = <T>(script: string) => page.evaluate(script) as Promise<T>;

  it('downsamples the microphone to 16 kHz PCM chunks of 40 ms without folding high tones back', async () => {
    const results = await run<
      { rate: number; freq: number; bytes: number[]; samples: number; crossings: number; rms: number }[]
    >(`(async () => {
      const render = async (rate, freq) => {
        const context = new OfflineAudioContext(1, rate, rate);
        await context.audioWorklet.addModule('/room-assets/js/audio/capture-worklet.js');
        const tone = context.createOscillator();
        tone.frequency.value = freq;
        const gain = context.createGain();
        gain.gain.value = 0.5;
        const node = new AudioWorkletNode(context, 'pcm-capture', {
          numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit',
          processorOptions: { chunkMs: 40 },
        });
        const chunks = [];
        node.port.onmessage = (event) => chunks.push(event.data);
        tone.connect(gain).connect(node);
        tone.start();
        await context.startRendering();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const pcm = chunks.flatMap((chunk) => Array.from(new Int16Array(chunk.pcm)));
        let crossings = 0;
        for (let i = 1; i < pcm.length; i += 1) if ((pcm[i - 1] < 0) !== (pcm[i] < 0)) crossings += 1;
        const settled = pcm.slice(1600);
        const rms = Math.sqrt(settled.reduce((sum, s) => sum + s * s, 0) / settled.length) / 32768;
        return { rate, freq, bytes: [...new Set(chunks.map((chunk) => chunk.pcm.byteLength))], samples: pcm.length, crossings, rms };
      };
      return [await render(48000, 1000), await render(44100, 1000), await render(44100, 11000), await render(48000, 15000)];
    })()`);
    for (const result of results) {
      // One second of input: 16,000 samples at 16 kHz, in chunks of 640 samples (1,280 bytes).
      assert.equal(result.samples, 16_000, JSON.stringify(result));
      assert.deepEqual(result.bytes, [1280]);
    }
    const [at48, at44, high44, high48] = results;
    // A 1 kHz tone keeps its pitch (2 zero crossings per period) and its level (0.5 peak → 0.354 RMS).
    for (const tone of [at48!, at44!]) {
      assert.ok(Math.abs(tone.crossings - 2000) <= 2, JSON.stringify(tone));
      assert.ok(Math.abs(tone.rms - 0.3535) < 0.01, JSON.stringify(tone));
    }
    // Tones above 8 kHz would alias into the speech band: the low-pass keeps them > 20 dB down.
    assert.ok(high44!.rms < 0.3535 / 10, JSON.stringify(high44));
    assert.ok(high48!.rms < 0.3535 / 10, JSON.stringify(high48));
  });

  it('plays the persona’s sentences back to back and cuts a turn at once on barge-in', async () => {
    const result = await run<Record<string, unknown>>(`(async () => {
      const { MeetingAudio } = await import('/room-assets/js/audio/graph.js');
      const { PersonaPlayback } = await import('/room-assets/js/audio/playback.js');
      const audio = MeetingAudio.create();
      await audio.resume();
      const playback = new PersonaPlayback(audio);
      const events = [];
      playback.addEventListener('speaking', () => events.push('speaking'));
      playback.addEventListener('idle', () => events.push('idle'));
      const sentence = (ms, rate = 16000) => {
        const pcm = new Int16Array((rate * ms) / 1000);
        for (let i = 0; i < pcm.length; i += 1) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate));
        return pcm.buffer;
      };
      const header = (turn, seq, rate = 16000) => ({ turn_id: turn, seq, sample_rate: rate });
      // Turn 1: three sentences of 150 ms arriving at once, played back to back.
      // The context's clock runs on while the sentences are built: the first one starts 30 ms after
      // whatever the clock read when it was queued, somewhere between these two readings.
      const before = audio.context.currentTime;
      for (let seq = 0; seq < 3; seq += 1) playback.play(header('t1', seq), sentence(150));
      const drift = audio.context.currentTime - before;
      const queued = playback.queueEnd - before;
      await new Promise((resolve) => setTimeout(resolve, 900));
      const afterFirst = { ...playback.stats, speaking: playback.speaking };
      // Turn 2: a long sentence (24 kHz audio), cut 200 ms in; a late sentence of it is dropped.
      playback.play(header('t2', 0, 24000), sentence(3000, 24000));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const speakingBeforeCut = playback.speaking;
      playback.stopTurn('t2');
      const speakingAfterCut = playback.speaking;
      playback.play(header('t2', 1), sentence(500));
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { queued, drift, afterFirst, speakingBeforeCut, speakingAfterCut, final: { ...playback.stats }, active: playback.active, events, state: audio.context.state };
    })()`);
    assert.equal(result.state, 'running');
    // Back to back: three 150 ms sentences end 450 ms (+ the 30 ms lead) after the first was queued.
    const queued = result.queued as number;
    const drift = result.drift as number;
    assert.ok(queued >= 0.48 - 0.005 && queued <= 0.48 + drift + 0.005, JSON.stringify(result));
    assert.deepEqual(result.afterFirst, {
      received: 3,
      played: 3,
      cut: 0,
      dropped: 0,
      playedMs: 450,
      speaking: false,
    });
    assert.equal(result.speakingBeforeCut, true);
    assert.equal(result.speakingAfterCut, false);
    assert.deepEqual(result.final, { received: 5, played: 3, cut: 1, dropped: 1, playedMs: 450 });
    assert.equal(result.active, false);
    assert.deepEqual(result.events, ['speaking', 'idle', 'speaking', 'idle']);
  });

  it('records a WebM that has a duration, written in with the library served from the room’s origin', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const result = await run<{
      type: string;
      bytes: number[];
      durationMs: number;
      earliest: number;
      latest: number;
    }>(`(async () => {
      const { MeetingAudio } = await import('/room-assets/js/audio/graph.js');
      const { Recording } = await import('/room-assets/js/recorder.js');
      const audio = MeetingAudio.create();
      await audio.resume();
      const tone = audio.context.createOscillator();
      tone.connect(audio.output);
      tone.start();
      // The mixed track alone (no camera): an audio-only WebM.
      const recording = new Recording(new MediaStream(), { audioTrack: audio.recordingTrack() });
      recording.start();
      // The recorder's own events bracket what it recorded; on a loaded machine either may come
      // hundreds of milliseconds after the call that causes it.
      let startedAt = 0;
      let stoppedAt = 0;
      recording.recorder.addEventListener('start', () => { startedAt = performance.now(); });
      recording.recorder.addEventListener('stop', () => { stoppedAt = performance.now(); });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stopCalledAt = performance.now();
      const { blob, durationMs } = await recording.stop();
      return {
        type: blob.type,
        bytes: Array.from(new Uint8Array(await blob.arrayBuffer())),
        durationMs,
        earliest: stopCalledAt - startedAt,
        latest: stoppedAt - startedAt,
      };
    })()`);
    assert.match(result.type, /^audio\/webm/);
    const duration = webmDurationMs(Buffer.from(result.bytes));
    assert.ok(duration !== null, 'the WebM has a Duration element');
    assert.equal(Math.round(duration), result.durationMs);
    // From the recorder's start to its stop: at least until stop() was called, at most until the
    // stop event (a few milliseconds of rounding either way).
    assert.ok(
      result.durationMs >= result.earliest - 5 && result.durationMs <= result.latest + 5,
      JSON.stringify({ ...result, bytes: undefined }),
    );
    assert.ok(requests.some((url) => url.endsWith('/room-assets/vendor/fix-webm-duration.js')));
  });

  it('keeps one status line that a late event of a failed engine cannot contradict', async () => {
    const lines = await run<string[]>(`(async () => {
      const { StatusLine } = await import('/room-assets/js/status.js');
      const element = document.createElement('p');
      const status = new StatusLine(element);
      const seen = [element.textContent];
      const step = (change) => { change(); seen.push(element.textContent); };
      step(() => status.setConnection('connected'));
      step(() => status.useInput('browser'));
      step(() => status.ready('browser'));
      // The browser's recognition fails; its restart then reports "listening" once more.
      step(() => status.useInput('typing', 'Voice recognition could not use the microphone.'));
      step(() => status.ready('browser'));
      step(() => status.setMuted(true));
      step(() => status.useInput('service'));
      step(() => status.ready('service'));
      step(() => status.setMuted(false));
      step(() => status.setConnection('reconnecting'));
      step(() => status.setConnection('connected'));
      step(() => status.useInput('service', '', 'pocketsphinx'));
      step(() => status.ready('service'));
      step(() => status.useInput('service', '', 'openai-compatible'));
      step(() => status.ready('service'));
      return seen;
    })()`);
    assert.deepEqual(lines, [
      'Joining the meeting…',
      'Type your replies.',
      'Starting voice recognition…',
      'Voice recognised by your browser. Speak or type.',
      'Type your replies. Voice recognition could not use the microphone.',
      'Type your replies. Voice recognition could not use the microphone.',
      'Type your replies. Voice recognition could not use the microphone.',
      'Microphone muted. Type your replies, or unmute to speak.',
      'Microphone muted. Type your replies, or unmute to speak.',
      'Voice recognised by the service. Speak or type.',
      'Connection lost. Reconnecting…',
      'Voice recognised by the service. Speak or type.',
      'Starting your microphone…',
      'Voice recognised by the service’s offline recogniser (PocketSphinx: speak clearly, close to the microphone). Speak or type.',
      'Starting your microphone…',
      'Voice recognised by the service’s speech recogniser (Whisper-compatible). Speak or type.',
    ]);
  });

  it('shows speaking over listening over thinking', async () => {
    const states = await run<string[]>(`(async () => {
      const { activityState } = await import('/room-assets/js/activity.js');
      const base = { joined: true, personaSpeaking: false, userSpeaking: false, thinking: false };
      return [
        activityState({ ...base, joined: false }),
        activityState(base),
        activityState({ ...base, thinking: true }),
        activityState({ ...base, thinking: true, userSpeaking: true }),
        activityState({ ...base, thinking: true, userSpeaking: true, personaSpeaking: true }),
      ];
    })()`);
    assert.deepEqual(states, ['joining', 'idle', 'thinking', 'listening', 'speaking']);
  });

  it('streams the microphone, restarts it on a device switch or unmute, and plays on the chosen speaker', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const room = await context.newPage();
    const errors: string[] = [];
    room.on('pageerror', (error) => errors.push(error.message));
    const poll = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const diagnostics = () =>
      room.evaluate('window.roomDiagnostics') as Promise<{
        input: string;
        output: string;
        audio: Record<string, number | string | boolean>;
      }>;
    server.voice.events.length = 0;
    await room.goto(server.roomUrl);
    await room.getByRole('button', { name: 'Get started' }).click();
    await room.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await room.getByText('The service will recognise your voice', { exact: false }).waitFor();
    await room.getByRole('button', { name: 'Continue', exact: true }).click();
    await room.getByRole('button', { name: 'Join without recording' }).click();
    await room.getByText('Voice recognised by the service', { exact: false }).waitFor();
    await poll('the first microphone frames', () => server.voice.frames > 10);
    assert.deepEqual(server.voice.events, ['audio.start']);
    // The persona's (hummed) opening plays through Web Audio.
    await poll('the opening played', async () => Number((await diagnostics()).audio.played) > 0);
    assert.equal((await diagnostics()).output, 'service');

    // Both pickers list Chromium's fake devices.
    await room.getByRole('button', { name: 'Microphone and speaker' }).click();
    const settings = room.getByRole('group', { name: 'Microphone and speaker' });
    const microphones = await room
      .locator('#meeting-mic option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    const speakers = await room
      .locator('#meeting-speaker option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    assert.ok(microphones.length >= 2 && speakers.length >= 2, JSON.stringify({ microphones, speakers }));

    // Another microphone: the stream stops and starts again with the new device.
    const otherMic = microphones.find((id) => id !== 'default')!;
    await settings.getByLabel('Microphone', { exact: true }).selectOption(otherMic);
    await poll(
      'the stream restarted',
      () => server.voice.events.join(' ') === 'audio.start audio.stop audio.start',
    );
    const framesAfterSwitch = server.voice.frames;
    await poll('frames from the new microphone', () => server.voice.frames > framesAfterSwitch + 5);
    assert.equal(await settings.getByLabel('Microphone', { exact: true }).inputValue(), otherMic);

    // Another speaker: the persona's audio context plays there.
    const otherSpeaker = speakers.find((id) => id !== 'default')!;
    await settings.getByLabel('Speaker', { exact: true }).selectOption(otherSpeaker);
    await poll('the speaker switched', async () => (await diagnostics()).audio.sinkId === otherSpeaker);
    await room.keyboard.press('Escape');
    assert.equal(await room.locator('#audio-settings-panel').isVisible(), false);

    // Mute stops the stream (and says so); unmute starts it again.
    await room.getByRole('button', { name: 'Microphone on (select to mute)' }).click();
    await poll('audio.stop on mute', () => server.voice.events.length === 4);
    assert.equal(server.voice.events[3], 'audio.stop');
    await room.getByText('Microphone muted', { exact: false }).waitFor();
    await room.getByRole('button', { name: 'Microphone off' }).click();
    await poll('audio.start on unmute', () => server.voice.events.length === 5);
    await room.getByText('Voice recognised by the service', { exact: false }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('records the persona for a participant with neither camera nor microphone', async (t) => {
    // The participant leaves: the stand-in meeting starts afresh for the tests after this one.
    t.after(() => server.reopen());
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const room = await context.newPage();
    const errors: string[] = [];
    room.on('pageerror', (error) => errors.push(error.message));
    server.uploads.length = 0;
    await room.goto(server.roomUrl);
    await room.getByRole('button', { name: 'Get started' }).click();
    await room.getByRole('button', { name: 'Continue without them' }).click();
    // Nothing of the participant's, but the persona's voice is there to record: consent is asked.
    await room.getByLabel('I agree that my camera and microphone', { exact: false }).check();
    await room.getByRole('button', { name: 'Join with recording' }).click();
    const deadline = Date.now() + 20_000;
    const state = () =>
      room.evaluate(`({
        recording: window.roomDiagnostics.recordingStartedAt,
        played: window.roomDiagnostics.audio.played,
        speaking: window.roomDiagnostics.audio.speaking,
      })`) as Promise<{ recording: number; played: number; speaking: boolean }>;
    // The opening plays (hummed by the stand-in server) and ends.
    while (!((await state()).played > 0 && !(await state()).speaking) && Date.now() < deadline) {
      await room.waitForTimeout(100);
    }
    assert.ok((await state()).recording > 0, 'the recording started');
    await room.getByRole('button', { name: 'Leave the meeting' }).click();
    await room.getByRole('button', { name: 'Leave meeting' }).click();
    await room.getByText('Recording saved', { exact: false }).waitFor({ timeout: 20_000 });
    const upload = server.uploads.find((entry) => entry.path === 'recording');
    assert.ok(upload, 'the recording was uploaded');
    assert.match(upload.type, /^audio\//, 'audio only: there is no camera');
    // The persona's voice is in it: its level is well above silence.
    const level = await run<{ rms: number; seconds: number }>(`(async () => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(upload.body.toString('base64'))}), (c) => c.charCodeAt(0));
      const decoded = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes.buffer);
      const data = decoded.getChannelData(0);
      let sum = 0;
      for (const sample of data) sum += sample * sample;
      return { rms: Math.sqrt(sum / Math.max(1, data.length)), seconds: decoded.duration };
    })()`);
    assert.ok(level.rms > 0.005, `recording level ${JSON.stringify(level)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows what the service hears: a draft while speaking, each final in order, listening then thinking', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const room = await context.newPage();
    await room.goto(server.roomUrl);
    await room.getByRole('button', { name: 'Get started' }).click();
    await room.getByRole('button', { name: 'Allow camera and microphone' }).click();
    await room.getByRole('button', { name: 'Continue', exact: true }).click();
    await room.getByRole('button', { name: 'Join without recording' }).click();
    await room.locator('#transcript li.line--agent').first().waitFor();
    const view = () =>
      room.evaluate(`({
        state: document.getElementById('persona-tile').dataset.state,
        draft: document.getElementById('user-draft').hidden ? null : document.getElementById('user-draft-text').textContent,
        users: [...document.querySelectorAll('#transcript li.line--user .line__text')].map((line) => line.textContent),
        status: document.getElementById('voice-status').textContent,
      })`) as Promise<{ state: string; draft: string | null; users: string[]; status: string }>;
    const settle = () => room.waitForTimeout(100);
    // Frames reach the page asynchronously: poll until the view shows what the step expects (or give
    // up after 5 s and let the assertion report what it shows).
    const viewWhen = async (expected: (shown: Awaited<ReturnType<typeof view>>) => boolean) => {
      const until = Date.now() + 5_000;
      let shown = await view();
      while (!expected(shown) && Date.now() < until) {
        await settle();
        shown = await view();
      }
      return shown;
    };
    // Wait for the opening to finish playing: "Your turn".
    const deadline = Date.now() + 15_000;
    while ((await view()).state !== 'idle' && Date.now() < deadline) await settle();

    server.push({ type: 'speech.started', start_ms: 1000 });
    assert.deepEqual(
      { ...(await viewWhen((v) => v.state === 'listening')), status: undefined },
      { state: 'listening', draft: '…', users: [], status: undefined },
    );
    server.push({ type: 'transcript.interim', text: 'i led the' });
    assert.equal((await viewWhen((v) => v.draft === 'i led the')).draft, 'i led the');
    // The next utterance starts before the first one's final arrives.
    server.push({ type: 'speech.started', start_ms: 5000 });
    server.push({ type: 'speech.stopped', start_ms: 1000, end_ms: 3000, text: 'i led the migration' });
    assert.deepEqual(
      { ...(await viewWhen((v) => v.users.length === 1 && v.draft === '…')), status: undefined },
      {
        state: 'listening',
        draft: '…',
        users: ['i led the migration'],
        status: undefined,
      },
    );
    server.push({ type: 'speech.stopped', start_ms: 5000, end_ms: 6000, text: 'to kubernetes' });
    assert.deepEqual(
      { ...(await viewWhen((v) => v.users.length === 2 && v.state === 'thinking')), status: undefined },
      {
        state: 'thinking',
        draft: null,
        users: ['i led the migration', 'to kubernetes'],
        status: undefined,
      },
    );
    // Noise: nothing recognised, nothing shown.
    server.push({ type: 'speech.started', start_ms: 8000 });
    server.push({ type: 'speech.stopped', start_ms: 8000, end_ms: 8300, text: '' });
    await settle();
    assert.deepEqual((await view()).users, ['i led the migration', 'to kubernetes']);
    assert.equal((await view()).draft, null);
    // A sentence the service could not synthesise: said on the status line, voice stays on.
    server.push({
      type: 'error',
      code: 'speech_unavailable',
      message: 'The persona’s voice could not be synthesised; read the text.',
      fatal: false,
    });
    assert.equal(
      (await viewWhen((v) => v.status !== '' && v.status.includes('synthesised'))).status,
      'The persona’s voice could not be synthesised; read the text.',
    );
    assert.equal(await room.evaluate('window.roomDiagnostics.output'), 'service');
    await context.close();
  });

  it('keeps the newest line in view while lines stream in, unless the participant scrolled up', async () => {
    await page.goto(server.roomUrl);
    await page.getByRole('button', { name: 'Get started' }).waitFor();
    const probe = `(() => {
      const scroller = document.getElementById('transcript-scroll');
      const lines = document.querySelectorAll('#transcript li');
      const last = lines[lines.length - 1].getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      return { lastVisible: last.bottom <= box.bottom + 1 && last.top >= box.top - 1, jump: !document.getElementById('transcript-jump').hidden, lines: lines.length };
    })()`;
    const streamed = await run<{ lastVisible: boolean; lines: number }>(`(async () => {
      for (const screen of document.querySelectorAll('#app > .screen')) screen.hidden = screen.id !== 'screen-meeting';
      const { TranscriptView } = await import('/room-assets/js/transcript.js');
      const byId = (id) => document.getElementById(id);
      window.view = new TranscriptView({
        list: byId('transcript'), scroller: byId('transcript-scroll'), content: byId('transcript-content'),
        draft: byId('draft'), draftSpeaker: byId('draft-speaker'), draftText: byId('draft-text'),
        userDraft: byId('user-draft'), userDraftText: byId('user-draft-text'), jump: byId('transcript-jump'),
      }, { agent: 'Elena Fischer', user: 'You' });
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      // Fast replies: words every 5 ms, the final line right after the last word.
      for (let turn = 0; turn < 12; turn += 1) {
        window.view.userLine('An answer of mine, number ' + turn + '.', 'c' + turn);
        const words = ('That is interesting. Tell me more about the part where you had to decide, and why, turn ' + turn + '?').split(' ');
        for (const word of words) { window.view.delta('t' + turn, word + ' '); await wait(5); }
        window.view.agentMessage('t' + turn, words.join(' '), false);
      }
      await wait(100);
      return ${probe};
    })()`);
    assert.equal(streamed.lines, 24);
    assert.equal(streamed.lastVisible, true, 'the persona’s last question is in view');

    // The participant scrolls up to reread: new lines do not pull them down, a button offers to.
    await page.locator('#transcript-scroll').hover();
    await page.mouse.wheel(0, -600);
    await page.waitForTimeout(300);
    const reading = await run<{ lastVisible: boolean; jump: boolean }>(`(async () => {
      window.view.agentMessage('t-late', 'One more thing, while you read.', false);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return ${probe};
    })()`);
    assert.equal(reading.lastVisible, false);
    assert.equal(reading.jump, true);
    await page.getByRole('button', { name: 'Newest' }).click();
    const back = await run<{ lastVisible: boolean; jump: boolean }>(probe);
    assert.deepEqual(back, { lastVisible: true, jump: false, lines: 25 });
  });
});
