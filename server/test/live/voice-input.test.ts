// VoiceInput (live/voice/voice-input.ts) on its own: a host and a segmenter of the test's making,
// so each case controls exactly where utterances begin and end.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import type { ServerMessage } from '../../src/platform/live/protocol.ts';
import {
  type Segmenter,
  VoiceInput,
  type VoiceInputHost,
} from '../../src/platform/live/voice/voice-input.ts';
import type { SegmentEvent } from '../../src/platform/speech/segmenter.ts';
import { type RecognitionScript, scriptedRecognizer } from './voice-helpers.ts';

/** Every push is one whole utterance: start, its audio, end. */
function utterancePerPush(): Segmenter {
  let offsetMs = 0;
  return {
    speechMs: 0,
    push(pcm: Buffer): SegmentEvent[] {
      const start = offsetMs;
      offsetMs += pcm.length / 32;
      return [
        { type: 'start', offsetMs: start },
        { type: 'audio', pcm },
        { type: 'end', offsetMs },
      ];
    },
    flush: () => [],
    dispose() {},
  };
}

interface TestHost extends VoiceInputHost {
  sent: ServerMessage[];
  said: string[];
}

function host(overrides: Partial<VoiceInputHost> = {}): TestHost {
  const sent: ServerMessage[] = [];
  const said: string[] = [];
  return {
    sent,
    said,
    send: (message) => sent.push(message),
    error: (code, message) => sent.push({ type: 'error', code, message, fatal: false }),
    personaSpeaking: () => false,
    personaWords: () => new Set(),
    bargeIn() {},
    heard() {},
    utterance: (text) => said.push(text),
    logger: pino({ level: 'silent' }),
    ...overrides,
  };
}

async function open(scripts: RecognitionScript[], testHost: TestHost): Promise<VoiceInput> {
  return VoiceInput.open(scriptedRecognizer(scripts), testHost, {
    startMs: 0,
    language: 'en-US',
    createSegmenter: async () => utterancePerPush(),
  });
}

describe('VoiceInput', () => {
  test('a final whose delivery throws is lost on its own: later finals still arrive, nothing is left unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let calls = 0;
      const testHost = host();
      testHost.utterance = (text) => {
        calls += 1;
        if (calls === 1) throw new Error('the transcript could not be written (test)');
        testHost.said.push(text);
      };
      const input = await open([{ final: 'first answer' }, { final: 'second answer' }], testHost);
      input.write(Buffer.alloc(3200));
      input.write(Buffer.alloc(3200));
      await input.stop();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(testHost.said, ['second answer']);
      const stopped = testHost.sent.filter((m) => m.type === 'speech.stopped').map((m) => m.text);
      assert.deepEqual(stopped, ['first answer', 'second answer']);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a send that throws does not stop the next final either', async () => {
    let failOnce = true;
    const testHost = host();
    testHost.send = (message) => {
      if (message.type === 'speech.stopped' && failOnce) {
        failOnce = false;
        throw new Error('socket write failed (test)');
      }
      testHost.sent.push(message);
    };
    const input = await open([{ final: 'one' }, { final: 'two' }], testHost);
    input.write(Buffer.alloc(3200));
    input.write(Buffer.alloc(3200));
    await input.stop();
    assert.deepEqual(testHost.said, ['two']);
  });

  test('an utterance the segmenter declares noise is not recognised: it stops with no text and is no turn', async () => {
    let pushes = 0;
    const segmenter: Segmenter = {
      speechMs: 0,
      push(pcm: Buffer): SegmentEvent[] {
        pushes += 1;
        const start = (pushes - 1) * (pcm.length / 32);
        const end = start + pcm.length / 32;
        // The first "utterance" went on without a pause (music, a crowd): declared noise.
        const noise = pushes === 1 ? { noise: true as const } : {};
        return [
          { type: 'start', offsetMs: start },
          { type: 'audio', pcm },
          { type: 'end', offsetMs: end, ...noise },
        ];
      },
      flush: () => [],
      dispose() {},
    };
    const testHost = host();
    const recognizer = scriptedRecognizer([{ final: 'la la la' }, { final: 'my answer' }]);
    const input = await VoiceInput.open(recognizer, testHost, {
      startMs: 0,
      language: 'en-US',
      createSegmenter: async () => segmenter,
    });
    input.write(Buffer.alloc(3200));
    input.write(Buffer.alloc(3200));
    await input.stop();
    assert.deepEqual(
      recognizer.streams.map(({ finished, cancelled }) => ({ finished, cancelled })),
      [
        { finished: false, cancelled: true },
        { finished: true, cancelled: false },
      ],
    );
    const stopped = testHost.sent.filter((m) => m.type === 'speech.stopped');
    assert.deepEqual(
      stopped.map((m) => [m.start_ms, m.end_ms, m.text]),
      [
        [0, 100, ''],
        [100, 200, 'my answer'],
      ],
    );
    assert.deepEqual(testHost.said, ['my answer']);
  });
});
