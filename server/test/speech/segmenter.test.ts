import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  loadOnceUnlessFailed,
  type SegmentEvent,
  type SegmenterOptions,
  SpeechSegmenter,
} from '../../src/platform/speech/segmenter.ts';
import { chunksOf, noisePcm, silencePcm, spokenPcm } from './audio-fixtures.ts';
import {
  NOISE_KINDS,
  NOISE_NAMES,
  type NoiseKind,
  soxMissing,
  soxNoisePcm,
  speechOverNoise,
} from './noise-fixtures.ts';

async function segment(pcm: Buffer, options?: SegmenterOptions) {
  const segmenter = await SpeechSegmenter.create(options);
  const events: SegmentEvent[] = [];
  const speechMsSeen: number[] = [];
  for (const chunk of chunksOf(pcm, 40)) {
    events.push(...segmenter.push(chunk));
    speechMsSeen.push(segmenter.speechMs);
  }
  events.push(...segmenter.flush());
  segmenter.dispose();
  return { events, speechMsSeen };
}

const boundaries = (events: SegmentEvent[]) =>
  events.filter((event) => event.type !== 'audio') as Array<{ type: 'start' | 'end'; offsetMs: number }>;
const audioBytes = (events: SegmentEvent[]) =>
  events.reduce((sum, event) => sum + (event.type === 'audio' ? event.pcm.length : 0), 0);

describe('SpeechSegmenter', () => {
  let sentence: Buffer;
  let sentenceMs: number;
  before(async () => {
    sentence = await spokenPcm('I have five years of experience leading the support team.');
    sentenceMs = sentence.length / 32;
  });

  test('a spoken sentence between silences gives one start and one end around the speech', async () => {
    const { events, speechMsSeen } = await segment(
      Buffer.concat([silencePcm(1000), sentence, silencePcm(1500)]),
    );
    const marks = boundaries(events);
    assert.deepEqual(
      marks.map((mark) => mark.type),
      ['start', 'end'],
    );
    // The start includes up to 300 ms of pre-roll before the first voiced frames.
    assert.ok(marks[0].offsetMs >= 650 && marks[0].offsetMs <= 1300, `start at ${marks[0].offsetMs} ms`);
    const speechEnd = 1000 + sentenceMs;
    assert.ok(
      marks[1].offsetMs >= speechEnd - 600 && marks[1].offsetMs <= speechEnd + 100,
      `end at ${marks[1].offsetMs} ms, speech ends near ${speechEnd}`,
    );
    // Audio runs from the start to the end plus the closing silence, and follows the start.
    const firstAudio = events.findIndex((event) => event.type === 'audio');
    assert.ok(firstAudio > events.findIndex((event) => event.type === 'start'));
    const audioMs = audioBytes(events) / 32;
    assert.ok(audioMs >= marks[1].offsetMs - marks[0].offsetMs, `${audioMs} ms of audio`);
    assert.ok(audioMs <= marks[1].offsetMs - marks[0].offsetMs + 700, `${audioMs} ms of audio`);
    assert.ok(Math.max(...speechMsSeen) >= 1500, 'speechMs grows while speaking');
    assert.equal(speechMsSeen.at(-1), 0, 'speechMs is back to 0 after the end');
  });

  test('the end waits for the configured silence', async () => {
    const input = Buffer.concat([silencePcm(500), sentence, silencePcm(1500)]);
    const segmenter = await SpeechSegmenter.create({ endSilenceMs: 1200 });
    let endSeenAtMs: number | null = null;
    let streamedMs = 0;
    for (const chunk of chunksOf(input, 20)) {
      streamedMs += chunk.length / 32;
      if (segmenter.push(chunk).some((event) => event.type === 'end')) endSeenAtMs ??= streamedMs;
    }
    segmenter.dispose();
    assert.ok(endSeenAtMs !== null, 'an end was emitted');
    assert.ok(endSeenAtMs >= 500 + sentenceMs - 200 + 1000, `end emitted after ${endSeenAtMs} ms`);
  });

  test('two sentences separated by a long pause are two utterances', async () => {
    const input = Buffer.concat([silencePcm(300), sentence, silencePcm(1500), sentence, silencePcm(1000)]);
    const marks = boundaries((await segment(input)).events);
    assert.deepEqual(
      marks.map((mark) => mark.type),
      ['start', 'end', 'start', 'end'],
    );
    assert.ok(marks[2].offsetMs > marks[1].offsetMs);
  });

  test('speech cut off by flush() still ends', async () => {
    const marks = boundaries(
      (await segment(Buffer.concat([silencePcm(400), sentence.subarray(0, 32 * 1500)]))).events,
    );
    assert.deepEqual(
      marks.map((mark) => mark.type),
      ['start', 'end'],
    );
  });

  test('silence, hiss and hum alone give no utterance', async () => {
    const hum = Buffer.alloc(32 * 4000);
    for (let i = 0; i < hum.length / 2; i++) {
      hum.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 50 * i) / 16000)), i * 2);
    }
    for (const [name, pcm] of [
      ['silence', silencePcm(4000)],
      ['quiet hiss', noisePcm(4000, 0.01)],
      ['loud hiss', noisePcm(4000, 0.2)],
      ['mains hum', hum],
    ] as const) {
      const { events } = await segment(pcm);
      assert.deepEqual(events, [], `${name} gave ${JSON.stringify(boundaries(events))}`);
    }
  });

  test('a steady noise under the speech does not stretch the utterance', async () => {
    const noise = noisePcm(1000 + sentenceMs + 2000, 0.03);
    const mixed = Buffer.from(noise);
    for (let at = 0; at < sentence.length; at += 2) {
      const value = noise.readInt16LE(32000 + at) + sentence.readInt16LE(at);
      mixed.writeInt16LE(Math.max(-32768, Math.min(32767, value)), 32000 + at);
    }
    const marks = boundaries((await segment(mixed)).events);
    assert.deepEqual(
      marks.map((mark) => mark.type),
      ['start', 'end'],
    );
    assert.ok(marks[1].offsetMs <= 1000 + sentenceMs + 100, `end at ${marks[1].offsetMs}`);
  });

  test('an utterance longer than maxSegmentMs is cut', async () => {
    const long = Buffer.concat([sentence, sentence, sentence]);
    const marks = boundaries((await segment(long, { maxSegmentMs: 2000 })).events);
    assert.ok(marks.filter((mark) => mark.type === 'end').length >= 2, JSON.stringify(marks));
  });
});

