// Attachments by URL against a loopback server: what is fetched, and what is refused (a blocked
// address without a connection being opened).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../core/http/errors.ts';
import { OutboundClient } from '../../core/outbound/index.ts';
import { AttachmentFetcher } from './attachment-url.ts';
import { AttachmentReader } from './input.ts';

describe('attachments by URL', () => {
  let server: Server;
  let base: string;
  let connections = 0;
  const loopback = new OutboundClient({ allowCidrs: ['127.0.0.1/32'], requireHttps: false });
  const strict = new OutboundClient({ allowCidrs: [], requireHttps: false });
  const fetcher = new AttachmentFetcher(loopback, 500);

  before(async () => {
    server = createServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/files/')) {
        response.writeHead(200, { 'content-type': 'application/pdf; name="x.pdf"' });
        response.end(Buffer.from('%PDF-1.7 report'));
      } else if (url === '/redirect') {
        response.writeHead(302, { location: '/files/moved.pdf' });
        response.end();
      } else if (url === '/bad-location') {
        response.writeHead(302, { location: 'http://[' });
        response.end();
      } else if (url === '/loop') {
        response.writeHead(302, { location: '/loop' });
        response.end();
      } else if (url === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('x'.repeat(2_000));
      } else if (url === '/slow') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
        // Never ends: the fetch must give up on its own.
      } else if (url === '/untyped/') {
        response.writeHead(200, { 'content-type': 'not a type' });
        response.end('raw');
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await loopback.close();
    await strict.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof AppError, String(error));
      assert.equal(error.code, 'parameter_invalid');
      return error;
    }
    assert.fail('expected a refusal');
  };

  test('fetches the bytes, with the media type of the response and the filename of the URL', async () => {
    const fetched = await fetcher.fetch(`${base}/files/Q1%20report.pdf`, 10_000, 'attachments[0].url');
    assert.equal(fetched.content.toString(), '%PDF-1.7 report');
    assert.equal(fetched.content_type, 'application/pdf');
    assert.equal(fetched.filename, 'Q1 report.pdf');
    const untyped = await fetcher.fetch(`${base}/untyped/`, 10_000, 'p');
    assert.equal(untyped.content_type, null);
    assert.equal(untyped.filename, null);
  });

  test('follows a redirect (vetted again), but not endlessly', async () => {
    const fetched = await fetcher.fetch(`${base}/redirect`, 10_000, 'p');
    assert.equal(fetched.filename, 'moved.pdf');
    const error = await refusal(fetcher.fetch(`${base}/loop`, 10_000, 'attachments[1].url'));
    assert.equal(error.param, 'attachments[1].url');
    assert.match(error.message, /redirects/);
    const bad = await refusal(fetcher.fetch(`${base}/bad-location`, 10_000, 'attachments[2].url'));
    assert.equal(bad.param, 'attachments[2].url');
    assert.match(bad.message, /invalid redirect Location/);
  });

  test('an error status, a body over the limit and a stalled server are refused with the reason', async () => {
    assert.match((await refusal(fetcher.fetch(`${base}/missing`, 10_000, 'p'))).message, /HTTP 404/);
    assert.match(
      (await refusal(fetcher.fetch(`${base}/big`, 1_999, 'p'))).message,
      /larger than the 1999 bytes/,
    );
    assert.equal(
      (await fetcher.fetch(`${base}/big`, 2_000, 'p')).content.length,
      2_000,
      'exactly the limit fits',
    );
    assert.match(
      (await refusal(fetcher.fetch(`${base}/slow`, 10_000, 'p'))).message,
      /timed out.*\(timeout\)/,
    );
  });

  test('a blocked address is refused without a connection being opened', async () => {
    const before = connections;
    const error = await refusal(
      new AttachmentFetcher(strict).fetch(`${base}/files/secret.pdf`, 10_000, 'attachments[0].url'),
    );
    assert.equal(error.param, 'attachments[0].url');
    assert.match(error.message, /blocked range.*\(blocked_address\)/);
    assert.equal(connections, before, 'no connection reached the server');
    const metadata = await refusal(
      new AttachmentFetcher(strict).fetch('http://169.254.169.254/latest', 10, 'p'),
    );
    assert.match(metadata.message, /169\.254\.169\.254/);
    const https = new OutboundClient({ allowCidrs: ['127.0.0.1/32'], requireHttps: true });
    assert.match(
      (await refusal(new AttachmentFetcher(https).fetch(`${base}/files/a.pdf`, 10, 'p'))).message,
      /https/,
    );
    assert.equal(connections, before);
  });

  test('the reader takes content or url, exactly one, within the message limit', async () => {
    const reader = new AttachmentReader({ fetcher, maxMessageBytes: 2_100 });
    const [fromUrl, inline] = await reader.read([
      { url: `${base}/files/a.pdf`, filename: 'given.pdf' },
      { content: Buffer.from('hi').toString('base64'), content_id: 'logo', inline: true },
    ]);
    assert.equal(fromUrl!.filename, 'given.pdf', 'a given filename wins');
    assert.equal(fromUrl!.content_type, 'application/pdf');
    assert.equal(inline!.content.toString(), 'hi');
    assert.equal(inline!.content_type, 'application/octet-stream');
    assert.equal(
      (await refusal(reader.read([{ content: 'aGk=', url: `${base}/big` }]))).param,
      'attachments[0]',
    );
    assert.equal((await refusal(reader.read([{}]))).param, 'attachments[0]');
    assert.equal((await refusal(reader.read([{ content: '***' }]))).param, 'attachments[0].content');
    const over = await refusal(
      reader.read([{ content: Buffer.from('x'.repeat(200)).toString('base64') }, { url: `${base}/big` }]),
    );
    assert.equal(over.param, 'attachments[1].url', 'the URL may only use what the earlier attachments left');
  });
});
