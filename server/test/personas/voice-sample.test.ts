// GET /v1/voices/{id}/sample (docs/authoring.md, "Voice samples"): a WAV of a short sentence in
// the catalog voice, synthesised by the service's own engine (the embedded Flite here, as
// `npm start` runs it), cached per voice; 503 without an engine; 404 for an unknown voice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VOICES } from '../../src/platform/personas/catalog.ts';
import { createFliteSynthesizer } from '../../src/platform/speech/tts/flite.ts';
import type { SpeechSynthesizer } from '../../src/platform/speech/types.ts';
import { decodeWav } from '../../src/platform/speech/wav.ts';
import { type ApiClient, expectError, startPlatform, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
let api: ApiClient;
const flite = createFliteSynthesizer();
let synthesised = 0;
/** Flite, counting the sentences it is asked for (the cache must spare the second request). */
const counting: SpeechSynthesizer = {
  engine: flite.engine,
  label: flite.label,
  synthesize: (...args) => {
    synthesised += 1;
    return flite.synthesize(...args);
  },
  close: () => flite.close(),
};

before(async () => {
  t = await startPlatform({ speech: { recognizer: null, synthesizer: counting } });
  api = await t.workspace();
});
after(async () => {
  await t.close();
  await flite.close();
});

describe('voice samples', () => {
  test('a WAV of the voice speaking, synthesised once per voice', async () => {
    const voice = VOICES[0]!;
    const response = await api.call('GET', `/voices/${voice.id}/sample`);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'audio/wav');
    const wav = response.rawPayload;
    assert.equal(wav.toString('ascii', 0, 4), 'RIFF');
    assert.equal(wav.toString('ascii', 8, 12), 'WAVE');
    assert.equal(Number(response.headers['content-length']), wav.length);
    const { pcm, sampleRate } = decodeWav(wav);
    const seconds = pcm.length / 2 / sampleRate;
    assert.ok(seconds > 1, `a sentence lasts more than a second, got ${seconds}`);
    let loud = 0;
    for (let at = 0; at < pcm.length; at += 2) if (Math.abs(pcm.readInt16LE(at)) > 1000) loud += 1;
    assert.ok(loud > 1000, 'the sample is not silence');

    const again = await api.call('GET', `/voices/${voice.id.toUpperCase()}/sample`);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.rawPayload, wav);
    assert.equal(synthesised, 1, 'the second request is served from the cache');
  });

  test('404 for a voice outside the catalog; 503 when the server has no speech engine', async () => {
    expectError(await api.call('GET', '/voices/00000000-0000-4000-8000-000000000000/sample'), 404, 'id');
    const mute = await startPlatform({ speech: { recognizer: null, synthesizer: null } });
    try {
      const ws = await mute.workspace();
      const response = await ws.call('GET', `/voices/${VOICES[0]!.id}/sample`);
      expectError(response, 503);
      assert.match(response.json().error.message, /TTS_ENGINE=off/);
    } finally {
      await mute.close();
    }
  });
});
