// A drain and the kept-alive connections of a load balancer (docs/deployment.md, "Load balancer"):
// a request in flight when the app starts closing is answered with `Connection: close`, so the
// connection is not reused for a request the closing app could only refuse with a 503. Before,
// nginx in front of two instances sent such requests, and a room's reconnect, to the instance that
// had just been given SIGTERM, and passed its 503 on (server/test/http/load-balancer.test.ts).
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { closeHttpApp } from '../../src/app/shutdown.ts';
import { startListeningPlatform } from '../harness.ts';

/** Reads from `socket` until one whole response (headers and Content-Length body) is in. */
function nextResponse(socket: net.Socket): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (Buffer.byteLength(text.slice(end + 4)) < Number(headers['content-length'] ?? 0)) return;
      socket.off('data', onData);
      resolve({ status: Number(statusLine!.split(' ')[1]), headers });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

test('a request in flight when the app starts closing is answered with Connection: close', async () => {
  const platform = await startListeningPlatform();
  const { port } = new URL(platform.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  try {
    // While the app is open, the connection is kept alive.
    socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    const open = await nextResponse(socket);
    assert.equal(open.status, 200);
    assert.equal(open.headers.connection, 'keep-alive');

    // Half a request when the drain begins: the connection is busy, so it is not closed as idle.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
    const received = new Promise((resolve) => platform.app.server.once('request', resolve));
    socket.write(
      'POST /auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        `content-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await received;
    const draining = closeHttpApp(platform.app);
    while (platform.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    socket.write(body.slice(10));
    const answered = await nextResponse(socket);
    assert.equal(answered.status, 401, 'the request in flight is answered');
    assert.equal(answered.headers.connection, 'close', 'and the connection is not offered again');
    await closed;
    await draining;
  } finally {
    socket.destroy();
    await platform.close();
  }
});
