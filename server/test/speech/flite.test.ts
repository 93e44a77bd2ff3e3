import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { VOICES } from '../../src/platform/personas/catalog.ts';
import type { SpeechEngineError } from '../../src/platform/speech/errors.ts';
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import type { VoiceChoice } from '../../src/platform/speech/types.ts';
import { fliteVoiceFor } from '../../src/platform/speech/voices.ts';
import { pcmDurationMs } from '../../src/platform/speech/wav.ts';

const choice = (overrides: Partial<VoiceChoice> = {}): VoiceChoice => ({
  ttsVoice: null,
  gender: null,
  voiceId: null,
  language: 'en-US',
  ...overrides,
});

function rms(pcm: Buffer): number {
  let sum = 0;
  for (let at = 0; at < pcm.length; at += 2) sum += pcm.readInt16LE(at) ** 2;
  return Math.sqrt(sum / (pcm.length / 2));
}

describe('Flite voice mapping', () => {
  test('catalog voices map by gender; male voices stay the same per voice id', () => {
    for (const voice of VOICES) {
      const picked = fliteVoiceFor(
        choice({
          ttsVoice: voice.tts_voice,
          gender: voice.gender,
          voiceId: voice.id,
          language: voice.language,
        }),
      );
      if (voice.gender === 'female') assert.equal(picked, 'slt', voice.name);
      else assert.ok(['rms', 'awb'].includes(picked), `${voice.name} → ${picked}`);
      assert.equal(
        fliteVoiceFor(choice({ gender: voice.gender, voiceId: voice.id })),
        picked,
        'the OpenAI voice name plays no part',
      );
    }
    const male = VOICES.filter((voice) => voice.gender === 'male').map((voice) =>
      fliteVoiceFor(choice({ gender: 'male', voiceId: voice.id })),
    );
    assert.equal(new Set(male).size, 2, `the male catalog voices use both male Flite voices: ${male}`);
  });

  test('unknown gender gets slt; a Flite voice name is taken as is', () => {
    assert.equal(fliteVoiceFor(choice()), 'slt');
    assert.equal(fliteVoiceFor(choice({ gender: 'unspecified' })), 'slt');
    assert.equal(fliteVoiceFor(choice({ gender: 'male' })), 'rms');
    assert.equal(fliteVoiceFor(choice({ gender: 'female', ttsVoice: 'kal16' })), 'kal16');
  });
});

