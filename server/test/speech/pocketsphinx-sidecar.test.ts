// How the PocketSphinx recogniser treats its sidecar process, with stand-in "interpreters" (shell
// scripts) so these run without PocketSphinx: the child's environment, the restart backoff after
// a sidecar that dies at start-up, and the bound on audio queued for a sidecar that does not read.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import type { SpeechEngineError } from '../../src/platform/speech/errors.ts';
import { createPocketSphinxRecognizer } from '../../src/platform/speech/stt/pocketsphinx.ts';
import { sidecarEnvironment } from '../../src/platform/speech/stt/sidecar.ts';
import { silencePcm } from './audio-fixtures.ts';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'understudy-sidecar-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An executable shell script standing in for python3. */
function fakePython(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const isEngineFailure = (pattern: RegExp) => (error: SpeechEngineError) =>
  error.name === 'SpeechEngineError' && error.code === 'engine_failed' && pattern.test(error.message);

describe('PocketSphinx sidecar process', () => {
  test('the child gets PATH, HOME, LANG and PYTHON* only: no database URL, no keys', () => {
    const env = sidecarEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/service',
      LANG: 'C.UTF-8',
      PYTHONPATH: '/opt/lib',
      DATABASE_URL: 'postgres://user:secret@db/understudy',
      ENCRYPTION_KEY: 'ab'.repeat(32),
      STT_API_KEY: 'sk-secret',
      LLM_API_KEY: 'sk-other',
    });
    assert.deepEqual(env, {
      PATH: '/usr/bin',
      HOME: '/home/service',
      LANG: 'C.UTF-8',
      PYTHONPATH: '/opt/lib',
      PYTHONUNBUFFERED: '1',
    });
  });

  test('a sidecar that dies at start-up is not respawned during the backoff; streams then fail at once', async () => {
    const spawns = join(dir, 'spawns');
    const python = fakePython(
      'dying-python',
      `env > "${dir}/env-$$"\necho spawned >> "${spawns}"\necho "no module named pocketsphinx" >&2\nexit 1`,
    );
    const spawnCount = () => readFileSync(spawns, 'utf8').trim().split('\n').length;
    const secretsBefore = { DATABASE_URL: process.env.DATABASE_URL, STT_API_KEY: process.env.STT_API_KEY };
    process.env.DATABASE_URL = 'postgres://user:secret@127.0.0.1/db';
    process.env.STT_API_KEY = 'sk-must-not-leak';
    const recognizer = createPocketSphinxRecognizer({
      modelDir: dir,
      python,
      logger,
      restartBackoffMs: 400,
    });
    try {
      const first = recognizer.start({ language: 'en-US' });
      first.write(silencePcm(100));
      await assert.rejects(first.finish(), isEngineFailure(/exited \(code 1\)/));
      assert.equal(spawnCount(), 1);

      // During the backoff: no new process, and the stream fails without waiting.
      const started = performance.now();
      const during = recognizer.start({ language: 'en-US' });
      during.write(silencePcm(100));
      await assert.rejects(during.finish(), isEngineFailure(/failed to start .*next attempt in 1 s/));
      assert.ok(performance.now() - started < 100, 'rejected at once');
      assert.equal(spawnCount(), 1, 'not respawned during the backoff');

      // After it, one new attempt; it fails too, and the next backoff is twice as long.
      await sleep(450);
      const retry = recognizer.start({ language: 'en-US' });
      await assert.rejects(retry.finish(), isEngineFailure(/exited/));
      assert.equal(spawnCount(), 2);
      await sleep(450);
      await assert.rejects(recognizer.start({ language: 'en-US' }).finish(), isEngineFailure(/next attempt/));
      assert.equal(spawnCount(), 2, 'the backoff doubled (800 ms)');
      await sleep(400);
      await assert.rejects(recognizer.start({ language: 'en-US' }).finish(), isEngineFailure(/exited/));
      assert.equal(spawnCount(), 3);

      // What the child saw of the environment.
      const envFile = readdirSync(dir).find((name) => name.startsWith('env-'))!;
      const childEnv = readFileSync(join(dir, envFile), 'utf8');
      assert.match(childEnv, /^PYTHONUNBUFFERED=1$/m);
      assert.match(childEnv, /^PATH=/m);
      assert.doesNotMatch(childEnv, /DATABASE_URL|STT_API_KEY|sk-must-not-leak/);
    } finally {
      await recognizer.close();
      for (const [name, value] of Object.entries(secretsBefore)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test('a sidecar that stops reading: the stream fails once more than the allowed audio is queued', async () => {
    // Alive, but never reads its stdin (a wedged or overloaded sidecar).
    const python = fakePython('deaf-python', 'exec sleep 60');
    const recognizer = createPocketSphinxRecognizer({ modelDir: dir, python, logger, maxQueuedMs: 5_000 });
    try {
      const stream = recognizer.start({ language: 'en-US' });
      // 20 s of audio at once: the pipe takes ~2 s of it, the rest waits in the service.
      for (let second = 0; second < 20; second += 1) stream.write(silencePcm(1000));
      const error = (await stream.finish().catch((failure: unknown) => failure)) as SpeechEngineError;
      assert.ok(isEngineFailure(/fell more than 5 s behind/)(error), String(error));
      // The sidecar itself is not blamed: it is still running, and a new stream can open.
      assert.ok(recognizer.sidecarPid, 'the sidecar still runs');
    } finally {
      await recognizer.close();
    }
  });
});
