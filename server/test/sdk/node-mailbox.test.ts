// The Node SDK's Mailbox client against a real mailbox service on loopback: page_token lists walked
// to the end, a typed 404, writes not retried after a dropped answer (the mailbox takes no
// Idempotency-Key), and X-Mailbox-Signature verified on a delivery the service really sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  APIConnectionError,
  InvalidRequestError,
  Mailbox,
  NotFoundError,
  verifyMailboxSignature,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../sdk/node/src/index.ts';
import { TestReceiver } from '../../src/core/delivery/testing/receiver.ts';
import { DeliveryWorker } from '../../src/core/delivery/worker.ts';
import { mailboxDeliveryProfile } from '../../src/mailbox/webhooks/profile.ts';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';
import { FlakyProxy } from './helpers.ts';

let t: TestMailbox;
let key: string;
let mailbox: Mailbox;
let receiver: TestReceiver;
let proxy: FlakyProxy;

before(async () => {
  t = await startMailbox();
  await t.listen();
  const workspace = await t.platform.signup();
  key = (await t.platform.createApiKey(workspace)).secret;
  mailbox = new Mailbox({ apiKey: key, baseUrl: t.baseUrl });
  receiver = await TestReceiver.start();
  proxy = await FlakyProxy.start(t.baseUrl);
  // Deliveries other test files left due in a shared PostgreSQL are not this file's to send.
  await t.deps.db
    .updateTable('deliveries')
    .set({ status: 'cancelled', next_attempt_at: null })
    .where('channel', '=', 'mailbox')
    .where('status', 'in', ['pending', 'paused'])
    .execute();
});
after(async () => {
  await proxy.close();
  await receiver.close();
  await t.close();
});

describe('Mailbox client', () => {
  test('for await walks every page of inboxes with limit and page_token', async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const inbox = await mailbox.inboxes.create({ username: t.unique('sdk') });
      created.push(inbox.inbox_id);
    }
    const first = await mailbox.inboxes.list({ limit: 1 });
    assert.equal(first.inboxes.length, 1);
    assert.equal(typeof first.next_page_token, 'string');
    const seen: string[] = [];
    for await (const inbox of mailbox.inboxes.list({ limit: 1 })) seen.push(inbox.inbox_id);
    assert.deepEqual(new Set(seen), new Set(created));
    assert.equal(seen.length, created.length);
  });

  test('an unknown inbox is an InvalidRequestError 404 (a NotFoundError)', async () => {
    await assert.rejects(mailbox.inboxes.get('no-such-inbox@mail.test'), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.status, 404);
      assert.match(error.requestId ?? '', /\S/);
      return true;
    });
  });

  test('a write whose answer was lost is not retried: the mailbox cannot tell a retry from a new request', async () => {
    const flaky = new Mailbox({ apiKey: key, baseUrl: proxy.baseUrl });
    proxy.seen.length = 0;
    proxy.plan = [{ kind: 'drop-answer' }];
    await assert.rejects(flaky.pods.create({ name: 'lost answer' }), APIConnectionError);
    assert.equal(proxy.seen.length, 1);
    proxy.plan = [{ kind: 'drop-answer' }];
    const pods = await flaky.pods.list();
    assert.ok(Array.isArray(pods.pods), 'a read is retried after a lost answer');
    assert.equal(proxy.seen.length, 3);
  });

  test('a delivery the service sent verifies with its secret (X-Mailbox-Signature)', async () => {
    const inbox = await mailbox.inboxes.create({ username: t.unique('hooked') });
    const webhook = await mailbox.webhooks.create({
      url: receiver.url,
      event_types: ['draft.created'],
      inbox_ids: [inbox.inbox_id],
    });
    await mailbox.drafts.create(inbox.inbox_id, {
      to: ['someone@example.com'],
      subject: 'Hello',
      text: 'Hi',
    });
    const worker = new DeliveryWorker({
      database: t.deps.database,
      clock: t.clock,
      client: t.deps.deliveryClient,
      profiles: [mailboxDeliveryProfile(t.deps.secretBox)],
      logger: { info() {}, warn() {}, error() {} },
    });
    for (let round = 0; round < 200 && receiver.requests.length === 0; round += 1) await worker.runOnce();
    const delivery = receiver.requests[0]!;
    assert.ok(delivery, 'the delivery arrived');
    // The mailbox client's helper names the mailbox scheme; the general one checks only Service-Signature.
    const event = mailbox.verifyWebhook<{ event_type: string; inbox_id: string }>(
      delivery.rawBody,
      delivery.headers as Record<string, string>,
      { secrets: webhook.secret },
    );
    assert.throws(
      () =>
        verifyWebhook(delivery.rawBody, delivery.headers as Record<string, string>, {
          secrets: webhook.secret,
        }),
      (error: unknown) => error instanceof WebhookVerificationError && error.reason === 'missing_header',
    );
    assert.equal(event.event_type, 'draft.created');
    assert.equal(event.inbox_id, inbox.inbox_id);
    const header = String(delivery.headers['x-mailbox-signature']);
    assert.equal(verifyMailboxSignature(header, delivery.rawBody, { secrets: 'whsec_wrong' }).ok, false);
    assert.equal(
      verifyMailboxSignature(header, `${delivery.rawBody}x`, { secrets: webhook.secret }).ok,
      false,
    );
  });
});
