// The voice loop end to end with the real engines: a participant program streams a sentence spoken
// by Flite (voice rms) as binary PCM frames, PocketSphinx recognises it in the service, and the
// persona's reply comes back as agent.audio + PCM synthesised by Flite, sentence by sentence while
// the reply still streams. The recognition test skips (saying why) where PocketSphinx is not
// installed; Flite ships in an npm package and always runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import {
  createPocketSphinxRecognizer,
  detectPocketSphinx,
} from '../../src/platform/speech/stt/pocketsphinx.ts';
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import { synthesizeWithFlite } from '../../src/platform/speech/tts/flite-wasi.ts';
import type { SpeechEngines } from '../../src/platform/speech/types.ts';
import type { ApiClient, ListeningPlatform } from '../harness.ts';
import { silencePcm, spokenPcm } from '../speech/audio-fixtures.ts';
import {
  createMeeting,
  createScenario,
  type FakeAgent,
  type Message,
  Participant,
  startFakeAgent,
  startLivePlatform,
} from './helpers.ts';
import { streamAudio } from './voice-helpers.ts';

const SPOKEN = 'i have five years of experience leading the support team';
const REPLY = [
  'Thanks for ',
  'that. ',
  'Tell me about a system ',
  'you designed. ',
  'What was the ',
  'hardest part?',
];

const detection = await detectPocketSphinx();
const noRecognizer = detection.available
  ? false
  : `PocketSphinx is not available (${detection.reason}); install it with: apt-get install python3-pocketsphinx pocketsphinx-en-us`;
if (noRecognizer) console.log(`# voice recognition test skipped: ${noRecognizer}`);

let t: ListeningPlatform;
let api: ApiClient;
let llm: FakeAgent;
let engines: SpeechEngines;

