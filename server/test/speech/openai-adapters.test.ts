import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { SpeechEngineError } from '../../src/platform/speech/errors.ts';
import { createOpenAiRecognizer, MAX_INTERIM_AUDIO_MS } from '../../src/platform/speech/stt/openai.ts';
import { createOpenAiSynthesizer } from '../../src/platform/speech/tts/openai.ts';
import type { VoiceChoice } from '../../src/platform/speech/types.ts';
import { pcmDurationMs } from '../../src/platform/speech/wav.ts';
import { chunksOf, silencePcm, spokenPcm } from './audio-fixtures.ts';
import { type LoopbackSpeechServer, startLoopbackSpeechServer } from './loopback-speech-server.ts';

const KEY = 'sk-loopback-test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failsWith = (code: string, status?: number) => (error: SpeechEngineError) =>
  error.name === 'SpeechEngineError' &&
  error.code === code &&
  (status === undefined || error.status === status);

const voice = (overrides: Partial<VoiceChoice> = {}): VoiceChoice => ({
  ttsVoice: 'onyx',
  gender: 'male',
  voiceId: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e02',
  language: 'en-US',
  ...overrides,
});

describe('OpenAI-compatible adapters against a loopback speech server', () => {
  let server: LoopbackSpeechServer;
  let sentence: Buffer;
  before(async () => {
    server = await startLoopbackSpeechServer({
      apiKey: KEY,
      sttModel: 'whisper-1',
      ttsModel: 'tts-1',
      transcribe: (audio) =>
        `heard ${Math.round(pcmDurationMs(audio.pcm, audio.sampleRate) / 100) / 10} seconds`,
    });
    sentence = await spokenPcm('Tell me about a time you disagreed with your manager.');
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.override = null;
    server.maxConcurrent = 0;
  });

  const recognizer = (
    overrides: { apiKey?: string; model?: string; timeoutMs?: number } = {},
    interimEveryMs = 0,
  ) =>
    createOpenAiRecognizer(
      { baseUrl: server.baseUrl, apiKey: KEY, model: 'whisper-1', ...overrides },
      { interimEveryMs },
    );
  const synthesizer = (overrides: { apiKey?: string | null; model?: string; timeoutMs?: number } = {}) =>
    createOpenAiSynthesizer({ baseUrl: server.baseUrl, apiKey: KEY, model: 'tts-1', ...overrides });

  test('recognition: the utterance is uploaded as a 16 kHz WAV with model, language and key', async () => {
    const stream = recognizer().start({ language: 'en-GB' });
    for (const chunk of chunksOf(sentence, 40)) stream.write(chunk);
    const result = await stream.finish();
    const seconds = Math.round(pcmDurationMs(sentence, 16000) / 100) / 10;
    assert.equal(result.text, `heard ${seconds} seconds`);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request.path, '/v1/audio/transcriptions');
    assert.equal(request.authorization, `Bearer ${KEY}`);
    assert.match(request.contentType, /^multipart\/form-data; boundary=/);
    assert.deepEqual(request.fields, { model: 'whisper-1', response_format: 'json', language: 'en' });
    assert.equal(request.audio?.sampleRate, 16000);
    assert.ok(request.audio?.pcm.equals(sentence), 'the server got exactly the audio written');
  });

  test("recognition in a meeting: the scenario's names and terms go as the prompt, nothing else of it", async () => {
    const vocabulary = [
      '# Renewal call',
      'You are Linda Okafor, CFO of FlowLedger. The price rose 18% and the SSO add-on is new.',
      'Goal: the rep explains the Enterprise tier and agrees a next step.',
    ].join('\n');
    const stream = recognizer().start({ language: 'en-US', context: { meetingId: 'mtg_1', vocabulary } });
    for (const chunk of chunksOf(sentence, 40)) stream.write(chunk);
    await stream.finish();
    const prompt = server.requests[0].fields.prompt ?? '';
    for (const term of ['Linda Okafor', 'FlowLedger', 'SSO', 'Enterprise'])
      assert.ok(prompt.includes(term), prompt);
    assert.ok(!/you are|\bthe\b|#/i.test(prompt), `no instructions or common words: ${prompt}`);
    assert.ok(prompt.length <= 600);
  });

  test('recognition: interim text while speaking, one request at a time, none after finish', async () => {
    server.override = { delayMs: 120 };
    const stream = recognizer({}, 300).start({ language: 'en-US' });
    const interims: string[] = [];
    stream.onInterim((text) => interims.push(text));
    // Real-time pacing: 100 ms of audio every 100 ms.
    for (const chunk of chunksOf(sentence, 100)) {
      stream.write(chunk);
      await sleep(100);
    }
    const interimsBeforeFinish = interims.length;
    const result = await stream.finish();
    await sleep(200);
    assert.ok(interimsBeforeFinish >= 3, `${interimsBeforeFinish} interim results`);
    assert.match(interims[0], /^heard \d/);
    assert.equal(interims.length, interimsBeforeFinish, 'no interim after finish');
    assert.ok(
      server.maxConcurrent <= 2,
      `at most one interim in flight (+ the final): ${server.maxConcurrent}`,
    );
    assert.ok(result.text.startsWith('heard 3') || result.text.startsWith('heard 4'), result.text);
    // Interims covered growing prefixes of the utterance.
    const sizes = server.requests.map((request) => request.audio?.pcm.length ?? 0);
    assert.ok(sizes[0] < sizes.at(-1)!, `${sizes}`);
    assert.equal(sizes.at(-1), sentence.length);
  });

  test('recognition: no interim request once the utterance passes 10 s (each would re-send, and re-bill, it all)', async () => {
    const stream = recognizer({}, 50).start({ language: 'en-US' });
    const interims: string[] = [];
    stream.onInterim((text) => interims.push(text));
    // 14 s of audio in 500 ms chunks, faster than real time so the test stays short.
    const long = Buffer.concat([sentence, sentence, sentence, sentence, sentence]).subarray(0, 32_000 * 14);
    for (const chunk of chunksOf(long, 500)) {
      stream.write(chunk);
      await sleep(80);
    }
    const result = await stream.finish();
    assert.equal(result.text, 'heard 14 seconds');
    const sizes = server.requests.map((request) => request.audio?.pcm.length ?? 0);
    const interimSizes = sizes.slice(0, -1);
    assert.ok(interimSizes.length >= 5, `interims were sent while it was short: ${sizes}`);
    assert.ok(
      interimSizes.every((bytes) => bytes <= (32_000 * MAX_INTERIM_AUDIO_MS) / 1000),
      `no interim request beyond ${MAX_INTERIM_AUDIO_MS} ms of audio: ${sizes.map((bytes) => bytes / 32)}`,
    );
    assert.equal(sizes.at(-1), long.length, 'the final has it all');
  });

  test('recognition: interim interval 0 sends only the final', async () => {
    const stream = recognizer({}, 0).start({ language: 'en-US' });
    stream.onInterim(() => assert.fail('no interim expected'));
    for (const chunk of chunksOf(sentence, 200)) {
      stream.write(chunk);
      await sleep(30);
    }
    await stream.finish();
    assert.equal(server.requests.length, 1);
  });

  test('recognition: silence-only utterance is still sent; no audio at all gives "" without a request', async () => {
    const stream = recognizer().start({ language: 'en-US' });
    stream.write(silencePcm(300));
    assert.equal((await stream.finish()).text, 'heard 0.3 seconds');
    const empty = recognizer().start({ language: 'en-US' });
    assert.equal((await empty.finish()).text, '');
    assert.equal(server.requests.length, 1);
  });

  test('recognition: a wrong key (401), an unknown model (404) and a 500 reject finish()', async () => {
    const badKey = recognizer({ apiKey: 'sk-wrong' }).start({ language: 'en-US' });
    badKey.write(sentence);
    await assert.rejects(badKey.finish(), failsWith('http_error', 401));
    const badModel = recognizer({ model: 'whisper-9' }).start({ language: 'en-US' });
    badModel.write(sentence);
    await assert.rejects(badModel.finish(), failsWith('http_error', 404));
    server.override = { status: 500, body: '{"error":{"message":"boom"}}' };
    const broken = recognizer().start({ language: 'en-US' });
    broken.write(sentence);
    await assert.rejects(
      broken.finish(),
      (error: SpeechEngineError) => failsWith('http_error', 500)(error) && /boom/.test(error.message),
    );
  });

  test('recognition: a server slower than the timeout, or one answering no text, rejects', async () => {
    server.override = { delayMs: 1000 };
    const slow = recognizer({ timeoutMs: 200 }).start({ language: 'en-US' });
    slow.write(sentence);
    const started = performance.now();
    await assert.rejects(slow.finish(), failsWith('timeout'));
    assert.ok(performance.now() - started < 900, 'gave up at the timeout');
    server.override = { status: 200, body: '<html>proxy error</html>', contentType: 'text/html' };
    const html = recognizer().start({ language: 'en-US' });
    html.write(sentence);
    await assert.rejects(html.finish(), failsWith('invalid_reply'));
    server.override = { status: 200, body: '{"segments":[]}' };
    const noText = recognizer().start({ language: 'en-US' });
    noText.write(sentence);
    await assert.rejects(noText.finish(), failsWith('invalid_reply'));
  });

  test('recognition: an unreachable server rejects with a network error', async () => {
    const stream = createOpenAiRecognizer({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: null,
      model: 'm',
    }).start({
      language: 'en-US',
    });
    stream.write(sentence);
    await assert.rejects(stream.finish(), failsWith('network_error'));
  });

  test('recognition: cancel stops interims and aborts the request in flight', async () => {
    server.override = { delayMs: 300 };
    const stream = recognizer({}, 100).start({ language: 'en-US' });
    const interims: string[] = [];
    stream.onInterim((text) => interims.push(text));
    for (const chunk of chunksOf(sentence.subarray(0, 32000 * 1.5), 100)) {
      stream.write(chunk);
      await sleep(50);
    }
    // Interim requests run back to back (300 ms each), so one is in flight now.
    const requestsAtCancel = server.requests.length;
    const interimsAtCancel = interims.length;
    stream.cancel();
    await sleep(500);
    assert.ok(requestsAtCancel >= 1);
    assert.equal(interims.length, interimsAtCancel, 'nothing is emitted after cancel');
    assert.equal(server.requests.length, requestsAtCancel, 'no request after cancel');
    await assert.rejects(stream.finish(), failsWith('closed'));
  });

  test('synthesis: the persona voice and model are sent with the key; the WAV comes back as PCM', async () => {
    const audio = await synthesizer().synthesize('Thanks for joining. Shall we begin?', voice());
    assert.equal(audio.sampleRate, 24000);
    const ms = pcmDurationMs(audio.pcm, audio.sampleRate);
    assert.ok(ms > 1000 && ms < 5000, `${ms} ms`);
    const [request] = server.requests;
    assert.equal(request.path, '/v1/audio/speech');
    assert.equal(request.authorization, `Bearer ${KEY}`);
    assert.deepEqual(request.fields, {
      model: 'tts-1',
      input: 'Thanks for joining. Shall we begin?',
      voice: 'onyx',
      response_format: 'wav',
    });
    await synthesizer().synthesize('Hello.', voice({ ttsVoice: null }));
    assert.equal(server.requests[1].fields.voice, 'alloy');
  });

  test('synthesis: a raw PCM answer is read at its rate', async () => {
    const pcm = Buffer.alloc(4800 * 2, 1);
    server.override = { status: 200, body: pcm, contentType: 'audio/pcm;rate=24000' };
    const audio = await synthesizer().synthesize('Hello.', voice());
    assert.equal(audio.sampleRate, 24000);
    assert.equal(audio.pcm.length, pcm.length);
  });

  test('synthesis: a bad WAV, an error status, a timeout and an abort reject', async () => {
    server.override = {
      status: 200,
      body: Buffer.from('RIFF\x10\x00\x00\x00WAVEjunkjunk'),
      contentType: 'audio/wav',
    };
    await assert.rejects(synthesizer().synthesize('Hello.', voice()), failsWith('invalid_reply'));
    server.override = { status: 200, body: '{"ok":true}' };
    await assert.rejects(synthesizer().synthesize('Hello.', voice()), failsWith('invalid_reply'));
    server.override = null;
    await assert.rejects(
      synthesizer({ apiKey: null }).synthesize('Hello.', voice()),
      failsWith('http_error', 401),
    );
    server.override = { status: 503, body: 'overloaded', contentType: 'text/plain' };
    await assert.rejects(synthesizer().synthesize('Hello.', voice()), failsWith('http_error', 503));
    server.override = { delayMs: 1000 };
    await assert.rejects(synthesizer({ timeoutMs: 150 }).synthesize('Hello.', voice()), failsWith('timeout'));
    const controller = new AbortController();
    const pending = synthesizer().synthesize('Hello.', voice(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, failsWith('aborted'));
  });
});
