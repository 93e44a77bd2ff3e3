import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WS_BACKLOGGED } from '../../src/core/http/ws-backlog.ts';
import { LocalEventBus } from '../../src/mailbox/events/bus.ts';
import { rawRequest } from '../http/raw-http.ts';
import { startMailbox, type TestMailbox } from './app.ts';

const MESSAGE_LIMIT = 64 * 1024;

describe('bounds of the mailbox: body limits per route and the SMTP socket timeout', () => {
  let t: TestMailbox;
  let port: number;
  let inbox: { inbox_id: string };
  before(async () => {
    t = await startMailbox({
      env: { MAIL_MAX_MESSAGE_BYTES: String(MESSAGE_LIMIT), SMTP_SOCKET_TIMEOUT_MS: '300' },
    });
    await t.listen();
    port = Number(new URL(t.baseUrl).port);
    inbox = await t.createInbox(t.adminKey);
  });
  after(() => t.close());

  test('a chunked send body over the message-sized limit is refused 413 while it streams', async () => {
    const chunk = `"${'a'.repeat(32 * 1024)}",`;
    const chunks = [
      `POST /v0/inboxes/${encodeURIComponent(inbox.inbox_id)}/messages/send HTTP/1.1\r\nHost: localhost\r\n` +
        `Authorization: Bearer ${t.adminKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      // A valid JSON prefix that goes on for 2 MiB: refused long before its end, never parsed.
      ...Array.from({ length: 64 }, () => `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`),
    ];
    const response = await rawRequest(port, chunks, { patienceMs: 5000 });
    assert.equal(response.status, 413, JSON.stringify(response));
    assert.equal(response.body.error.code, 'payload_too_large');
    assert.equal(response.body.request_id, response.headers['x-request-id']);
  });

  test('a route that does not compose a message parses at most 1 MiB', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/inboxes',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ display_name: 'x'.repeat(1024 * 1024 + 10) }),
    });
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().error.code, 'payload_too_large');
  });

  test('a message-sized body still reaches the send route', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v0/inboxes/${encodeURIComponent(inbox.inbox_id)}/messages/send`,
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        to: [inbox.inbox_id],
        subject: 'big',
        text: 'x'.repeat(MESSAGE_LIMIT + 1000),
      }),
    });
    // Parsed, then refused by the service for its MIME size: not by the body parser.
    assert.notEqual(response.json().error?.param, 'body', response.body);
  });

  test('an SMTP client that stays silent is told 421 and disconnected', async () => {
    const transcript = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(t.smtpPort, '127.0.0.1');
      let text = '';
      socket.on('data', (data) => {
        text += data;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        resolve(`${text}[still open]`);
      }, 10_000).unref();
    });
    assert.match(transcript, /^220 /);
    assert.match(transcript, /\r\n421 /);
    assert.doesNotMatch(transcript, /still open/);
  });
});

describe('bounds of the mailbox: the event socket of a client that does not read', () => {
  let t: TestMailbox;
  const bus = new LocalEventBus();
  before(async () => {
    t = await startMailbox({ env: { WS_MAX_BUFFERED_BYTES: '65536' }, overrides: { bus } });
    await t.listen();
  });
  after(() => t.close());

  test('is closed 1008 once its unsent events pass WS_MAX_BUFFERED_BYTES', async () => {
    const inbox = await t.createInbox(t.adminKey);
    const ws = await t.openSocket(`/v0/inboxes/${encodeURIComponent(inbox.inbox_id)}/ws`);
    await ws.next((frame) => frame.type === 'subscribed');
    const closed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)));
    // The client stops reading; events keep coming (32 MiB in all, more than the kernel buffers hold).
    const tcp = (ws.socket as unknown as { _socket: Socket })._socket;
    tcp.pause();
    const filler = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 2048; i += 1) {
      await bus.publish([
        {
          event_id: `evt_${i}`,
          event_type: 'message.received',
          created_at: new Date(),
          namespace_id: 'ns',
          pod_id: null,
          inbox_id: inbox.inbox_id,
          payload: { type: 'event', event_type: 'message.received', filler },
        },
      ]);
      if (i % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    tcp.resume();
    const code = await closed;
    assert.ok(code === WS_BACKLOGGED.code || code === 1006, `closed with ${code}`);
    // Far fewer than were published reached the client: the rest were never queued.
    assert.ok(ws.frames.filter((frame) => frame.type === 'event').length < 2048);
  });
});
