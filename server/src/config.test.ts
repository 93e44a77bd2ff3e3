import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'understudy-config-'));

test('defaults: port 8080, embedded database, development, sign-up on', () => {
  const dir = dataDir();
  const config = loadConfig({ DATA_DIR: dir });
  assert.equal(config.port, 8080);
  assert.equal(config.host, '127.0.0.1', 'development listens on this machine only');
  assert.equal(config.databaseUrl, null);
  assert.equal(config.redisUrl, null);
  assert.equal(config.appEnv, 'development');
  assert.equal(config.signupEnabled, true);
  assert.equal(config.publicUrl, 'http://localhost:8080');
  assert.equal(config.rateLimit.perMinute, 600);
  assert.equal(config.rateLimit.writesPerMinute, 120);
  assert.deepEqual(config.mailboxRateLimit, { points: 300, durationSeconds: 60 });
  assert.ok(Object.isFrozen(config));
});

test('an encryption key is generated once into DATA_DIR and reused', () => {
  const dir = dataDir();
  const first = loadConfig({ DATA_DIR: dir }).encryptionKey;
  const second = loadConfig({ DATA_DIR: dir }).encryptionKey;
  assert.equal(first.length, 32);
  assert.deepEqual(first, second);
  assert.equal(readFileSync(join(dir, 'encryption.key'), 'utf8').trim(), first.toString('hex'));
});

test('production: sign-up off unless enabled, https PUBLIC_URL required', () => {
  const dir = dataDir();
  const base = { DATA_DIR: dir, APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com' };
  assert.equal(loadConfig(base).signupEnabled, false);
  assert.equal(loadConfig(base).host, '0.0.0.0');
  assert.equal(loadConfig({ ...base, HOST: '10.0.0.5' }).host, '10.0.0.5');
  assert.equal(loadConfig({ ...base, SIGNUP_ENABLED: 'true' }).signupEnabled, true);
  assert.throws(
    () => loadConfig({ ...base, PUBLIC_URL: 'http://api.example.com' }),
    /PUBLIC_URL must be an https URL/,
  );
});

test('invalid values fail with a message naming the variable', () => {
  const dir = dataDir();
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer from 0 to 65535/],
    [{ APP_ENV: 'staging' }, /APP_ENV must be development or production/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres:/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis:/],
    [{ ENCRYPTION_KEY: 'short' }, /ENCRYPTION_KEY must be 32 bytes/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SIGNUP_ENABLED: 'maybe' }, /SIGNUP_ENABLED must be true or false/],
    [
      { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8, 10.0.0.0/99' },
      /OUTBOUND_ALLOW_CIDRS: Invalid CIDR "10.0.0.0\/99"/,
    ],
    [{ STT_ENGINE: 'vosk' }, /STT_ENGINE must be one of auto, pocketsphinx, openai, off/],
    [{ TTS_ENGINE: 'espeak' }, /TTS_ENGINE must be one of auto, flite, openai, off/],
    [{ STT_ENGINE: 'openai' }, /STT_ENGINE=openai needs STT_BASE_URL/],
    [{ TTS_ENGINE: 'openai' }, /TTS_ENGINE=openai needs TTS_BASE_URL/],
    [{ STT_BASE_URL: 'ftp://x' }, /STT_BASE_URL must use http: or https:/],
    [{ TTS_BASE_URL: 'speech server' }, /TTS_BASE_URL must be a URL/],
    [{ VOICE_END_SILENCE_MS: '50' }, /VOICE_END_SILENCE_MS must be an integer from 200 to 5000/],
    [{ VOICE_END_SILENCE_MS: 'long' }, /VOICE_END_SILENCE_MS must be an integer/],
    [{ VOICE_END_OF_TURN: 'smart' }, /VOICE_END_OF_TURN must be one of adaptive, fixed/],
    [{ STT_INTERIM_INTERVAL_MS: '100' }, /STT_INTERIM_INTERVAL_MS must be 0 \(off\) or from 500 to 60000/],
    [{ STT_INTERIM_INTERVAL_MS: '-1' }, /STT_INTERIM_INTERVAL_MS must be an integer from 0 to 60000/],
    [{ STT_INTERIM_INTERVAL_MS: 'often' }, /STT_INTERIM_INTERVAL_MS must be an integer/],
    [{ MAILBOX_RATE_LIMIT: '0' }, /MAILBOX_RATE_LIMIT must be an integer from 1/],
    [{ MAILBOX_RATE_WINDOW_SECONDS: 'a minute' }, /MAILBOX_RATE_WINDOW_SECONDS must be an integer/],
    [
      { MAILBOX_RATE_WINDOW_SECONDS: '90000' },
      /MAILBOX_RATE_WINDOW_SECONDS must be an integer from 1 to 86400/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig({ DATA_DIR: dir, ...env }),
      (error: Error) => error instanceof ConfigError && message.test(error.message),
    );
  }
});

