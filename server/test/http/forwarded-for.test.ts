import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { createHttpApp } from '../../src/app/http-app.ts';

async function appLoggingTo(lines: string[], trustProxyHops: number) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const { app } = await createHttpApp({
    logger: pino({ level: 'warn' }, stream),
    publicUrl: 'http://localhost',
    trustProxyHops,
    openapi: { title: 't', version: '1', description: 't', serverPath: '/' },
  });
  app.get('/ping', async () => ({ ok: true }));
  return app;
}

// Its own file: the warning is once per process.
test('X-Forwarded-For while TRUST_PROXY_HOPS is 0 is warned about once per process', async () => {
  const lines: string[] = [];
  const trusting = await appLoggingTo(lines, 1);
  const direct = await appLoggingTo(lines, 0);
  const another = await appLoggingTo(lines, 0);
  const forwarded = { 'x-forwarded-for': '203.0.113.5' };
  try {
    await trusting.inject({ url: '/ping', headers: forwarded });
    assert.equal(lines.length, 0, 'believed when proxies are configured');
    await direct.inject({ url: '/ping' });
    assert.equal(lines.length, 0, 'nothing to say without the header');
    await direct.inject({ url: '/ping', headers: forwarded });
    await direct.inject({ url: '/ping', headers: forwarded });
    await another.inject({ url: '/ping', headers: forwarded });
    const warnings = lines.filter((line) => line.includes('TRUST_PROXY_HOPS'));
    assert.equal(warnings.length, 1, lines.join(''));
    assert.equal(JSON.parse(warnings[0]!).level, 40);
  } finally {
    await Promise.all([trusting.close(), direct.close(), another.close()]);
  }
});
