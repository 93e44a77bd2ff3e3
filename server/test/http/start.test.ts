import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../src/core/testing/free-port.ts';

test('`serve` starts on embedded defaults, prints how to get a key, and shuts down on SIGTERM', async () => {
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
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  try {
    let healthy = false;
    for (let i = 0; i < 480 && !healthy; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      healthy = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    }
    assert.ok(healthy, `server did not become ready:\n${output}`);
    // The banner is written once the mailbox listens too, a moment after the platform is ready.
    for (let i = 0; i < 120 && !/auth\/signup/.test(output); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.match(output, /auth\/signup/);
    assert.match(output, /\/v1/);
    // The dashboard's address opens the banner: it is where a new user starts.
    const banner = output.split('\n').filter((line) => line.startsWith('  ') && line.trim());
    assert.match(banner[0] ?? '', /^ {2}Understudy dashboard {2}http:\/\/localhost:\d+\/ /);
    // It says it listens on this machine only, and how to expose it.
    assert.ok(
      banner.some((line) => /127\.0\.0\.1 only/.test(line) && line.includes('HOST=0.0.0.0')),
      output,
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
  } finally {
    child.kill('SIGKILL');
  }
});
