// Voice where the service has no recogniser (STT off or not installed), and clients that want no
// audio: the protocol says so (welcome data, `speech_unavailable`, `invalid_message`), never
// closes the socket over it, and a text-only program receives no binary frame.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiClient, ListeningPlatform } from '../harness.ts';
import { ok } from '../harness.ts';
import { silencePcm } from '../speech/audio-fixtures.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from './helpers.ts';
import { wordTimedSynthesizer } from './voice-helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;

before(async () => {
  t = await startLivePlatform({}, { speech: { recognizer: null, synthesizer: wordTimedSynthesizer(40) } });
  api = await t.workspace();
});
after(() => t.close());

async function meeting() {
  const { scenario } = await createScenario(api);
  return createMeeting(api, scenario.id);
}

test('the welcome data and joined say which speech engines the service has', async () => {
  const { id, room_token } = await meeting();
  const welcome = ok(await t.app.inject({ method: 'GET', url: `/v1/rooms/${id}?t=${room_token}` }));
  const expected = {
    recognition: null,
    synthesis: 'flite',
    input: { encoding: 'pcm_s16le', sample_rate: 16_000, channels: 1 },
  };
  assert.deepEqual(welcome.speech, expected);
  const p = await Participant.connect(t.baseUrl, id, room_token);
  const joined = await p.join();
  assert.deepEqual(joined.speech, expected);
  p.close();
});

test('audio.start without a recogniser: speech_unavailable; audio frames then: invalid_message; the socket stays', async () => {
  const { id, room_token } = await meeting();
  const p = await Participant.connect(t.baseUrl, id, room_token);
  p.socket.send(silencePcm(40), { binary: true });
  assert.equal((await p.next('error')).code, 'not_joined');
  await p.join();
  p.send({ type: 'audio.start' });
  const unavailable = await p.next('error');
  assert.equal(unavailable.code, 'speech_unavailable');
  assert.equal(unavailable.fatal, false);
  p.socket.send(silencePcm(40), { binary: true });
  const refused = await p.next('error');
  assert.equal(refused.code, 'invalid_message');
  assert.equal(refused.fatal, false);
  assert.match(refused.message, /audio\.start/);
  p.send({ type: 'ping', ts: 7 });
  assert.equal((await p.next('pong')).ts, 7);
  // Typing keeps working.
  const reply = await p.say('I have worked on payments for eight years.');
  assert.equal(reply.interrupted, false);
  assert.equal(p.closeCode, null);
  p.close();
});

test('a client that did not ask for audio gets text only: no agent.audio, no binary frame', async () => {
  const { id, room_token } = await meeting();
  const p = await Participant.connect(t.baseUrl, id, room_token);
  await p.join();
  await p.next('agent.message');
  await p.say('Sure, let us start.');
  await p.next('transcript.sentence', (m) => m.sentence.speaker === 'agent');
  assert.equal(p.binaryFrames.length, 0);
  assert.equal(p.messages.filter((m) => m.type === 'agent.audio').length, 0);
  // The same meeting, rejoined asking for audio: now the persona's replies come with it.
  p.close();
  const again = await Participant.connect(t.baseUrl, id, room_token);
  const joined = await again.join({ audio: { output: true } });
  assert.equal(joined.resumed, true);
  again.send({ type: 'utterance', text: 'I led the migration to Kubernetes.', final: true });
  const audio = await again.next('agent.audio');
  assert.equal(audio.pcm.length, audio.bytes);
  again.close();
});

test('a client streaming audio it may not send gets one error a second, not one a frame', async () => {
  const { id, room_token } = await meeting();
  const p = await Participant.connect(t.baseUrl, id, room_token);
  const errorsAfter = async (frames: number) => {
    const before = p.messages.filter((m) => m.type === 'error').length;
    for (let i = 0; i < frames; i += 1) p.socket.send(silencePcm(40), { binary: true });
    // Frames are handled in order with text frames: the pong comes after all of them.
    const ts = Math.random();
    p.send({ type: 'ping', ts });
    await p.next('pong', (m) => m.ts === ts);
    return p.messages.filter((m) => m.type === 'error').slice(before);
  };
  // Before join.
  const early = await errorsAfter(30);
  assert.deepEqual(
    early.map((m) => m.code),
    ['not_joined'],
  );
  // After speech_unavailable (this service has no recogniser): join and audio.start start afresh.
  await p.join();
  p.send({ type: 'audio.start' });
  assert.equal((await p.next('error')).code, 'speech_unavailable');
  const refused = await errorsAfter(30);
  assert.deepEqual(
    refused.map((m) => m.code),
    ['invalid_message'],
  );
  // A second later the client is told again (once).
  await new Promise((resolve) => setTimeout(resolve, 1_050));
  assert.deepEqual(
    (await errorsAfter(10)).map((m) => m.code),
    ['invalid_message'],
  );
  assert.equal(p.closeCode, null);
  p.close();
});
