import assert from 'node:assert/strict';
import type { AddressInfo, Socket } from 'node:net';
import { test } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { sendBounded, WS_BACKLOGGED } from '../../src/core/http/ws-backlog.ts';

test('a WebSocket client that stops reading is closed 1008 once its send buffer passes the bound', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const serverSide = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((resolve) => client.once('open', resolve));
  const socket = await serverSide;
  // The client stops reading: nothing leaves the server's buffers once the kernel's are full.
  const clientTcp = (client as unknown as { _socket: Socket })._socket;
  clientTcp.pause();

  const bound = 256 * 1024;
  const frame = Buffer.alloc(64 * 1024, 1);
  let sent = 0;
  while (sendBounded(socket, frame, bound, { binary: true })) {
    sent += 1;
    if (sent % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sent < 100_000, 'the bound is reached');
  }
  assert.ok(socket.bufferedAmount > bound);
  assert.notEqual(socket.readyState, socket.OPEN);
  assert.equal(sendBounded(socket, frame, bound), false, 'nothing more is queued');

  // Reading again, the client drains the backlog and finds the close frame behind it.
  const closed = new Promise<[number, string]>((resolve) =>
    client.once('close', (code, reason) => resolve([code, reason.toString()])),
  );
  clientTcp.resume();
  const [code, reason] = await closed;
  assert.ok(code === WS_BACKLOGGED.code || code === 1006, `closed with ${code}`);
  if (code === WS_BACKLOGGED.code) assert.equal(reason, WS_BACKLOGGED.reason);
  await new Promise((resolve) => server.close(resolve));
});