// Noise never holds the floor (issue 29): each noise alone opens no utterance at all — the room never
// shows "listening", nothing can barge in — and speech over it is still cut where it is.
describe('SpeechSegmenter on noise made with sox', { skip: soxMissing }, () => {
  const NOISE_MS = 12_000;
  const noise = {} as Record<NoiseKind, Buffer>;
  let first: Buffer;
  let second: Buffer;
  before(async () => {
    for (const kind of NOISE_KINDS) noise[kind] = await soxNoisePcm(kind, NOISE_MS);
    first = await spokenPcm('I have five years of experience leading the support team.');
    second = await spokenPcm('What are the biggest challenges facing your team right now?', 'slt');
  });

  for (const kind of NOISE_KINDS) {
    test(`${NOISE_NAMES[kind]} alone, from the first sample or after silence, opens no utterance`, async () => {
      for (const leadMs of [0, 1000]) {
        const { events, speechMsSeen } = await segment(Buffer.concat([silencePcm(leadMs), noise[kind]]));
        assert.deepEqual(boundaries(events), [], `${kind} after ${leadMs} ms of silence`);
        assert.equal(Math.max(...speechMsSeen), 0, 'nothing counts as speech (barge-in)');
      }
    });
  }

  for (const kind of NOISE_KINDS) {
    test(`two sentences over ${NOISE_NAMES[kind]} at 15 and 10 dB SNR are two utterances where they were said`, async () => {
      const gapMs = 1500;
      const speech = Buffer.concat([first, silencePcm(gapMs), second]);
      const leadMs = 3000;
      const firstEnd = leadMs + first.length / 32;
      const secondStart = firstEnd + gapMs;
      const secondEnd = secondStart + second.length / 32;
      for (const snr of [15, 10]) {
        const input = speechOverNoise(speech, noise[kind], snr, leadMs, 3000);
        const marks = boundaries((await segment(input)).events);
        const where = `${kind} at ${snr} dB: ${JSON.stringify(marks)}`;
        assert.deepEqual(
          marks.map((mark) => mark.type),
          ['start', 'end', 'start', 'end'],
          where,
        );
        // Starts include the 300 ms pre-roll; ends are the last voiced frame (Flite trails ~0.2 s).
        assert.ok(Math.abs(marks[0].offsetMs - (leadMs - 300)) <= 400, where);
        assert.ok(marks[1].offsetMs >= firstEnd - 600 && marks[1].offsetMs <= firstEnd + 200, where);
        assert.ok(Math.abs(marks[2].offsetMs - (secondStart - 300)) <= 400, where);
        assert.ok(marks[3].offsetMs >= secondEnd - 600 && marks[3].offsetMs <= secondEnd + 200, where);
      }
    });
  }

  test('a tone is declared noise within about a second, and forgotten once it stops: speech after it is heard', async () => {
    const segmenter = await SpeechSegmenter.create();
    const heard = (pcm: Buffer) => chunksOf(pcm, 20).flatMap((chunk) => segmenter.push(chunk));
    assert.deepEqual(heard(silencePcm(500)), []);
    assert.equal(segmenter.hearingNoise, false);
    assert.deepEqual(heard(noise.tone.subarray(0, 32 * 2000)), []);
    assert.equal(segmenter.hearingNoise, true, 'the tone is declared noise');
    assert.deepEqual(heard(noise.tone.subarray(0, 32 * 4000)), [], 'and ignored while it lasts');
    assert.deepEqual(heard(silencePcm(1000)), []);
    assert.equal(segmenter.hearingNoise, false, 'forgotten once it stopped');
    const marks = boundaries([...heard(first), ...heard(silencePcm(1000))]);
    segmenter.dispose();
    assert.deepEqual(
      marks.map((mark) => mark.type),
      ['start', 'end'],
    );
  });

  test('an utterance that never pauses for maxUnbrokenMs ends as noise', async () => {
    // The sentence has no pause of 300 ms: with a 2 s limit it is cut as noise at 2 s.
    const { events } = await segment(Buffer.concat([silencePcm(500), first, silencePcm(1000)]), {
      maxUnbrokenMs: 2000,
    });
    const ends = events.filter((event) => event.type === 'end');
    assert.equal(ends.length, 1, JSON.stringify(boundaries(events)));
    assert.equal(ends[0].type === 'end' && ends[0].noise, true);
  });

  test('the recogniser gets noise-suppressed audio over a fan, the microphone as it is over silence', async () => {
    const utteranceAudio = (events: SegmentEvent[]) =>
      Buffer.concat(events.flatMap((event) => (event.type === 'audio' ? [event.pcm] : [])));
    const clean = Buffer.concat([silencePcm(1000), first, silencePcm(1000)]);
    const cleanEvents = (await segment(clean)).events;
    const start = boundaries(cleanEvents)[0].offsetMs;
    const audio = utteranceAudio(cleanEvents);
    assert.ok(audio.equals(clean.subarray(start * 32, start * 32 + audio.length)), 'unchanged over silence');

    const overFan = speechOverNoise(first, noise.fan, 10, 2000, 1000);
    for (const suppressNoise of [true, false]) {
      const { events } = await segment(overFan, { suppressNoise });
      const from = boundaries(events)[0].offsetMs * 32;
      const got = utteranceAudio(events);
      // The pre-roll is fan alone: suppressed, it is far quieter than the microphone's.
      const preRoll = (pcm: Buffer) => rms(pcm.subarray(0, 32 * 250));
      const ratio = preRoll(got) / preRoll(overFan.subarray(from));
      if (suppressNoise) assert.ok(ratio < 0.5, `suppressed pre-roll at ${ratio.toFixed(2)} of the fan`);
      else assert.ok(got.equals(overFan.subarray(from, from + got.length)), 'suppressNoise: false');
    }
  });
});

function rms(pcm: Buffer): number {
  let sum = 0;
  for (let at = 0; at < pcm.length; at += 2) sum += pcm.readInt16LE(at) ** 2;
  return Math.sqrt(sum / (pcm.length / 2));
}

describe('loadOnceUnlessFailed (the VAD module loader)', () => {
  test('shares one load, forgets a failed one so the next call tries again', async () => {
    let calls = 0;
    let fail = true;
    const load = loadOnceUnlessFailed(async () => {
      calls += 1;
      if (fail) throw new Error('wasm missing');
      return calls;
    });
    await assert.rejects(load(), /wasm missing/);
    fail = false;
    assert.equal(await load(), 2, 'retried after the failure');
    assert.equal(await load(), 2, 'then kept');
    assert.equal(calls, 2);
  });
});