before(async () => {
  engines = {
    recognizer: detection.available
      ? createPocketSphinxRecognizer({ modelDir: detection.modelDir, logger: pino({ level: 'silent' }) })
      : null,
    synthesizer: createFliteSynthesizer(),
  };
  // The reply streams a sentence at a time, as a model writes it.
  llm = await startFakeAgent(() => ({ text: REPLY, chunkDelayMs: 150 }));
  t = await startLivePlatform(
    { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test-model' },
    { speech: engines },
  );
  api = await t.workspace();
});
after(async () => {
  // The engines are the test’s to close (the platform closes only those it built).
  await engines.recognizer?.close();
  await engines.synthesizer?.close();
  await t.close();
  await llm.close();
});

/** The turn's audio messages, each checked to carry its own PCM, in order. */
function audioOf(p: Participant, turnId: string): Message[] {
  const audio = p.messages.filter((m) => m.type === 'agent.audio' && m.turn_id === turnId);
  audio.forEach((m, index) => {
    assert.equal(m.seq, index);
    assert.equal(m.encoding, 'pcm_s16le');
    assert.equal(m.sample_rate, 16_000);
    assert.ok(Buffer.isBuffer(m.pcm), `agent.audio ${index} was followed by its binary frame`);
    assert.equal(m.pcm.length, m.bytes);
  });
  return audio;
}

async function joinedMeeting(): Promise<{ p: Participant; joined: Message; welcomeTurn: string }> {
  const { scenario } = await createScenario(api, { welcome_message: 'Hi, I am Jane. Shall we begin?' });
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  const joined = await p.join({ audio: { output: true } });
  const welcome = await p.next('agent.message', () => true, 20_000);
  assert.equal(welcome.interrupted, false);
  return { p, joined, welcomeTurn: welcome.turn_id };
}

test('the persona speaks with Flite: each sentence as agent.audio + its PCM, the first before the reply is complete', async () => {
  const { p, joined, welcomeTurn } = await joinedMeeting();
  assert.equal(joined.speech.synthesis, 'flite');
  assert.deepEqual(joined.speech.input, { encoding: 'pcm_s16le', sample_rate: 16_000, channels: 1 });
  // The welcome, in the persona's voice (Jane is female: Flite's slt), byte for byte.
  const welcome = audioOf(p, welcomeTurn);
  assert.deepEqual(
    welcome.map((m) => m.text),
    ['Hi, I am Jane.', 'Shall we begin?'],
  );
  const direct = await synthesizeWithFlite('Hi, I am Jane.', 'slt');
  assert.ok(direct.pcm.equals(welcome[0]!.pcm), 'the PCM is Flite’s for that sentence');
  assert.equal(welcome[1]!.start_ms, welcome[0]!.start_ms + Math.round(welcome[0]!.bytes / 32));

  p.send({ type: 'utterance', text: 'Yes, let us begin.', final: true, input: 'typed' });
  const first = await p.next('agent.audio');
  const reply = await p.next('agent.message', (m) => m.turn_id === first.turn_id, 20_000);
  assert.equal(reply.interrupted, false);
  const audio = audioOf(p, first.turn_id);
  assert.deepEqual(
    audio.map((m) => m.text),
    ['Thanks for that.', 'Tell me about a system you designed.', 'What was the hardest part?'],
  );
  const lastDelta = p.messages.findLastIndex((m) => m.type === 'agent.delta' && m.turn_id === first.turn_id);
  assert.ok(
    p.messages.indexOf(first) < lastDelta,
    'the first sentence was heard while the reply still streamed',
  );
  // Stored where the audio played: from the first sentence's start to the end of the last.
  const stored = await p.next('transcript.sentence', (m) => m.sentence.speaker === 'agent');
  assert.equal(stored.sentence.start_ms, first.start_ms);
  const row = await t.deps.db
    .selectFrom('transcript_sentences')
    .select('end_ms')
    .where('id', '=', stored.sentence.id)
    .executeTakeFirstOrThrow();
  const last = audio.at(-1)!;
  assert.ok(Math.abs(row.end_ms! - (last.start_ms + last.bytes / 32)) <= 1);
  p.close();
});

test('the participant speaks: PocketSphinx hears it in the service and the persona answers by voice', {
  skip: noRecognizer,
}, async () => {
  const { p, joined } = await joinedMeeting();
  assert.equal(joined.speech.recognition, 'pocketsphinx');
  t.clock.advance(4_000);
  p.send({ type: 'audio.start' });
  const speech = await spokenPcm(SPOKEN, 'rms');
  await streamAudio(p, Buffer.concat([silencePcm(400), speech, silencePcm(1_000)]), {
    chunkMs: 40,
    paced: true,
  });
  const started = await p.next('speech.started');
  assert.ok(
    started.start_ms >= 4_000 + 100 && started.start_ms <= 4_000 + 500,
    `start_ms ${started.start_ms}`,
  );
  const stopped = await p.next('speech.stopped', () => true, 20_000);
  // Interim text is best effort (RecognitionStream.onInterim "may never fire"): a recogniser that
  // falls behind on a loaded machine, or is building the meeting's model, may go straight to the
  // final. What comes must be text, and before the utterance's end.
  const interims = p.messages.filter((m) => m.type === 'transcript.interim');
  for (const interim of interims) {
    assert.ok('text' in interim && typeof interim.text === 'string' && interim.text.length > 0);
    assert.ok(p.messages.indexOf(interim) < p.messages.indexOf(stopped));
  }
  const heard = stopped.text.split(' ');
  const right = SPOKEN.split(' ').filter((word) => heard.includes(word));
  assert.ok(right.length >= 8, `recognised "${stopped.text}"`);
  assert.equal(stopped.start_ms, started.start_ms);
  const speechEnd = 4_000 + 400 + (speech.length / 32_000) * 1000;
  assert.ok(Math.abs(stopped.end_ms - speechEnd) < 300, `end_ms ${stopped.end_ms} ≈ ${speechEnd}`);

  const sentence = await p.next('transcript.sentence', (m) => m.sentence.speaker === 'user');
  assert.equal(sentence.sentence.message, stopped.text);
  assert.equal(sentence.sentence.start_ms, stopped.start_ms);
  const row = await t.deps.db
    .selectFrom('transcript_sentences')
    .select(['input', 'end_ms'])
    .where('id', '=', sentence.sentence.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { input: 'voice', end_ms: stopped.end_ms });

  const first = await p.next('agent.audio', () => true, 20_000);
  const reply = await p.next('agent.message', (m) => m.turn_id === first.turn_id, 20_000);
  assert.ok(p.messages.indexOf(first) < p.messages.indexOf(reply));
  assert.equal(audioOf(p, first.turn_id).length, 3);
  assert.ok(
    llm.requests.at(-1)!.body.messages.some((m: any) => m.role === 'user' && m.content === stopped.text),
  );
  p.send({ type: 'audio.stop' });
  p.close();
});
