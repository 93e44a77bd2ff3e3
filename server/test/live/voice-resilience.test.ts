// Voice failures that must not end the meeting: the voice-activity detector failing to load on
// audio.start (speech_unavailable, typing goes on, the next audio.start tries again).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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
