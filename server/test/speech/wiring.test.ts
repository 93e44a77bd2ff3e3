import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { detectPocketSphinx } from '../../src/platform/speech/stt/pocketsphinx.ts';
import {
  closeSpeechEngines,
  createSpeechEngines,
  planSpeechEngines,
  speechBannerLines,
} from '../../src/platform/speech/wiring.ts';

const logger = pino({ level: 'silent' });
const dataDir = mkdtempSync(join(tmpdir(), 'understudy-speech-wiring-'));
const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });
/** An interpreter that does not exist: PocketSphinx counts as not installed. */
const NO_PYTHON = join(dataDir, 'no-python3');

describe('speech engine choice', () => {
  test('auto without endpoints: PocketSphinx when installed, and Flite', async (t) => {
    const detection = await detectPocketSphinx();
    if (!detection.available) return t.skip(`PocketSphinx is not installed: ${detection.reason}`);
    const engines = await createSpeechEngines(config(), logger);
    assert.equal(engines.recognizer?.engine, 'pocketsphinx');
    assert.equal(engines.synthesizer?.engine, 'flite');
    assert.deepEqual(speechBannerLines(await planSpeechEngines(config())), [
      'Speech to text: PocketSphinx (offline)',
      'Text to speech: Flite (embedded)',
    ]);
    await closeSpeechEngines(engines);
  });

  test('auto without PocketSphinx: no recogniser, and the banner says how to install one', async () => {
    const engines = await createSpeechEngines(config(), logger, { python: NO_PYTHON });
    assert.equal(engines.recognizer, null);
    assert.equal(engines.synthesizer?.engine, 'flite');
    const [stt] = speechBannerLines(await planSpeechEngines(config(), { python: NO_PYTHON }));
    assert.equal(
      stt,
      "Speech to text: none (install with: apt-get install python3-pocketsphinx pocketsphinx-en-us) — rooms use the browser's recognition or typing",
    );
    await closeSpeechEngines(engines);
  });

  test('base URLs switch auto to the OpenAI-compatible engines; off turns a direction off', async () => {
    const env = {
      STT_BASE_URL: 'http://127.0.0.1:9/v1',
      STT_MODEL: 'small.en',
      TTS_BASE_URL: 'http://127.0.0.1:9/v1',
    };
    const engines = await createSpeechEngines(config(env), logger, { python: NO_PYTHON });
    assert.equal(engines.recognizer?.engine, 'openai-compatible');
    assert.equal(engines.synthesizer?.engine, 'openai-compatible');
    assert.deepEqual(speechBannerLines(await planSpeechEngines(config(env))), [
      'Speech to text: OpenAI-compatible (small.en at 127.0.0.1:9)',
      'Text to speech: OpenAI-compatible (tts-1 at 127.0.0.1:9)',
    ]);
    // STT_INTERIM_INTERVAL_MS reaches the recogniser (1500 by default).
    const interval = async (extra: Record<string, string>) => {
      const plan = await planSpeechEngines(config({ ...env, ...extra }));
      return plan.recognizer.kind === 'openai' ? plan.recognizer.interimIntervalMs : null;
    };
    assert.equal(await interval({}), 1500);
    assert.equal(await interval({ STT_INTERIM_INTERVAL_MS: '0' }), 0);
    const off = await createSpeechEngines(config({ ...env, STT_ENGINE: 'off', TTS_ENGINE: 'off' }), logger);
    assert.deepEqual(off, { recognizer: null, synthesizer: null });
    assert.deepEqual(
      speechBannerLines(await planSpeechEngines(config({ STT_ENGINE: 'off', TTS_ENGINE: 'off' }))),
      [
        "Speech to text: none (STT_ENGINE=off) — rooms use the browser's recognition or typing",
        "Text to speech: none (TTS_ENGINE=off) — the persona's replies are text only",
      ],
    );
  });

  test('forcing flite ignores TTS_BASE_URL; forcing a missing PocketSphinx stops the boot', async () => {
    const flite = await createSpeechEngines(
      config({ TTS_ENGINE: 'flite', TTS_BASE_URL: 'http://127.0.0.1:9/v1', STT_ENGINE: 'off' }),
      logger,
    );
    assert.equal(flite.synthesizer?.engine, 'flite');
    await assert.rejects(
      createSpeechEngines(config({ STT_ENGINE: 'pocketsphinx' }), logger, { python: NO_PYTHON }),
      (error: Error) =>
        error instanceof ConfigError && /STT_ENGINE=pocketsphinx but .*not found/.test(error.message),
    );
  });
});
