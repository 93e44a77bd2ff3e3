import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import aws4 from 'aws4';
import { FakeClock } from '../clock.ts';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import { assertValidKey, toBuffer } from './types.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('keys cannot escape the root', () => {
  for (const bad of ['', '../x', 'a/../b', '/abs', 'a//b', 'a/./b', 'a b'])
    assert.throws(() => assertValidKey(bad), bad);
  assertValidKey('mailbox/raw/msg_1.eml');
});

test('local storage puts, gets, deletes and signs URLs', async () => {
  const root = mkdtempSync(join(tmpdir(), 'storage-'));
  dirs.push(root);
  const clock = new FakeClock();
  const storage = new LocalStorage({
    root,
    publicBaseUrl: 'http://localhost:8080/storage',
    signingKey: randomBytes(32),
    clock,
  });
  assert.deepEqual(await storage.put('a/b.txt', Buffer.from('hello'), 'text/plain'), { size: 5 });
  await storage.put(
    'a/stream.bin',
    Readable.from([Buffer.from('12'), Buffer.from('345')]),
    'application/octet-stream',
  );
  const got = await storage.get('a/b.txt');
  assert.equal(got?.contentType, 'text/plain');
  assert.equal(got?.size, 5);
  assert.equal((await toBuffer(got!.body)).toString(), 'hello');
  assert.equal((await toBuffer((await storage.get('a/stream.bin'))!.body)).toString(), '12345');
  assert.equal(await storage.get('a/missing'), null);
  // A range reads only its bytes (inclusive end); size stays the whole object's.
  const ranged = await storage.get('a/stream.bin', { range: { start: 1, end: 3 } });
  assert.equal((await toBuffer(ranged!.body)).toString(), '234');
  assert.equal(ranged?.size, 5);
  const head = await storage.head('a/b.txt');
  assert.equal(head?.size, 5);
  assert.equal(head?.contentType, 'text/plain');
  assert.ok(head?.lastModified instanceof Date);
  assert.equal(await storage.head('a/missing'), null);

  const url = new URL(await storage.signedUrl('a/b.txt', 60));
  assert.equal(url.pathname, '/storage/a/b.txt');
  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature')!;
  assert.equal(storage.verify('a/b.txt', expires, signature), true);
  assert.equal(storage.verify('a/other.txt', expires, signature), false);
  clock.advance(61_000);
  assert.equal(storage.verify('a/b.txt', expires, signature), false, 'expired');

  await storage.delete('a/b.txt');
  await storage.delete('a/b.txt');
  assert.equal(await storage.get('a/b.txt'), null);
});

test('S3 storage signs every request with SigV4 and round-trips objects', async () => {
  const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' };
  const objects = new Map<string, { body: Buffer; type: string }>();
  const seen: string[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // Re-sign what arrived with the same credentials: the signature must match exactly.
    const auth = String(req.headers.authorization ?? '');
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? [];
    const headers: Record<string, string> = {};
    for (const name of signedHeaders) headers[name] = String(req.headers[name]);
    const check = aws4.sign(
      {
        host: req.headers.host,
        method: req.method,
        path: req.url,
        service: 's3',
        region: 'us-east-1',
        headers,
        doNotEncodePath: true,
      },
      credentials,
    );
    if (
      !auth.startsWith('AWS4-HMAC-SHA256') ||
      (check.headers as Record<string, string>).Authorization !== auth
    ) {
      res.writeHead(403).end('SignatureDoesNotMatch');
      return;
    }
    seen.push(`${req.method} ${req.url}${req.headers.range ? ` ${req.headers.range}` : ''}`);
    const key = req.url!;
    const modified = 'Wed, 21 Oct 2026 07:28:00 GMT';
    if (req.method === 'PUT') {
      objects.set(key, { body, type: String(req.headers['content-type']) });
      res.writeHead(200).end();
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      const object = objects.get(key);
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      if (!object) res.writeHead(404).end(req.method === 'GET' ? 'NoSuchKey' : undefined);
      else if (range && !key.includes('ignores-ranges')) {
        const [start, end] = [Number(range[1]), Number(range[2])];
        res
          .writeHead(206, {
            'content-type': object.type,
            'content-length': end - start + 1,
            'content-range': `bytes ${start}-${end}/${object.body.length}`,
            'last-modified': modified,
          })
          .end(object.body.subarray(start, end + 1));
      } else
        res
          .writeHead(200, {
            'content-type': object.type,
            'content-length': object.body.length,
            'last-modified': modified,
          })
          .end(req.method === 'GET' ? object.body : undefined);
    } else if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const storage = new S3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'media',
      region: 'us-east-1',
      ...credentials,
      prefix: 'env/',
      clock: new FakeClock(),
    });
    await storage.put('rec/one.webm', Buffer.from('video'), 'video/webm');
    await storage.put('rec/two.txt', Readable.from([Buffer.from('str'), Buffer.from('eam')]), 'text/plain', {
      contentLength: 6,
    });
    const got = await storage.get('rec/one.webm');
    assert.equal(got?.contentType, 'video/webm');
    assert.equal((await toBuffer(got!.body)).toString(), 'video');
    assert.equal((await toBuffer((await storage.get('rec/two.txt'))!.body)).toString(), 'stream');
    // Ranges go to S3 as a Range header; the whole size comes back from Content-Range.
    const ranged = await storage.get('rec/two.txt', { range: { start: 2, end: 4 } });
    assert.equal((await toBuffer(ranged!.body)).toString(), 'rea');
    assert.equal(ranged?.size, 6);
    assert.ok(seen.includes('GET /media/env/rec/two.txt bytes=2-4'));
    // A service that ignores Range answers 200 with everything: only the range reaches the reader.
    const big = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await storage.put('rec/ignores-ranges.bin', big, 'application/octet-stream');
    const sliced = await storage.get('rec/ignores-ranges.bin', { range: { start: 65_000, end: 65_009 } });
    assert.deepEqual(await toBuffer(sliced!.body), big.subarray(65_000, 65_010));
    assert.equal(sliced?.size, big.length);
    const head = await storage.head('rec/two.txt');
    assert.deepEqual(head, {
      contentType: 'text/plain',
      size: 6,
      lastModified: new Date('2026-10-21T07:28:00Z'),
    });
    assert.equal(await storage.head('rec/none.txt'), null);
    await storage.delete('rec/one.webm');
    assert.equal(await storage.get('rec/one.webm'), null);
    assert.deepEqual(seen.slice(0, 2), ['PUT /media/env/rec/one.webm', 'PUT /media/env/rec/two.txt']);
    const signed = new URL(await storage.signedUrl('rec/two.txt', 300));
    assert.equal(signed.searchParams.get('X-Amz-Expires'), '300');
    assert.equal(signed.searchParams.get('X-Amz-Algorithm'), 'AWS4-HMAC-SHA256');
    assert.ok(signed.searchParams.get('X-Amz-Signature'));
  } finally {
    server.close();
  }
});
