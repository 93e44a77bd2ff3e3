// Webhook URLs are vetted when stored, with the delivery client's own address policy
// (docs/mailbox.md, "Webhooks"), and a refused address at delivery is a permanent failure. Nothing
// here connects to a private address: IP literals are refused by the classifier, names resolve
// through an injected lookup, and the only receiver listens on loopback (OUTBOUND_ALLOW_CIDRS).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DeliveryWorker } from '../../src/core/delivery/worker.ts';
import { mailboxDeliveryProfile } from '../../src/mailbox/webhooks/profile.ts';
import { startMailbox, type TestMailbox } from './app.ts';

const NAMES: Record<string, string[]> = {
  'internal.corp.test': ['10.1.2.3'],
  'mixed.corp.test': ['93.184.216.34', '192.168.0.7'],
  'public.corp.test': ['93.184.216.34'],
};

describe('webhook URLs vetted when stored; refused addresses fail at once at delivery', () => {
  let t: TestMailbox;
  let inbox: { inbox_id: string };
  const created: string[] = [];
  // Narrowed to this test's inbox: a service-wide admin webhook would receive every other test's
  // events on a shared database.
  const create = async (url: string) => {
    const response = await t.request('POST', '/v0/webhooks', t.adminKey, {
      url,
      event_types: ['message.received'],
      inbox_ids: [inbox.inbox_id],
    });
    if (response.status === 201) created.push(response.body.webhook_id);
    return response;
  };

  before(async () => {
    t = await startMailbox({
      overrides: {
        lookup: async (host) => {
          const addresses = NAMES[host];
          if (!addresses) throw new Error(`ENOTFOUND ${host}`);
          return addresses;
        },
      },
    });
    inbox = await t.createInbox(t.adminKey);
  });
  after(async () => {
    for (const id of created) await t.request('DELETE', `/v0/webhooks/${id}`, t.adminKey);
    await t.close();
  });

  test('private, link-local, metadata and names resolving to them: 400 naming url', async () => {
    for (const url of [
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.1/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:169.254.169.254]/hook',
      'https://internal.corp.test/hook',
      'https://mixed.corp.test/hook',
    ]) {
      const refused = await create(url);
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body.error.code, 'parameter_invalid', url);
      assert.equal(refused.body.error.param, 'url', url);
      assert.match(refused.body.error.message, /blocked range/, url);
    }
    const credentials = await create('https://user:pass@public.corp.test/hook');
    assert.equal(credentials.body.error.param, 'url');
  });

  test('public names, loopback allowed by OUTBOUND_ALLOW_CIDRS and names not resolving yet are stored', async () => {
    for (const url of [
      'https://public.corp.test/hook',
      'http://127.0.0.1:9/hook',
      'https://not-yet-in-dns.corp.test/hook',
    ]) {
      assert.equal((await create(url)).status, 201, url);
    }
  });

  test('PATCH url is vetted the same way and leaves the webhook as it was', async () => {
    const created = await create('https://public.corp.test/hook');
    const id = created.body.webhook_id;
    const refused = await t.request('PATCH', `/v0/webhooks/${id}`, t.adminKey, {
      url: 'http://169.254.169.254/',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.param, 'url');
    const current = await t.request('GET', `/v0/webhooks/${id}`, t.adminKey);
    assert.equal(current.body.url, 'https://public.corp.test/hook');
    const moved = await t.request('PATCH', `/v0/webhooks/${id}`, t.adminKey, {
      url: 'http://127.0.0.1:9/other',
    });
    assert.equal(moved.status, 200);
  });

  test('a delivery to a refused address fails permanently after one attempt, not retried for hours', async () => {
    await t.listen();
    const created = await create('http://127.0.0.1:9/hook');
    // As a row stored before URLs were vetted.
    await t.deps.db
      .updateTable('mailbox_webhooks')
      .set({ url: 'http://10.0.0.5/hook' })
      .where('id', '=', created.body.webhook_id)
      .execute();
    await t.sendSmtp({ from: 'a@example.com', to: inbox.inbox_id, subject: 'hi', text: 'x' });
    const worker = new DeliveryWorker({
      database: t.deps.database,
      clock: t.clock,
      client: t.deps.deliveryClient,
      profiles: [mailboxDeliveryProfile(t.deps.secretBox)],
      logger: { info() {}, warn() {}, error() {} },
    });
    await worker.runOnce();
    const deliveries = await t.request(
      'GET',
      `/v0/webhooks/${created.body.webhook_id}/deliveries`,
      t.adminKey,
    );
    const [delivery] = deliveries.body.deliveries;
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempt_count, 1);
    assert.equal(delivery.next_attempt_at, null);
    assert.match(delivery.last_error, /^blocked_address/);
    assert.equal(delivery.attempts[0].outcome, 'failed');
  });
});
