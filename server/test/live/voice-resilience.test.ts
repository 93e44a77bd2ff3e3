// Voice failures that must not end the meeting or leak between connections: the voice-activity
// detector failing to load on audio.start (speech_unavailable, typing goes on, the next
// audio.start tries again), and audio still queued from a connection replaced by a newer one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RoomSocket } from '../../src/platform/live/session.ts';
import { SpeechSegmenter } from '../../src/platform/speech/segmenter.ts';
import type { ApiClient, ListeningPlatform } from '../harness.ts';
import { silencePcm, spokenPcm } from '../speech/audio-fixtures.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from './helpers.ts';
import { type RecognitionScript, scriptedRecognizer, streamAudio } from './voice-helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;
const scripts: RecognitionScript[] = [{ final: 'i led the support team' }];
const recognizer = scriptedRecognizer(scripts);
/** How many segmenters still fail to load before the real one is built. */
let segmenterFailures = 0;
let speech: Buffer;

before(async () => {
  t = await startLivePlatform(
    {},
    {
      speech: { recognizer, synthesizer: null },
      liveHub: {
        createSegmenter: async (options) => {
          if (segmenterFailures > 0) {
            segmenterFailures -= 1;
            throw new Error('fvad.wasm could not be loaded (test)');
          }
          return SpeechSegmenter.create(options);
        },
      },
    },
  );
  api = await t.workspace();
  speech = await spokenPcm('I led the support team');
});
after(() => t.close());

async function joined(): Promise<Participant> {
  const { scenario } = await createScenario(api, { welcome_message: 'Hello.' });
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  return p;
}

test('a voice-activity detector that fails to load: speech_unavailable, the meeting and typing go on, the next audio.start works', async () => {
  const p = await joined();
  segmenterFailures = 1;
  p.send({ type: 'audio.start' });
  const unavailable = await p.next('error');
  assert.equal(unavailable.code, 'speech_unavailable');
  assert.equal(unavailable.fatal, false);
  // No stream: audio is refused, non-fatally.
  p.socket.send(silencePcm(40), { binary: true });
  assert.equal((await p.next('error')).code, 'invalid_message');
  // Typing keeps working.
  const reply = await p.say('I have worked on payments for eight years.');
  assert.equal(reply.interrupted, false);
  // The next audio.start builds a segmenter again, and the microphone is heard.
  p.send({ type: 'audio.start' });
  await streamAudio(p, Buffer.concat([silencePcm(300), speech, silencePcm(900)]));
  await p.next('speech.started');
  assert.equal((await p.next('speech.stopped')).text, 'i led the support team');
  assert.equal(p.closeCode, null);
  assert.equal(
    p.messages.filter((m) => m.type === 'error' && m.fatal).length,
    0,
    'no fatal error on the way',
  );
  p.close();
});

test('audio from a connection replaced by a newer one does not reach the new connection’s microphone stream', async () => {
  const { scenario } = await createScenario(api, { welcome_message: 'Hello.' });
  const meeting = await createMeeting(api, scenario.id);
  // The old connection, as the room routes hold it (its frames still queued when it is replaced).
  const oldSent: string[] = [];
  const old: RoomSocket = {
    send: (text) => oldSent.push(text),
    sendBinary() {},
    close() {},
    open: true,
  };
  const session = await t.deps.meetings.hub.join(meeting.id, old, { type: 'join' });
  assert.ok(session);
  await session.audioStart({ type: 'audio.start' }, old);
  assert.equal(session.isCurrent(old) && session.listening, true);
  // The participant rejoins from another tab, which starts its own microphone stream.
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  assert.ok(oldSent.some((text) => JSON.parse(text).code === 'replaced'));
  p.send({ type: 'audio.start' });
  const ts = 1;
  p.send({ type: 'ping', ts });
  await p.next('pong', (m) => m.ts === ts);
  const streamsBefore = recognizer.streams.length;
  // The old connection's queued speech arrives now: nothing of it is heard…
  assert.equal(session.isCurrent(old), false);
  for (const chunk of [silencePcm(300), speech, silencePcm(900)]) session.audio(chunk, old);
  await session.audioStop(old);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(recognizer.streams.length, streamsBefore, 'no recognition started for the old audio');
  assert.equal(p.messages.filter((m) => m.type === 'speech.started').length, 0);
  // …while the new connection's own stream is still on and heard.
  await streamAudio(p, Buffer.concat([silencePcm(300), speech, silencePcm(900)]));
  await p.next('speech.started');
  assert.equal((await p.next('speech.stopped')).text, 'i led the support team');
  p.close();
});
