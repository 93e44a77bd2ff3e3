import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { asyncLogDestination, redactUrl } from './logging.ts';

test('credentials in query strings are redacted from logged URLs', () => {
  assert.equal(redactUrl('/room/abc?t=secret-token'), '/room/abc?t=[redacted]');
  assert.equal(redactUrl('/v0/ws?x=1&api_key=aik_123&y=2'), '/v0/ws?x=1&api_key=[redacted]&y=2');
  assert.equal(redactUrl('/v1/goals?limit=10'), '/v1/goals?limit=10');
  assert.equal(redactUrl(undefined), undefined);
});

test('the process log is written asynchronously and flushed when the process exits', () => {
  assert.equal((asyncLogDestination() as unknown as { sync: boolean }).sync, false);
  // A child logs more than the buffer holds back, then exits at once: every line still arrives.
  const script = `
    import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('./logging.ts', import.meta.url)))};
    const logger = createLogger('info');
    for (let i = 0; i < 500; i += 1) logger.info({ i }, 'line');
    process.exit(0);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  const logged = child.stdout.split('\n').filter(Boolean);
  assert.equal(logged.length, 500);
  assert.equal(JSON.parse(logged.at(-1)!).i, 499);
});
