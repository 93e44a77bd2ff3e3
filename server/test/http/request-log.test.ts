import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createHttpApp } from '../../src/app/http-app.ts';
import { createLogger } from '../../src/core/logging.ts';

test('one log line per request: method, redacted url, status, ms and request id', async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  const { app } = await createHttpApp({
    logger: createLogger('info', sink),
    publicUrl: 'http://localhost',
    openapi: { title: 't', version: '1', description: 'd', serverPath: '/' },
  });
  app.get('/thing', async () => ({ ok: true }));
  await app.ready();
  try {
    const found = await app.inject({ method: 'GET', url: '/thing?t=room-secret&x=1' });
    const missing = await app.inject({ method: 'POST', url: '/nowhere' });
    assert.equal(found.statusCode, 200);
    assert.equal(missing.statusCode, 404);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 2, JSON.stringify(lines));
    const [first, second] = lines;
    assert.equal(first!.msg, 'request');
    assert.equal(first!.method, 'GET');
    assert.equal(first!.url, '/thing?t=[redacted]&x=1');
    assert.equal(first!.status, 200);
    assert.equal(typeof first!.ms, 'number');
    assert.equal(first!.request_id, found.headers['x-request-id']);
    assert.equal(second!.status, 404);
    assert.equal(second!.method, 'POST');
    assert.ok(!JSON.stringify(lines).includes('room-secret'));
    assert.ok(!lines.some((line) => line.msg === 'incoming request' || line.msg === 'request completed'));
  } finally {
    await app.close();
  }
});
