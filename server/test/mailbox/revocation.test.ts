// Revoking a key stops what it alone authorised (docs/mailbox.md, "Scoped keys"): its open
// WebSockets close at once with 4401 "api key revoked", on this instance and on every other one
// (through the event bus, or the platform's NOTIFY api_secret_changed for platform keys), and the
// webhooks a scoped key created are disabled with the reason shown in GET.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { buildMailboxApp } from '../../src/app/mailbox-app.ts';
import type { AppInstance } from '../../src/core/http/types.ts';
import { RedisCircuit } from '../../src/core/redis-circuit.ts';
import { freePort } from '../../src/core/testing/free-port.ts';
import { RedisEventBus } from '../../src/mailbox/events/bus.ts';
import { createMailboxDeps } from '../../src/mailbox/wiring.ts';
import { startMailbox, type TestMailbox } from './app.ts';

type Closed = { code: number; reason: string };
const closedOf = (socket: WebSocket) =>
  new Promise<Closed>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
const REVOKED: Closed = { code: 4401, reason: 'api key revoked' };

describe('revocation closes sockets everywhere and disables what the key alone authorised', () => {
  let t: TestMailbox;
  /** A second instance: its own app, hub and bus subscription, the same database and channel. */
  let other: AppInstance;
  let otherUrl: string;
  let inbox: { inbox_id: string };

  before(async () => {
    const channel = `mailbox_events_r${randomBytes(6).toString('hex')}`;
    t = await startMailbox({ overrides: { eventChannel: channel } });
    await t.listen();
    other = await buildMailboxApp(await createMailboxDeps(t.platform.deps, { eventChannel: channel }));
    await other.listen({ port: 0, host: '127.0.0.1' });
    otherUrl = `ws://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
    inbox = await t.createInbox(t.adminKey);
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  const openOnOther = async (path: string, token: string) => {
    const socket = new WebSocket(`${otherUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return socket;
  };

  test('a revoked scoped key’s sockets close with 4401 on this instance and the other; others stay', async () => {
    const doomed = await t.createScopedKey({ name: 'doomed', inbox_ids: [inbox.inbox_id] });
    const survivor = await t.createScopedKey({ name: 'survivor', inbox_ids: [inbox.inbox_id] });
    const here = await t.openSocket('/v0/ws', doomed.api_key);
    const perInbox = await t.openSocket(`/v0/inboxes/${inbox.inbox_id}/ws`, doomed.api_key);
    await perInbox.next((f) => f.type === 'subscribed');
    const there = await openOnOther('/v0/ws', doomed.api_key);
    const kept = await t.openSocket('/v0/ws', survivor.api_key);
    const closed = [closedOf(here.socket), closedOf(perInbox.socket), closedOf(there)];

    const revoke = await t.request('DELETE', `/v0/api-keys/${doomed.key_id}`, t.adminKey);
    assert.equal(revoke.status, 204);
    assert.deepEqual(await Promise.all(closed), [REVOKED, REVOKED, REVOKED]);

    kept.socket.send(JSON.stringify({ type: 'ping' }));
    assert.equal((await kept.next((f) => f.type === 'pong')).type, 'pong', 'another key is untouched');
    kept.socket.close();
    await assert.rejects(t.openSocket('/v0/ws', doomed.api_key), /401/);
  });

  test('a revoked platform key’s sockets close with 4401 too', async () => {
    const workspace = await t.platform.signup();
    const key = await t.platform.createApiKey(workspace);
    const ws = await t.openSocket('/v0/ws', key.secret);
    const there = await openOnOther('/v0/ws', key.secret);
    const closed = [closedOf(ws.socket), closedOf(there)];
    const revoke = await t.platform.app.inject({
      method: 'DELETE',
      url: `/v1/api-secrets/${key.id}`,
      headers: { authorization: `Bearer ${workspace.token}` },
    });
    assert.ok(revoke.statusCode < 300, revoke.body);
    assert.deepEqual(await Promise.all(closed), [REVOKED, REVOKED]);
  });

  test('webhooks a revoked scoped key created are disabled with the reason; others keep going', async () => {
    const doomed = await t.createScopedKey({ name: 'hooks', inbox_ids: [inbox.inbox_id] });
    const body = { url: 'http://127.0.0.1:9/hook', event_types: ['message.received'] };
    const its = await t.request('POST', '/v0/webhooks', doomed.api_key, body);
    assert.equal(its.status, 201);
    assert.equal(its.body.disabled_reason, null);
    const admins = await t.request('POST', '/v0/webhooks', t.adminKey, {
      ...body,
      inbox_ids: [inbox.inbox_id],
    });

    await t.request('DELETE', `/v0/api-keys/${doomed.key_id}`, t.adminKey);
    const disabled = await t.request('GET', `/v0/webhooks/${its.body.webhook_id}`, t.adminKey);
    assert.equal(disabled.body.enabled, false);
    assert.equal(disabled.body.disabled_reason, 'api key revoked');
    const untouched = await t.request('GET', `/v0/webhooks/${admins.body.webhook_id}`, t.adminKey);
    assert.equal(untouched.body.enabled, true);

    await t.sendSmtp({ from: 'a@example.com', to: inbox.inbox_id, subject: 'after', text: 'x' });
    const held = await t.request('GET', `/v0/webhooks/${its.body.webhook_id}/deliveries`, t.adminKey);
    assert.deepEqual(
      held.body.deliveries.map((d: { status: string }) => d.status),
      ['paused'],
      'held, not sent',
    );

    // Whoever enables it again takes it over; the reason goes.
    const enabled = await t.request('PATCH', `/v0/webhooks/${its.body.webhook_id}`, t.adminKey, {
      enabled: true,
    });
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabled_reason, null);
  });
});

describe('with Redis down', () => {
  test('a revoked scoped key’s sockets on another instance still close with 4401 (revocations go through PostgreSQL)', async () => {
    const t = await startMailbox();
    // Nothing listens on this loopback port: the circuit is open from the start, as in an outage.
    const down = new RedisCircuit(`redis://127.0.0.1:${await freePort()}`, {
      commandTimeoutMs: 200,
      probeIntervalMs: 1_000,
      logger: pino({ level: 'silent' }),
    });
    await down.ready(300);
    assert.equal(down.up, false);
    const channel = `mailbox_events_d${randomBytes(6).toString('hex')}`;
    const instance = async () => {
      const bus = new RedisEventBus(down, t.platform.deps.database, channel);
      const app = await buildMailboxApp(
        await createMailboxDeps(t.platform.deps, { eventChannel: channel, bus }),
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    };
    const [a, b] = [await instance(), await instance()];
    try {
      const inbox = await t.createInbox(t.adminKey);
      const doomed = await t.createScopedKey({ name: 'doomed', inbox_ids: [inbox.inbox_id] });
      const socket = new WebSocket(`${b.url.replace('http', 'ws')}/v0/ws`, {
        headers: { authorization: `Bearer ${doomed.api_key}` },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const closed = closedOf(socket);
      const revoke = await fetch(`${a.url}/v0/api-keys/${doomed.key_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${t.adminKey}` },
      });
      assert.equal(revoke.status, 204);
      const timeout = new Promise<string>((resolve) =>
        setTimeout(() => resolve('still open after 10 s'), 10_000).unref(),
      );
      assert.deepEqual(await Promise.race([closed, timeout]), REVOKED);
    } finally {
      await a.app.close();
      await b.app.close();
      down.close();
      await t.close();
    }
  });
});
