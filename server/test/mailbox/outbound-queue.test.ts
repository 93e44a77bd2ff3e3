import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { SEND_RETRY } from '../../src/mailbox/messages/send-job.ts';
import { type MailRelay, NoRelay, SmtpRelay } from '../../src/mailbox/messages/transport.ts';
import { type RelayRefusal, startTestRelay } from '../../src/mailbox/testing/relay.ts';
import { startMailbox, type TestMailbox } from './app.ts';

/** A loopback port nothing listens on: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs the due send jobs of these inboxes, as the worker would. Not runOnce(): test files share one
 * PostgreSQL, and this file's clock runs hours ahead, so runOnce() would also claim (and send
 * through this file's relay) other files' jobs.
 */
async function runDueSends(t: TestMailbox, inboxIds: string[]) {
  const due = await sql<{ id: string }>`
    select j.id from jobs j join mailbox_messages m on j.dedupe_key = 'mailbox.send:' || m.id
    where m.inbox_id in (${sql.join(inboxIds)})
      and j.state = 'pending' and j.run_at <= ${t.clock.now()}
    order by j.run_at, j.id`.execute(t.deps.db);
  const ran = [];
  for (const { id } of due.rows) {
    const outcome = await t.deps.jobs.runNow(id);
    if (outcome) ran.push({ id, outcome });
  }
  return ran;
}

