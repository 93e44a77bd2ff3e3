import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { RedisCircuit } from '../../src/core/redis-circuit.ts';
import { type EventBus, PostgresEventBus, RedisEventBus } from '../../src/mailbox/events/bus.ts';
import type { MailboxEvent } from '../../src/mailbox/events/types.ts';
import { startMailbox, type TestMailbox } from './app.ts';

describe('WebSocket events and the events catch-up route', () => {
  let t: TestMailbox;
  let key: string;
  let a: { inbox_id: string };
  let b: { inbox_id: string };

  before(async () => {
    t = await startMailbox();
    await t.listen();
    const workspace = await t.platform.signup();
    key = (await t.platform.createApiKey(workspace)).secret;
    a = await t.createInbox(key);
    b = await t.createInbox(key);
  });
  after(() => t.close());

  test('subscribe, subscribed, events filtered by inbox and type, ping/pong', async () => {
    const ws = await t.openSocket('/v0/ws', key);
    ws.socket.send(JSON.stringify({ type: 'ping' }));
    assert.deepEqual(await ws.next((f) => f.type === 'pong'), { type: 'pong' });
    ws.socket.send(
      JSON.stringify({ type: 'subscribe', inbox_ids: [a.inbox_id], event_types: ['message.received'] }),
    );
    const subscribed = await ws.next((f) => f.type === 'subscribed');
    assert.deepEqual(subscribed.inbox_ids, [a.inbox_id]);
    assert.deepEqual(subscribed.event_types, ['message.received']);

    await t.sendSmtp({ from: 'x@example.com', to: b.inbox_id, subject: 'to b', text: 'x' });
    await t.sendSmtp({ from: 'x@example.com', to: a.inbox_id, subject: 'to a', text: 'x' });
    const event = await ws.next((f) => f.type === 'event');
    assert.equal(event.event_type, 'message.received');
    assert.equal(event.inbox_id, a.inbox_id);
    assert.equal(event.message.subject, 'to a');
    assert.ok(
      ws.frames.filter((f) => f.type === 'event').every((f) => f.inbox_id === a.inbox_id),
      'nothing from b',
    );

    ws.socket.send('not json');
    assert.equal((await ws.next((f) => f.type === 'error')).code, 'invalid_json');
    ws.socket.send(JSON.stringify({ type: 'subscribe', event_types: ['nope'] }));
    assert.equal((await ws.next((f) => f.type === 'error')).code, 'invalid_request');
    ws.socket.send(JSON.stringify({ type: 'subscribe', inbox_ids: [`absent@${t.mailDomain}`] }));
    assert.equal((await ws.next((f) => f.type === 'error')).code, 'not_found');
    ws.socket.close();
  });

  test('the per-inbox socket is subscribed on connect and refuses other inboxes', async () => {
    const ws = await t.openSocket(`/v0/inboxes/${b.inbox_id}/ws`, key);
    const subscribed = await ws.next((f) => f.type === 'subscribed');
    assert.deepEqual(subscribed.inbox_ids, [b.inbox_id]);
    ws.socket.send(JSON.stringify({ type: 'subscribe', inbox_ids: [a.inbox_id] }));
    assert.equal((await ws.next((f) => f.type === 'error')).code, 'not_found');
    await t.sendSmtp({ from: 'x@example.com', to: b.inbox_id, subject: 'live', text: 'x' });
    assert.equal((await ws.next((f) => f.type === 'event')).message.subject, 'live');
    ws.socket.close();
    await assert.rejects(t.openSocket(`/v0/inboxes/${b.inbox_id}/ws`, 'aik_wrong'), /401/);
  });

  test('sockets are live only; missed events are read from /events with a cursor', async () => {
    const first = await t.request('GET', `/v0/inboxes/${a.inbox_id}/events`, key);
    assert.equal(first.status, 200);
    const seen = first.body.events.length;
    assert.ok(seen >= 1);
    let cursor = first.body.next_page_token;
    assert.ok(cursor);
    // Disconnected: two messages arrive (another socket sees them live, so they have been fanned out).
    const witness = await t.openSocket(`/v0/inboxes/${a.inbox_id}/ws`, key);
    await witness.next((f) => f.type === 'subscribed');
    await t.sendSmtp({ from: 'x@example.com', to: a.inbox_id, subject: 'missed 1', text: 'x' });
    await t.sendSmtp({ from: 'x@example.com', to: a.inbox_id, subject: 'missed 2', text: 'x' });
    await witness.next((f) => f.type === 'event' && f.message.subject === 'missed 2');
    witness.socket.close();
    // A socket opened now gets nothing of what it missed: frames are handled in order, so a
    // replay would come before the pong.
    const late = await t.openSocket(`/v0/inboxes/${a.inbox_id}/ws`, key);
    await late.next((f) => f.type === 'subscribed');
    late.socket.send(JSON.stringify({ type: 'ping' }));
    await late.next((f) => f.type === 'pong');
    assert.deepEqual(
      late.frames.map((f) => f.type),
      ['subscribed', 'pong'],
      'no replay',
    );
    late.socket.close();
    const page1 = await t.request(
      'GET',
      `/v0/inboxes/${a.inbox_id}/events?limit=1&page_token=${encodeURIComponent(cursor)}`,
      key,
    );
    assert.equal(page1.body.events[0].message.subject, 'missed 1');
    assert.equal(page1.body.has_more, true);
    cursor = page1.body.next_page_token;
    const page2 = await t.request(
      'GET',
      `/v0/inboxes/${a.inbox_id}/events?page_token=${encodeURIComponent(cursor)}`,
      key,
    );
    assert.deepEqual(
      page2.body.events.map((e: { message: { subject: string } }) => e.message.subject),
      ['missed 2'],
    );
    assert.equal(page2.body.has_more, false);
    const empty = await t.request(
      'GET',
      `/v0/inboxes/${a.inbox_id}/events?page_token=${encodeURIComponent(page2.body.next_page_token)}`,
      key,
    );
    assert.equal(empty.body.count, 0);
    assert.equal(
      empty.body.next_page_token,
      page2.body.next_page_token,
      'the same token polls for newer events',
    );
    const forged = await t.request('GET', `/v0/inboxes/${a.inbox_id}/events?page_token=abc.def`, key);
    assert.equal(forged.status, 400);
    const elsewhere = await t.request(
      'GET',
      `/v0/inboxes/${b.inbox_id}/events?page_token=${encodeURIComponent(cursor)}`,
      key,
    );
    assert.equal(elsewhere.status, 400, 'a token of another inbox is refused');
  });
});