test('a postgres:// DATABASE_URL switches engines; a hex ENCRYPTION_KEY is used as given', () => {
  const config = loadConfig({
    DATA_DIR: dataDir(),
    DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
    ENCRYPTION_KEY: 'ab'.repeat(32),
  });
  assert.equal(config.databaseUrl, 'postgres://u@127.0.0.1:5432/db');
  assert.equal(config.encryptionKey.toString('hex'), 'ab'.repeat(32));
});

test('speech: automatic engines by default; OpenAI-compatible endpoints with their models and keys', () => {
  const dir = dataDir();
  const defaults = loadConfig({ DATA_DIR: dir }).speech;
  assert.deepEqual(defaults, {
    stt: { engine: 'auto', baseUrl: null, apiKey: null, model: 'whisper-1', interimIntervalMs: 1500 },
    tts: { engine: 'auto', baseUrl: null, apiKey: null, model: 'tts-1' },
    endSilenceMs: 600,
    endOfTurn: 'adaptive',
  });
  const configured = loadConfig({
    DATA_DIR: dir,
    STT_ENGINE: 'OpenAI',
    STT_BASE_URL: 'http://127.0.0.1:9000/v1/',
    STT_API_KEY: 'stt-key',
    STT_MODEL: 'Systran/faster-whisper-small',
    TTS_ENGINE: 'off',
    TTS_BASE_URL: 'https://speech.example/v1',
    VOICE_END_SILENCE_MS: '900',
    VOICE_END_OF_TURN: 'Fixed',
    STT_INTERIM_INTERVAL_MS: '0',
  }).speech;
  assert.deepEqual(configured.stt, {
    engine: 'openai',
    baseUrl: 'http://127.0.0.1:9000/v1',
    apiKey: 'stt-key',
    model: 'Systran/faster-whisper-small',
    interimIntervalMs: 0,
  });
  assert.deepEqual(configured.tts, {
    engine: 'off',
    baseUrl: 'https://speech.example/v1',
    apiKey: null,
    model: 'tts-1',
  });
  assert.equal(configured.endSilenceMs, 900);
  assert.equal(configured.endOfTurn, 'fixed');
});

test('bounds: header, body, upload and keep-alive timeouts, SMTP timeouts and the WebSocket buffer', () => {
  const dir = dataDir();
  const config = loadConfig({ DATA_DIR: dir });
  assert.deepEqual(config.http, {
    headersTimeoutMs: 10_000,
    bodyTimeoutMs: 30_000,
    uploadTimeoutMs: 600_000,
    keepAliveTimeoutMs: 5_000,
  });
  assert.deepEqual(config.smtpTimeouts, { socketMs: 60_000, closeMs: 10_000 });
  assert.equal(config.wsMaxBufferedBytes, 4 * 1024 * 1024);
  const set = loadConfig({ DATA_DIR: dir, HTTP_BODY_TIMEOUT_MS: '5000', WS_MAX_BUFFERED_BYTES: '65536' });
  assert.equal(set.http.bodyTimeoutMs, 5000);
  assert.equal(set.wsMaxBufferedBytes, 65536);
  assert.throws(() => loadConfig({ DATA_DIR: dir, HTTP_HEADERS_TIMEOUT_MS: '0' }), /HTTP_HEADERS_TIMEOUT_MS/);
});