describe('Flite synthesiser', () => {
  const synthesizer = createFliteSynthesizer();
  after(() => synthesizer.close());

  test('a sentence becomes audible 16 kHz speech of a plausible length', async () => {
    const started = performance.now();
    const audio = await synthesizer.synthesize(
      'Thanks for coming in today. Tell me about yourself.',
      choice({ gender: 'female' }),
    );
    const elapsed = performance.now() - started;
    assert.equal(audio.sampleRate, 16000);
    const ms = pcmDurationMs(audio.pcm, audio.sampleRate);
    assert.ok(ms > 1500 && ms < 6000, `${ms} ms of audio`);
    assert.ok(rms(audio.pcm) > 500, 'not silence');
    console.log(
      `Flite first sentence (worker start + compile): ${elapsed.toFixed(0)} ms for ${ms} ms of audio`,
    );
  });

  test('different voices give different audio; the same input gives the same audio', async () => {
    const text = 'I have five years of experience.';
    const female = await synthesizer.synthesize(text, choice({ gender: 'female' }));
    const rmsVoice = await synthesizer.synthesize(text, choice({ ttsVoice: 'rms' }));
    const again = await synthesizer.synthesize(text, choice({ ttsVoice: 'rms' }));
    assert.ok(!female.pcm.equals(rmsVoice.pcm));
    assert.ok(rmsVoice.pcm.equals(again.pcm));
  });

  test('concurrent sentences all complete, in order, each at ~tens of ms', async () => {
    const sentences = ['One sentence.', 'A second, longer sentence follows it.', 'And a third.'];
    const finished: number[] = [];
    const started = performance.now();
    const results = await Promise.all(
      sentences.map((text, index) =>
        synthesizer.synthesize(text, choice({ ttsVoice: 'rms' })).then((audio) => {
          finished.push(index);
          return audio;
        }),
      ),
    );
    const perSentence = (performance.now() - started) / sentences.length;
    assert.deepEqual(finished, [0, 1, 2]);
    assert.ok(pcmDurationMs(results[1].pcm, 16000) > pcmDurationMs(results[2].pcm, 16000));
    console.log(`Flite synthesis: ${perSentence.toFixed(0)} ms per sentence (warm worker)`);
  });

  test('many sentences in a row in every voice: no crash, same audio for the same input', async () => {
    // node:wasi crashed the process (SIGSEGV) after a handful of Flite runs; wasi-shim.ts replaces it.
    const voices = ['slt', 'rms', 'awb', 'kal16'];
    const first = new Map<string, Buffer>();
    for (let index = 0; index < 32; index++) {
      const voiceName = voices[index % voices.length];
      const audio = await synthesizer.synthesize(
        `Question ${index % 8}: what would you do differently next time?`,
        choice({ ttsVoice: voiceName }),
      );
      const key = `${voiceName}/${index % 8}`;
      if (first.has(key)) assert.ok(first.get(key)!.equals(audio.pcm), key);
      else first.set(key, audio.pcm);
      assert.ok(pcmDurationMs(audio.pcm, 16000) > 1000);
    }
  });

  test('an aborted sentence rejects at once and the next one still works', async () => {
    const controller = new AbortController();
    const pending = synthesizer.synthesize(
      'This one is cancelled before it is heard.',
      choice(),
      controller.signal,
    );
    controller.abort();
    await assert.rejects(pending, (error: SpeechEngineError) => error.code === 'aborted');
    const already = new AbortController();
    already.abort();
    await assert.rejects(synthesizer.synthesize('No.', choice(), already.signal), { code: 'aborted' });
    const audio = await synthesizer.synthesize('Still here.', choice());
    assert.ok(audio.pcm.length > 0);
  });

  test('a sentence that overruns its timeout fails; its worker is replaced and later sentences work', async () => {
    // ~1 s of synthesis for the longest text allowed (more on a busy machine) against a 400 ms
    // budget; short sentences take 20–130 ms once the (new) worker has compiled the module, which
    // the budget does not count.
    const long = 'Tell me about a system you designed and the hardest part of it. '.repeat(32);
    let started = performance.now();
    await synthesizer.synthesize(long, choice());
    const wholeRun = performance.now() - started;
    const hurried = createFliteSynthesizer({ sentenceTimeoutMs: 400 });
    try {
      await hurried.synthesize('Warm up.', choice());
      started = performance.now();
      await assert.rejects(
        hurried.synthesize(long, choice()),
        (error: SpeechEngineError) => error.code === 'timeout' && /400 ms/.test(error.message),
      );
      const waited = performance.now() - started;
      assert.ok(
        waited < wholeRun,
        `rejected at the deadline (${waited.toFixed(0)} ms), not when the run ended (${wholeRun.toFixed(0)} ms)`,
      );
      // A sentence queued behind the stuck one, and one after it, both come from a fresh worker.
      const [queued, after] = await Promise.all([
        hurried.synthesize('Next question.', choice()),
        hurried.synthesize('And the one after.', choice()),
      ]);
      assert.ok(rms(queued.pcm) > 500 && rms(after.pcm) > 500);
    } finally {
      await hurried.close();
    }
  });

  test('text without words gives no audio; a closed synthesiser rejects', async () => {
    assert.equal((await synthesizer.synthesize(' … ', choice())).pcm.length, 0);
    const other = createFliteSynthesizer();
    await other.close();
    await assert.rejects(other.synthesize('Hello.', choice()), { code: 'closed' });
  });
});
