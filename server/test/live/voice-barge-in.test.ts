// Barge-in over the realtime protocol, with a scripted recogniser (deterministic interim text) and
// a synthesiser whose audio lasts 250 ms a word, behind the real segmenter and WebSocket: a long
// utterance over the persona's audio cuts it, a "yeah" does not, and what was said in the
// meantime is timed by the audio.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiClient, ListeningPlatform } from '../harness.ts';
import { silencePcm, spokenPcm } from '../speech/audio-fixtures.ts';
import { createMeeting, createScenario, type Message, Participant, startLivePlatform } from './helpers.ts';
import {
  type RecognitionScript,
  scriptedRecognizer,
  streamAudio,
  wordTimedSynthesizer,
} from './voice-helpers.ts';

const WELCOME =
  'Hi, I am Jane from the platform team. I lead our hiring. Today we talk about your work. Shall we begin?';
const MS_PER_WORD = 250;

let t: ListeningPlatform;
let api: ApiClient;
const scripts: RecognitionScript[] = [];
const recognizer = scriptedRecognizer(scripts);
let longSpeech: Buffer;
let shortSpeech: Buffer;

before(async () => {
  t = await startLivePlatform({}, { speech: { recognizer, synthesizer: wordTimedSynthesizer(MS_PER_WORD) } });
  api = await t.workspace();
  longSpeech = await spokenPcm('I have five years of experience leading the support team');
  shortSpeech = await spokenPcm('yeah');
});
after(() => t.close());

/** A meeting whose persona is still speaking its (long) welcome, with the microphone on. */
async function speakingPersona(script: RecognitionScript): Promise<{ p: Participant; welcome: Message }> {
  scripts.length = 0;
  scripts.push(script);
  recognizer.streams.length = 0;
  const { scenario } = await createScenario(api, { welcome_message: WELCOME });
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  const joined = await p.join({ audio: { output: true } });
  assert.equal(joined.speech.recognition, 'pocketsphinx');
  const welcome = await p.next('agent.audio', (m) => m.seq === 0);
  t.clock.advance(1_000);
  p.send({ type: 'audio.start' });
  return { p, welcome };
}

test('a long utterance over the persona’s audio interrupts it; no more audio comes for that turn', async () => {
  const { p, welcome } = await speakingPersona({
    interims: [
      [400, 'i have'],
      [900, 'i have five years'],
    ],
    final: 'i have five years of experience leading the support team',
  });
  await streamAudio(p, Buffer.concat([silencePcm(500), longSpeech, silencePcm(900)]));
  const started = await p.next('speech.started');
  assert.ok(
    started.start_ms >= 1_000 + 150 && started.start_ms <= 1_000 + 600,
    `start_ms ${started.start_ms}`,
  );
  const interim = await p.next('transcript.interim');
  assert.equal(interim.text, 'i have');
  const cut = await p.next('agent.message', (m) => m.turn_id === welcome.turn_id);
  assert.equal(cut.interrupted, true);
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, 'i have five years of experience leading the support team');
  assert.equal(stopped.start_ms, started.start_ms);
  const lengthMs = (longSpeech.length / 32_000) * 1000;
  assert.ok(
    Math.abs(stopped.end_ms - (1_000 + 500 + lengthMs)) < 300,
    `end_ms ${stopped.end_ms} ≈ ${1_000 + 500 + lengthMs}`,
  );
  const sentence = await p.next('transcript.sentence', (m) => m.sentence.speaker === 'user');
  assert.equal(sentence.sentence.message, stopped.text);
  assert.equal(sentence.sentence.start_ms, stopped.start_ms);
  // The persona answers the utterance, by voice. Its first audio may overtake the stored user
  // sentence (a slow database write), so look at every frame, not only those after the cursor.
  await p.next('agent.audio', (m) => m.turn_id !== welcome.turn_id);
  const answerAudio = p.messages.filter((m) => m.type === 'agent.audio' && m.turn_id !== welcome.turn_id);
  assert.equal(answerAudio[0]?.seq, 0);
  const welcomeAudio = p.messages.filter((m) => m.type === 'agent.audio' && m.turn_id === welcome.turn_id);
  const cutAt = p.messages.indexOf(cut);
  assert.ok(
    welcomeAudio.every((m) => p.messages.indexOf(m) < cutAt),
    'no audio of the interrupted turn after agent.message interrupted',
  );
  assert.ok(welcomeAudio.length < 4, `the welcome’s queue was dropped (${welcomeAudio.length} of 4 sent)`);
  const row = await t.deps.db
    .selectFrom('transcript_sentences')
    .select(['input', 'start_ms', 'end_ms'])
    .where('message', '=', stopped.text)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { input: 'voice', start_ms: stopped.start_ms, end_ms: stopped.end_ms });
  p.close();
});

