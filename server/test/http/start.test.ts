import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../src/core/testing/free-port.ts';

/**
 * Starts `serve` on free ports and waits until it is ready. A port found free can be taken by
 * another test file before the child binds it: then the child reports EADDRINUSE and is started
 * again on other ports (at most three times).
 */
async function startServe() {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'understudy-start-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'serve'], {
      env: {
        ...process.env,
        PORT: String(port),
        MAILBOX_PORT: String(await freePort()),
        SMTP_PORT: String(await freePort()),
        // The development default: this machine only (127.0.0.1).
        HOST: '',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = { child, port, output: '' };
    child.stdout.on('data', (chunk) => {
      run.output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      run.output += chunk;
    });
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    let healthy = false;
    const taken = () => /EADDRINUSE/.test(run.output);
    for (let i = 0; i < 480 && !healthy && !exited && !taken(); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      healthy = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    }
    if (healthy || attempt === 3 || !taken()) return Object.assign(run, { healthy });
    child.kill('SIGKILL');
  }
}

test('`serve` starts on embedded defaults, prints how to get a key, and shuts down on SIGTERM', async () => {
  const started = await startServe();
  const { child, healthy } = started;
  try {
    assert.ok(healthy, `server did not become ready:\n${started.output}`);
    // The banner is written once the mailbox listens too, a moment after the platform is ready.
    for (let i = 0; i < 120 && !/auth\/signup/.test(started.output); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.match(started.output, /auth\/signup/);
    assert.match(started.output, /\/v1/);
    // The dashboard's address opens the banner: it is where a new user starts.
    const banner = started.output.split('\n').filter((line) => line.startsWith('  ') && line.trim());
    assert.match(banner[0] ?? '', /^ {2}Understudy dashboard {2}http:\/\/localhost:\d+\/ /);
    // It says it listens on this machine only, and how to expose it.
    assert.ok(
      banner.some((line) => /127\.0\.0\.1 only/.test(line) && line.includes('HOST=0.0.0.0')),
      started.output,
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, started.output);
  } finally {
    child.kill('SIGKILL');
  }
});