describe('cross-instance fan-out', () => {
  test('an event published by one instance reaches subscribers of another', async () => {
    const t = await startMailbox();
    const channel = `mailbox_events_x${randomBytes(5).toString('hex')}`;
    const buses: EventBus[] = [];
    const redis: RedisCircuit[] = [];
    for (let i = 0; i < 2; i++) {
      if (process.env.REDIS_URL) {
        const client = new RedisCircuit(process.env.REDIS_URL, {
          commandTimeoutMs: 1_000,
          probeIntervalMs: 1_000,
          logger: pino({ level: 'silent' }),
        });
        await client.ready(2_000);
        redis.push(client);
        buses.push(new RedisEventBus(client, t.deps.database, channel));
      } else {
        buses.push(new PostgresEventBus(t.deps.database, channel));
      }
    }
    try {
      const got: MailboxEvent[] = [];
      const unsubscribe = await buses[1]!.subscribe((event) => got.push(event));
      const event: MailboxEvent = {
        event_id: 'evt_cross',
        event_type: 'message.received',
        namespace_id: 'ns_x',
        pod_id: null,
        inbox_id: 'x@mail.test',
        created_at: new Date('2026-11-01T12:00:00.000Z'),
        payload: { type: 'event', event_type: 'message.received', big: 'y'.repeat(10_000) },
      };
      // An event too large for NOTIFY travels by reference and is read back from the table.
      await t.deps.db
        .insertInto('mailbox_events')
        .values({
          id: event.event_id,
          namespace_id: 'ns_x',
          pod_id: null,
          inbox_id: event.inbox_id,
          event_type: event.event_type,
          payload: JSON.stringify(event.payload),
          created_at: event.created_at,
        })
        .execute();
      await buses[0]!.publish([event]);
      const deadline = Date.now() + 5_000;
      while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(got.length, 1);
      assert.equal(got[0]!.event_id, 'evt_cross');
      assert.equal((got[0]!.payload as { big: string }).big.length, 10_000);
      assert.equal(got[0]!.created_at.toISOString(), '2026-11-01T12:00:00.000Z');
      await unsubscribe();
    } finally {
      for (const client of redis) client.close();
      await t.deps.db.deleteFrom('mailbox_events').where('id', '=', 'evt_cross').execute();
      await t.close();
    }
  });
});

describe('shutdown', () => {
  test('open sockets are closed with 1001 (going away), not 1005', async () => {
    const t = await startMailbox();
    await t.listen();
    const ws = await t.openSocket('/v0/ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await t.close();
    assert.deepEqual(await closed, { code: 1001, reason: 'server shutting down' });
  });
});
