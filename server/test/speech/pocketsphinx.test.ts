import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { SpeechEngineError } from '../../src/platform/speech/errors.ts';
import {
  createPocketSphinxRecognizer,
  detectPocketSphinx,
  POCKETSPHINX_INSTALL_HINT,
  type PocketSphinxRecognizer,
} from '../../src/platform/speech/stt/pocketsphinx.ts';
import type { RecognitionStream } from '../../src/platform/speech/types.ts';
import { wordErrorRate } from '../../src/platform/speech/wer.ts';
import { chunksOf, silencePcm, spokenPcm } from './audio-fixtures.ts';
import { MEETING_SENTENCES } from './sentences.ts';

const detection = await detectPocketSphinx();
const skip = detection.available
  ? false
  : `PocketSphinx is not installed (${detection.reason}); install with: ${POCKETSPHINX_INSTALL_HINT}`;
const modelDir = detection.available ? detection.modelDir : '';
const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes like the room does: `chunkMs` of audio every `everyMs`. */
async function speak(stream: RecognitionStream, pcm: Buffer, chunkMs = 100, everyMs = 50) {
  for (const chunk of chunksOf(pcm, chunkMs)) {
    stream.write(chunk);
    if (everyMs > 0) await sleep(everyMs);
  }
}

describe('PocketSphinx recogniser', { skip }, () => {
  let recognizer: PocketSphinxRecognizer;
  const sentence = MEETING_SENTENCES[0];
  let sentencePcm: Buffer;
  before(async () => {
    recognizer = createPocketSphinxRecognizer({ modelDir, logger });
    sentencePcm = Buffer.concat([await spokenPcm(sentence, 'rms'), silencePcm(300)]);
  });
  after(() => recognizer.close());

  test('a spoken sentence is recognised, with interim text before the final', async () => {
    assert.equal(recognizer.sidecarPid, null, 'the sidecar starts on first use');
    // Warm up (sidecar start and model load) so the latency below is the steady-state one.
    const warmUp = recognizer.start({ language: 'en-US' });
    warmUp.write(silencePcm(200));
    await warmUp.finish();
    const stream = recognizer.start({ language: 'en-US' });
    const interims: string[] = [];
    stream.onInterim((text) => interims.push(text));
    await speak(stream, sentencePcm);
    const interimsBeforeFinish = interims.length;
    const endOfSpeech = performance.now();
    const { text } = await stream.finish();
    const latency = performance.now() - endOfSpeech;
    const wer = wordErrorRate(sentence, text);
    console.log(
      `PocketSphinx: "${text}" — WER ${wer.toFixed(2)}, final ${latency.toFixed(0)} ms after the end of speech`,
    );
    assert.ok(wer <= 0.35, `WER ${wer} for "${text}"`);
    assert.ok(interimsBeforeFinish >= 2, `${interimsBeforeFinish} interim hypotheses before finish`);
    assert.ok(sentence.toLowerCase().startsWith(interims[0].split(' ')[0]), `first interim "${interims[0]}"`);
    // Typically 120–250 ms here; the bound leaves room for a machine busy with other tests.
    assert.ok(latency < 3000, `${latency} ms`);
    assert.ok(recognizer.sidecarPid, 'the sidecar runs');
  });

  test('word error rate over the fixed sentence set (Flite rms voice) is at most 0.35', async () => {
    let total = 0;
    for (const reference of MEETING_SENTENCES) {
      const stream = recognizer.start({ language: 'en-US' });
      await speak(stream, Buffer.concat([await spokenPcm(reference, 'rms'), silencePcm(200)]), 200, 0);
      total += wordErrorRate(reference, (await stream.finish()).text);
    }
    const wer = total / MEETING_SENTENCES.length;
    console.log(`PocketSphinx WER over ${MEETING_SENTENCES.length} sentences (Flite rms): ${wer.toFixed(3)}`);
    assert.ok(wer <= 0.35, `WER ${wer}`);
  });

  test('two concurrent streams do not mix', async () => {
    const other = MEETING_SENTENCES[3];
    const otherPcm = Buffer.concat([await spokenPcm(other, 'awb'), silencePcm(300)]);
    const first = recognizer.start({ language: 'en-US' });
    const second = recognizer.start({ language: 'en-US' });
    const firstChunks = chunksOf(sentencePcm, 100);
    const secondChunks = chunksOf(otherPcm, 100);
    for (let index = 0; index < Math.max(firstChunks.length, secondChunks.length); index++) {
      if (firstChunks[index]) first.write(firstChunks[index]);
      if (secondChunks[index]) second.write(secondChunks[index]);
      await sleep(20);
    }
    const [a, b] = await Promise.all([first.finish(), second.finish()]);
    assert.ok(wordErrorRate(sentence, a.text) <= 0.35, a.text);
    assert.ok(wordErrorRate(other, b.text) <= 0.35, b.text);
    assert.doesNotMatch(a.text, /challenges/);
    assert.doesNotMatch(b.text, /experience/);
  });

  test('more streams than decoders wait their turn and are still recognised', async () => {
    const single = createPocketSphinxRecognizer({ modelDir, logger, maxDecoders: 1 });
    try {
      const streams = [single.start({ language: 'en-US' }), single.start({ language: 'en-US' })];
      for (const stream of streams) stream.write(sentencePcm);
      const results = await Promise.all(streams.map((stream) => stream.finish()));
      for (const result of results) assert.ok(wordErrorRate(sentence, result.text) <= 0.35, result.text);
    } finally {
      await single.close();
    }
  });

  test('a stream that waits for a decoder with more audio than allowed fails alone; the pool goes on', async () => {
    const single = createPocketSphinxRecognizer({ modelDir, logger, maxDecoders: 1, maxQueuedMs: 3000 });
    try {
      // A warm sidecar reads its input at once (a cold one is busy loading the model).
      const warmUp = single.start({ language: 'en-US' });
      warmUp.write(silencePcm(200));
      await warmUp.finish();
      // The only decoder is busy with this stream…
      const holder = single.start({ language: 'en-US' });
      holder.write(sentencePcm.subarray(0, 16_000));
      await sleep(300);
      // …so this one buffers in the sidecar, past its 3 s allowance.
      const waiting = single.start({ language: 'en-US' });
      for (let second = 0; second < 5; second += 1) {
        waiting.write(silencePcm(1000));
        await sleep(50);
      }
      await assert.rejects(
        waiting.finish(),
        (error: SpeechEngineError) => error.code === 'engine_failed' && /free decoder/.test(error.message),
      );
      await speak(holder, sentencePcm.subarray(16_000), 200, 20);
      assert.ok(wordErrorRate(sentence, (await holder.finish()).text) <= 0.35);
      // The decoder it frees goes to the next stream, not to the failed one.
      const next = single.start({ language: 'en-US' });
      await speak(next, sentencePcm, 200, 20);
      assert.ok(wordErrorRate(sentence, (await next.finish()).text) <= 0.35);
    } finally {
      await single.close();
    }
  });

  test('silence gives an empty final', async () => {
    const stream = recognizer.start({ language: 'en-US' });
    stream.write(silencePcm(1500));
    assert.equal((await stream.finish()).text, '');
  });

  test('a cancelled stream emits nothing more and the next stream works', async () => {
    const stream = recognizer.start({ language: 'en-US' });
    const interims: string[] = [];
    stream.onInterim((text) => interims.push(text));
    await speak(stream, sentencePcm.subarray(0, 32000 * 2));
    stream.cancel();
    const count = interims.length;
    stream.write(sentencePcm.subarray(32000 * 2));
    await sleep(600);
    assert.equal(interims.length, count, 'no interim after cancel');
    await assert.rejects(stream.finish(), (error: SpeechEngineError) => error.code === 'closed');
    const next = recognizer.start({ language: 'en-US' });
    next.write(sentencePcm);
    assert.ok(wordErrorRate(sentence, (await next.finish()).text) <= 0.35);
  });

  test('a sidecar killed mid-stream fails that stream; the next stream starts a new sidecar', async () => {
    const stream = recognizer.start({ language: 'en-US' });
    const pending = (async () => {
      await speak(stream, sentencePcm.subarray(0, 32000));
      return stream.finish();
    })();
    await sleep(150);
    const pid = recognizer.sidecarPid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await assert.rejects(pending, (error: SpeechEngineError) => error.code === 'engine_failed');
    const next = recognizer.start({ language: 'en-US' });
    next.write(sentencePcm);
    assert.ok(wordErrorRate(sentence, (await next.finish()).text) <= 0.35);
    assert.ok(recognizer.sidecarPid && recognizer.sidecarPid !== pid, 'a new sidecar');
  });

  test('a closed recogniser kills its sidecar and rejects new streams', async () => {
    const closing = createPocketSphinxRecognizer({ modelDir, logger });
    const stream = closing.start({ language: 'en-US' });
    stream.write(sentencePcm.subarray(0, 16000));
    const pid = closing.sidecarPid!;
    const finished = stream.finish();
    await closing.close();
    await assert.rejects(finished, (error: SpeechEngineError) => error.code === 'engine_failed');
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
    await assert.rejects(closing.start({ language: 'en-US' }).finish(), { code: 'closed' });
  });
});