describe('outbound queue: retries, per-recipient status, scheduled send', () => {
  let t: TestMailbox;
  let relayed: Awaited<ReturnType<typeof startTestRelay>>;
  /** Per recipient: how the relay answers RCPT TO (null accepts). */
  let answer: (address: string) => RelayRefusal | null = () => null;
  let current: MailRelay;
  let down: MailRelay;
  let inbox: { inbox_id: string };
  let peer: { inbox_id: string };
  const relay: MailRelay = {
    configured: true,
    send: (raw, envelope, dkim) => current.send(raw, envelope, dkim),
    close() {},
  };

  before(async () => {
    relayed = await startTestRelay((address) => answer(address));
    down = new SmtpRelay(`smtp://127.0.0.1:${await closedPort()}`, { timeoutMs: 2_000 });
    current = new SmtpRelay(relayed.url);
    t = await startMailbox({ overrides: { relay } });
    inbox = await t.createInbox(t.adminKey);
    peer = await t.createInbox(t.adminKey);
  });
  after(async () => {
    await t.close();
    await relayed.close();
  });

  const runDue = () => runDueSends(t, [inbox.inbox_id, peer.inbox_id]);

  const send = (body: Record<string, unknown>) =>
    t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
      subject: 'Queued',
      text: 'x',
      ...body,
    });
  const get = (messageId: string) =>
    t.request('GET', `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(messageId)}`, t.adminKey);
  const lastEvent = async (type: string) =>
    (
      await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/events?event_types=${type}`, t.adminKey)
    ).body.events.at(-1);
  const copiesAtRelay = (messageId: string) =>
    relayed.received.filter((m) => m.raw.includes(`Message-ID: ${messageId}`));
  const statusOf = (message: { recipients: Array<{ address: string; status: string }> }) =>
    Object.fromEntries(message.recipients.map((r) => [r.address, r.status]));

  test('relay down: the inbox recipient gets it at once, the outside one is retried with the same bytes', async () => {
    current = down;
    const response = await send({ to: [peer.inbox_id, 'far@example.com'] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.status, 'sending', 'the relay is down: the answer says so');
    assert.deepEqual(statusOf(response.body), {
      [peer.inbox_id]: 'delivered',
      'far@example.com': 'deferred',
    });
    const far = response.body.recipients.find((r: { address: string }) => r.address === 'far@example.com');
    assert.equal(far.attempts, 1);
    assert.ok(far.last_response, 'the connection error is recorded');
    const inPeer = await t.request('GET', `/v0/inboxes/${peer.inbox_id}/messages`, t.adminKey);
    assert.equal(inPeer.body.messages[0].message_id, response.body.message_id);

    // Not due before the backoff; then the relay is back and the retry goes through.
    assert.deepEqual(await runDue(), []);
    current = new SmtpRelay(relayed.url);
    t.clock.advance(SEND_RETRY.backoffMs);
    const ran = await runDue();
    assert.deepEqual(
      ran.map((r) => r.outcome),
      ['succeeded'],
    );
    const final = (await get(response.body.message_id)).body;
    assert.equal(final.status, 'sent');
    assert.ok(final.labels.includes('sent'));
    assert.deepEqual(statusOf(final), { [peer.inbox_id]: 'delivered', 'far@example.com': 'sent' });
    const copies = copiesAtRelay(response.body.message_id);
    assert.equal(copies.length, 1);
    assert.deepEqual(copies[0]!.to, ['far@example.com'], 'the inbox recipient never reaches the relay');
    const raw = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(response.body.message_id)}/raw`,
      t.adminKey,
    );
    assert.equal(
      copies[0]!.raw.trimEnd(),
      String(raw.body).trimEnd(),
      'the stored bytes are the relayed ones',
    );
    const event = await lastEvent('message.sent');
    assert.equal(event.message.message_id, response.body.message_id);
    assert.deepEqual(event.recipients, {
      internal: [peer.inbox_id],
      external: ['far@example.com'],
      rejected: [],
    });
    assert.equal(event.message.recipients.length, 2);
    const again = await t.request('GET', `/v0/inboxes/${peer.inbox_id}/messages`, t.adminKey);
    assert.equal(
      again.body.messages.filter((m: { message_id: string }) => m.message_id === response.body.message_id)
        .length,
      1,
      'delivered to the inbox once',
    );
  });

  test('per recipient: 4xx is retried, 5xx is given up, accepted ones are not sent again', async () => {
    let deferring = true;
    answer = (address) =>
      address.startsWith('bad@')
        ? { code: 550, message: '5.1.1 no such user' }
        : address.startsWith('later@') && deferring
          ? { code: 451, message: '4.7.1 greylisted, try again' }
          : null;
    try {
      const response = await send({ to: ['ok@example.com', 'later@example.com'], cc: 'bad@example.com' });
      assert.equal(response.body.status, 'sending');
      assert.deepEqual(statusOf(response.body), {
        'ok@example.com': 'sent',
        'later@example.com': 'deferred',
        'bad@example.com': 'rejected',
      });
      const bad = response.body.recipients.find((r: { address: string }) => r.address === 'bad@example.com');
      assert.equal(bad.type, 'cc');
      assert.match(bad.last_response, /550/);

      deferring = false;
      t.clock.advance(SEND_RETRY.backoffMs);
      await runDue();
      const final = (await get(response.body.message_id)).body;
      assert.equal(final.status, 'sent');
      assert.deepEqual(statusOf(final), {
        'ok@example.com': 'sent',
        'later@example.com': 'sent',
        'bad@example.com': 'rejected',
      });
      const copies = copiesAtRelay(response.body.message_id);
      assert.deepEqual(
        copies.map((c) => c.to),
        [['ok@example.com'], ['later@example.com']],
        'the retry goes only to the deferred recipient',
      );
      assert.equal(copies[0]!.raw, copies[1]!.raw, 'same bytes, same Message-ID');
      const event = await lastEvent('message.sent');
      assert.deepEqual(event.recipients.rejected, ['bad@example.com']);
    } finally {
      answer = () => null;
    }
  });

  test('a recipient deferred on every attempt is given up after the last one: message.rejected', async () => {
    current = down;
    try {
      const response = await send({ to: 'never@example.com' });
      assert.equal(response.body.status, 'sending');
      for (let attempt = 2; attempt <= SEND_RETRY.maxAttempts; attempt++) {
        t.clock.advance(SEND_RETRY.maxBackoffMs);
        assert.equal((await runDue()).length, 1, `attempt ${attempt} ran`);
      }
      const final = (await get(response.body.message_id)).body;
      assert.equal(final.status, 'rejected');
      assert.ok(final.labels.includes('rejected'));
      assert.equal(final.recipients[0].attempts, SEND_RETRY.maxAttempts);
      assert.match(final.rejection_reason, /gave up after 12 attempts/);
      const event = await lastEvent('message.rejected');
      assert.equal(event.message.message_id, response.body.message_id);
      assert.match(event.reason, /gave up/);
    } finally {
      current = new SmtpRelay(relayed.url);
    }
  });

  test('without a relay, the inbox recipient still gets it and the outside one is rejected', async () => {
    current = new NoRelay();
    try {
      const response = await send({ to: [peer.inbox_id, 'out@example.com'], subject: 'No relay' });
      assert.equal(response.body.status, 'sent');
      assert.deepEqual(statusOf(response.body), {
        [peer.inbox_id]: 'delivered',
        'out@example.com': 'rejected',
      });
      const inPeer = await t.request('GET', `/v0/inboxes/${peer.inbox_id}/messages`, t.adminKey);
      assert.equal(inPeer.body.messages[0].subject, 'No relay');
      const event = await lastEvent('message.sent');
      assert.deepEqual(event.recipients.rejected, ['out@example.com']);
    } finally {
      current = new SmtpRelay(relayed.url);
    }
  });

  test('scheduled send: waits for send_at, is listed, can be cancelled until it goes', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const first = await send({ to: 'later1@example.com', send_at: at });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.status, 'scheduled');
    assert.equal(first.body.send_at, at);
    assert.ok(first.body.labels.includes('scheduled'));
    assert.deepEqual(statusOf(first.body), { 'later1@example.com': 'pending' });
    const second = await send({ to: 'later2@example.com', send_at: at });

    const listed = await t.request(
      'GET',
      `/v0/inboxes/${inbox.inbox_id}/messages?labels=scheduled`,
      t.adminKey,
    );
    assert.deepEqual(
      listed.body.messages.map((m: { message_id: string }) => m.message_id).sort(),
      [first.body.message_id, second.body.message_id].sort(),
    );
    assert.deepEqual(await runDue(), [], 'not before send_at');

    const cancel = (messageId: string) =>
      t.request(
        'POST',
        `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(messageId)}/cancel`,
        t.adminKey,
      );
    const cancelled = await cancel(first.body.message_id);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    assert.ok(cancelled.body.labels.includes('cancelled'));
    assert.ok(!cancelled.body.labels.includes('scheduled'));
    assert.equal((await cancel(first.body.message_id)).status, 409);

    t.clock.advance(3_600_000);
    await runDue();
    assert.equal((await get(first.body.message_id)).body.status, 'cancelled');
    assert.equal(copiesAtRelay(first.body.message_id).length, 0, 'a cancelled message never goes');
    const sent = (await get(second.body.message_id)).body;
    assert.equal(sent.status, 'sent');
    assert.ok(!sent.labels.includes('scheduled'));
    assert.equal(copiesAtRelay(second.body.message_id).length, 1);
    const late = await cancel(second.body.message_id);
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'resource_conflict');
    assert.equal((await cancel('<nope@example.com>')).status, 404);
  });

  test('a scheduled message in the trash at send_at is cancelled, never sent (message and thread DELETE)', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const trashed = await send({ to: 'trashed@example.com', send_at: at });
    const viaThread = await send({ to: 'thread-trashed@example.com', send_at: at });
    const restored = await send({ to: 'restored@example.com', send_at: at });
    const base = `/v0/inboxes/${inbox.inbox_id}`;
    const path = (m: { message_id: string }) => `${base}/messages/${encodeURIComponent(m.message_id)}`;
    assert.equal((await t.request('DELETE', path(trashed.body), t.adminKey)).status, 200);
    assert.equal(
      (await t.request('DELETE', `${base}/threads/${viaThread.body.thread_id}`, t.adminKey)).status,
      200,
    );
    assert.equal((await t.request('DELETE', path(restored.body), t.adminKey)).status, 200);
    assert.equal((await t.request('POST', `${path(restored.body)}/restore`, t.adminKey)).status, 200);

    t.clock.advance(3_600_000);
    await runDue();
    for (const m of [trashed.body, viaThread.body]) {
      const after = (await get(m.message_id)).body;
      assert.equal(after.status, 'cancelled', JSON.stringify(after));
      assert.ok(after.labels.includes('cancelled'));
      assert.ok(!after.labels.includes('scheduled'));
      assert.equal(copiesAtRelay(m.message_id).length, 0, 'a trashed scheduled message never goes');
    }
    assert.equal((await get(restored.body.message_id)).body.status, 'sent', 'restored in time: it goes');
    assert.equal(copiesAtRelay(restored.body.message_id).length, 1);
  });

  test('a send list entry added before send_at rejects the scheduled message: message.rejected', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const later = await send({ to: 'ok@example.com', cc: 'banned@blocked-later.example', send_at: at });
    assert.equal(later.body.status, 'scheduled', JSON.stringify(later.body));
    const entry = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/block-list`, t.adminKey, {
      value: 'blocked-later.example',
      direction: 'send',
    });
    assert.equal(entry.status, 201, JSON.stringify(entry.body));
    try {
      t.clock.advance(3_600_000);
      await runDue();
      const after = (await get(later.body.message_id)).body;
      assert.equal(after.status, 'rejected', JSON.stringify(after));
      assert.ok(after.labels.includes('rejected'));
      assert.ok(!after.labels.includes('scheduled'));
      assert.match(
        after.rejection_reason,
        /banned@blocked-later\.example is blocked by the inbox's send block list/,
      );
      assert.equal(copiesAtRelay(later.body.message_id).length, 0, 'nobody gets it');
      const event = await lastEvent('message.rejected');
      assert.equal(event.message.message_id, later.body.message_id);
      assert.match(event.reason, /blocked-later\.example/);
    } finally {
      await t.request(
        'DELETE',
        `/v0/inboxes/${inbox.inbox_id}/block-list/${entry.body.entry_id}`,
        t.adminKey,
      );
    }
  });

  test('send_at on reply and draft send; bad send_at is a 400 naming it', async () => {
    const at = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const original = await send({ to: 'thread@example.com' });
    const reply = await t.request(
      'POST',
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(original.body.message_id)}/reply`,
      t.adminKey,
      { text: 'later', send_at: at },
    );
    assert.equal(reply.body.status, 'scheduled');
    assert.equal(reply.body.thread_id, original.body.thread_id);

    const draft = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/drafts`, t.adminKey, {
      to: 'draft@example.com',
      subject: 'Draft',
      text: 'd',
    });
    const sentDraft = await t.request(
      'POST',
      `/v0/inboxes/${inbox.inbox_id}/drafts/${draft.body.draft_id}/send`,
      t.adminKey,
      { send_at: at },
    );
    assert.equal(sentDraft.status, 200, JSON.stringify(sentDraft.body));
    assert.equal(sentDraft.body.status, 'scheduled');

    const now = t.clock.now().getTime();
    for (const bad of [
      'tomorrow',
      new Date(now - 1_000).toISOString(),
      new Date(now + 31 * 24 * 3_600_000).toISOString(),
    ]) {
      const refused = await send({ to: 'x@example.com', send_at: bad });
      assert.equal(refused.status, 400, bad);
      assert.equal(refused.body.error.param, 'send_at');
    }
  });
});

describe('outbound queue: answering at once', () => {
  test('with MAIL_SEND_WAIT_MS 0 the call answers `sending` and a worker sends it', async () => {
    const relayed = await startTestRelay('accept');
    const t = await startMailbox({ overrides: { relay: new SmtpRelay(relayed.url), sendWaitMs: 0 } });
    try {
      const inbox = await t.createInbox(t.adminKey);
      const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, t.adminKey, {
        to: 'now@example.com',
        text: 'x',
      });
      assert.equal(response.body.status, 'sending');
      assert.equal(relayed.received.length, 0);
      assert.deepEqual(
        (await runDueSends(t, [inbox.inbox_id])).map((r) => r.outcome),
        ['succeeded'],
      );
      assert.equal(relayed.received.length, 1);
    } finally {
      await t.close();
      await relayed.close();
    }
  });
});
