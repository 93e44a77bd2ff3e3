import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import type { SpeechSynthesizer, SynthesizedAudio } from '../../speech/types.ts';
import type { AgentAudioMessage } from '../protocol.ts';
import { VoiceOutput } from './voice-output.ts';

const RATE = 16_000;
const MS_PER_WORD = 60;

/** Audio of MS_PER_WORD per word, each sample holding the sentence's length (so frames can be told apart). */
function fakeSynthesizer(log: { started: string[]; aborted: string[] }, delayMs = 5): SpeechSynthesizer {
  return {
    engine: 'flite',
    label: 'fake',
    async synthesize(text, _voice, signal): Promise<SynthesizedAudio> {
      log.started.push(text);
      await sleep(delayMs);
      if (signal?.aborted) {
        log.aborted.push(text);
        throw new Error('aborted');
      }
      const samples = (text.split(/\s+/).length * MS_PER_WORD * RATE) / 1000;
      const pcm = Buffer.alloc(samples * 2);
      for (let i = 0; i < samples; i += 1) pcm.writeInt16LE(text.length, i * 2);
      return { pcm, sampleRate: RATE };
    },
    async close() {},
  };
}

/** Waits until `condition` holds (polling; fixed sleeps raced the synthesizer on a loaded machine). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(2);
  }
}

function harness(delayMs?: number) {
  const log = { started: [] as string[], aborted: [] as string[] };
  const sent: Array<{ message: AgentAudioMessage; pcm: Buffer; at: number }> = [];
  const began = performance.now();
  const output = new VoiceOutput(
    fakeSynthesizer(log, delayMs),
    { ttsVoice: null, gender: 'female', voiceId: null, language: 'en-US' },
    {
      sendAudio: (message, pcm) => sent.push({ message, pcm, at: performance.now() - began }),
      elapsedMs: () => 10_000 + (performance.now() - began),
      synthesisFailed: () => assert.fail('no synthesis should fail'),
      logger: pino({ level: 'silent' }),
    },
  );
  return { output, log, sent };
}

describe('VoiceOutput', () => {
  it('speaks each sentence as it completes, in order, queued one after the other', async () => {
    const { output, sent } = harness();
    output.text('t1', 'Hello there, I am Jane. I lead');
    await until(() => sent.length > 0, 'the first sentence is out');
    assert.equal(sent.length, 1, 'the first sentence is out before the reply is complete');
    assert.equal(sent[0]!.message.text, 'Hello there, I am Jane.');
    output.text('t1', ' the team. Shall we begin?');
    const drained = output.finish('t1');
    await drained;
    assert.deepEqual(
      sent.map((s) => [s.message.seq, s.message.text]),
      [
        [0, 'Hello there, I am Jane.'],
        [1, 'I lead the team.'],
        [2, 'Shall we begin?'],
      ],
    );
    for (const { message, pcm } of sent) {
      assert.equal(message.bytes, pcm.length);
      assert.equal(message.sample_rate, RATE);
      assert.equal(message.encoding, 'pcm_s16le');
      assert.equal(pcm.readInt16LE(0), message.text.length, 'the PCM is that sentence’s');
    }
    // Each starts where the one before ends (give or take the ms the test itself took).
    assert.ok(Math.abs(sent[1]!.message.start_ms - (sent[0]!.message.start_ms + 5 * MS_PER_WORD)) <= 15);
    const timing = output.timing('t1')!;
    assert.equal(timing.startMs, sent[0]!.message.start_ms);
    assert.ok(Math.abs(timing.endMs - (sent[2]!.message.start_ms + 3 * MS_PER_WORD)) <= 1);
    assert.equal(output.playing, false, 'drained: the audio has played');
  });

  it('synthesises at most one sentence ahead of what is playing', async () => {
    const { output, sent, log } = harness();
    output.text(
      't1',
      'One two three four five. Six seven eight nine ten. Eleven twelve thirteen fourteen fifteen. ',
    );
    const drained = output.finish('t1');
    await sleep(60);
    // Sentence 1 plays (300 ms) and sentence 2 waits its turn; sentence 3 is not synthesised yet.
    assert.equal(sent.length, 2);
    assert.equal(log.started.length, 2);
    await drained;
    assert.equal(sent.length, 3);
    assert.ok(sent[2]!.at >= 5 * MS_PER_WORD - 10, `third sent at ${sent[2]!.at} ms, once the second began`);
  });

  it('speaks fillers in their place without counting them in the turn’s timing', async () => {
    const { output, sent } = harness();
    output.filler('t1', 'Let me think.');
    await sleep(20);
    output.text('t1', 'Good question. ');
    await output.finish('t1');
    assert.deepEqual(
      sent.map((s) => s.message.text),
      ['Let me think.', 'Good question.'],
    );
    assert.equal(output.timing('t1')!.startMs, sent[1]!.message.start_ms);
  });

  it('cancel drops the queue and the synthesis in flight; nothing more is sent for the turn', async () => {
    // Slow synthesis, so the second sentence is surely still in flight when the turn is cancelled.
    const { output, sent, log } = harness(300);
    output.text('t1', 'First sentence here. Second sentence here. Third one. ');
    const drained = output.finish('t1');
    await until(() => log.started.length === 2, 'the second sentence is being synthesised');
    assert.equal(sent.length, 1);
    output.cancel('t1');
    await drained;
    assert.equal(output.playing, false, 'the room stops playing at once');
    await until(() => log.aborted.length > 0, 'the synthesis in flight is aborted');
    await sleep(100);
    assert.equal(sent.length, 1);
    assert.deepEqual(log.aborted, ['Second sentence here.']);
    output.text('t1', 'More text. And more. ');
    await sleep(60);
    assert.equal(sent.length, 1, 'a cancelled turn stays silent');
    // The next turn speaks normally.
    output.text('t2', 'Go on. ');
    await output.finish('t2');
    assert.deepEqual(
      sent.map((s) => [s.message.turn_id, s.message.seq]),
      [
        ['t1', 0],
        ['t2', 0],
      ],
    );
  });
});