test('a short "yeah" over the persona’s audio neither interrupts nor is answered', async () => {
  const { p, welcome } = await speakingPersona({ interims: [[200, 'yeah']], final: 'yeah' });
  await streamAudio(p, Buffer.concat([silencePcm(300), shortSpeech, silencePcm(900)]));
  await p.next('speech.started');
  assert.equal((await p.next('transcript.interim')).text, 'yeah');
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, '', 'a backchannel over the persona is reported as nothing said');
  // The welcome plays to its end: all four sentences, then agent.message not interrupted.
  const done = await p.next('agent.message', (m) => m.turn_id === welcome.turn_id, 20_000);
  assert.equal(done.interrupted, false);
  const sentences = p.messages.filter((m) => m.type === 'agent.audio' && m.turn_id === welcome.turn_id);
  assert.deepEqual(
    sentences.map((m) => m.seq),
    [0, 1, 2, 3],
  );
  const stored = await p.next('transcript.sentence');
  assert.equal(stored.sentence.speaker, 'agent', 'no user sentence was stored for the "yeah"');
  assert.equal(stored.sentence.start_ms, welcome.start_ms, 'the spoken turn starts with its first audio');
  p.close();
});

test('the persona’s own voice coming back through the microphone neither interrupts it nor is answered', async () => {
  // What an echo sounds like to the recogniser: the welcome's words, for longer than 1.2 s.
  const { p, welcome } = await speakingPersona({
    interims: [
      [300, 'i lead'],
      [900, 'i lead our hiring'],
      [1800, 'i lead our hiring today we talk'],
    ],
    final: 'i lead our hiring today we talk about your work',
  });
  await streamAudio(p, Buffer.concat([silencePcm(300), longSpeech, silencePcm(900)]));
  await p.next('speech.started');
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, '', 'the echo is reported as nothing said');
  assert.ok(longSpeech.length / 32 > 1_500, 'longer than the 1.2 s rule');
  const done = await p.next('agent.message', (m) => m.turn_id === welcome.turn_id, 20_000);
  assert.equal(done.interrupted, false, 'the welcome played to its end');
  const stored = await p.next('transcript.sentence');
  assert.equal(stored.sentence.speaker, 'agent', 'no user sentence was stored for the echo');
  p.close();
});

test('a non-backchannel word interrupts at once, before 1.2 s of speech', async () => {
  const { p, welcome } = await speakingPersona({ interims: [[150, 'wait']], final: 'wait' });
  const wait = (await spokenPcm('wait')).subarray(0, 32 * 700);
  await streamAudio(p, Buffer.concat([silencePcm(300), wait, silencePcm(900)]));
  const cut = await p.next('agent.message', (m) => m.turn_id === welcome.turn_id);
  assert.equal(cut.interrupted, true);
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, 'wait');
  p.close();
});

test('after the persona has finished, a "yeah" is an answer like any other', async () => {
  const { p, welcome } = await speakingPersona({ interims: [[200, 'yeah']], final: 'yeah' });
  await p.next('agent.message', (m) => m.turn_id === welcome.turn_id, 20_000);
  await streamAudio(p, Buffer.concat([silencePcm(300), shortSpeech, silencePcm(900)]));
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, 'yeah');
  const sentence = await p.next('transcript.sentence', (m) => m.sentence.speaker === 'user');
  assert.equal(sentence.sentence.message, 'yeah');
  await p.next('agent.audio', (m) => m.turn_id !== welcome.turn_id);
  p.close();
});

test('audio frames: odd lengths are refused, audio.stop finalises the utterance, a reconnect starts without a stream', async () => {
  scripts.length = 0;
  scripts.push({ final: 'i have five years of experience' });
  const { scenario } = await createScenario(api, { welcome_message: 'Hello.' });
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  p.send({ type: 'audio.start', start_ms: 0 });
  p.socket.send(Buffer.alloc(641), { binary: true });
  const odd = await p.next('error');
  assert.equal(odd.code, 'invalid_message');
  assert.match(odd.message, /even/);
  // Speech with no silence after it: audio.stop ends the utterance.
  await streamAudio(p, Buffer.concat([silencePcm(200), longSpeech]));
  p.send({ type: 'audio.stop' });
  const stopped = await p.next('speech.stopped');
  assert.equal(stopped.text, 'i have five years of experience');
  assert.ok(stopped.end_ms > stopped.start_ms);
  await p.next('transcript.sentence', (m) => m.sentence.speaker === 'user');
  p.socket.send(silencePcm(40), { binary: true });
  assert.equal((await p.next('error')).code, 'invalid_message', 'no stream after audio.stop');
  p.close();
  // Voice belongs to the connection: the new one must send audio.start again.
  const again = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await again.join();
  again.socket.send(silencePcm(40), { binary: true });
  assert.equal((await again.next('error')).code, 'invalid_message');
  again.send({ type: 'audio.start' });
  await streamAudio(again, Buffer.concat([silencePcm(200), shortSpeech, silencePcm(900)]));
  assert.ok((await again.next('speech.started')).start_ms >= 0);
  again.close();
});
