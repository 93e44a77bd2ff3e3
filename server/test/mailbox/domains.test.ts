import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ResolverDns } from '../../src/mailbox/domains/dns.ts';
import { SmtpRelay } from '../../src/mailbox/messages/transport.ts';
import { LocalDnsServer } from '../../src/mailbox/testing/dns-server.ts';
import { startTestRelay } from '../../src/mailbox/testing/relay.ts';
import { startMailbox, type TestMailbox } from './app.ts';

describe('custom domains verified against a local DNS server', () => {
  let t: TestMailbox;
  let dns: LocalDnsServer;
  let relay: Awaited<ReturnType<typeof startTestRelay>>;
  let platformKey: string;
  const domain = `agents-${Date.now()}-${process.pid}.example.com`;

  before(async () => {
    dns = new LocalDnsServer();
    const server = await dns.start();
    relay = await startTestRelay('accept');
    t = await startMailbox({
      overrides: { dns: new ResolverDns([server]), relay: new SmtpRelay(relay.url) },
    });
    await t.listen();
    const workspace = await t.platform.signup();
    platformKey = (await t.platform.createApiKey(workspace)).secret;
  });
  after(async () => {
    await t.close();
    await dns.close();
    await relay.close();
  });

  test('adding a domain answers the records to publish', async () => {
    const created = await t.request('POST', '/v0/domains', platformKey, { domain: domain.toUpperCase() });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.domain_id, domain);
    assert.equal(created.body.status, 'pending');
    const purposes = created.body.records.map((r: { purpose: string }) => r.purpose);
    assert.deepEqual(purposes, ['verification', 'inbound', 'spf', 'dkim']);
    const dkim = created.body.records.find((r: { purpose: string }) => r.purpose === 'dkim');
    assert.equal(dkim.name, `mbx1._domainkey.${domain}`);
    assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    const duplicate = await t.request('POST', '/v0/domains', platformKey, { domain });
    assert.equal(duplicate.status, 409);
    const invalid = await t.request('POST', '/v0/domains', platformKey, { domain: 'not a domain' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.param, 'domain');
  });

  test('an inbox cannot use the domain before it is verified', async () => {
    const response = await t.request('POST', '/v0/inboxes', platformKey, { username: 'early', domain });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.param, 'domain');
  });

  test('verification fails while records are missing and succeeds once they are published', async () => {
    const failed = await t.request('POST', `/v0/domains/${domain}/verify`, platformKey);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.status, 'failed');
    assert.ok(failed.body.records.every((r: { status: string }) => r.status === 'missing'));
    assert.ok(dns.queries > 0, 'the local DNS server was asked');

    for (const record of failed.body.records) {
      if (record.type === 'MX')
        dns.add(record.name, { type: 'MX', exchange: record.value, priority: record.priority });
      else dns.add(record.name, { type: 'TXT', value: record.value });
    }
    const verified = await t.request('POST', `/v0/domains/${domain}/verify`, platformKey);
    assert.equal(verified.body.status, 'verified', JSON.stringify(verified.body));
    assert.ok(verified.body.verified_at);
    const again = await t.request('POST', `/v0/domains/${domain}/verify`, platformKey);
    assert.equal(again.body.status, 'verified');

    const events = await t.deps.db
      .selectFrom('mailbox_events')
      .select(['event_type', 'payload'])
      .where('event_type', '=', 'domain.verified')
      .execute();
    const mine = events.filter(
      (e) => (e.payload as { domain: { domain_id: string } }).domain.domain_id === domain,
    );
    assert.equal(mine.length, 1, 'domain.verified fires once');
  });

  test('a verified domain receives mail over SMTP and signs outbound mail with DKIM', async () => {
    const inbox = await t.createInbox(platformKey, { username: 'sales', domain });
    assert.equal(inbox.inbox_id, `sales@${domain}`);
    await t.sendSmtp({
      from: 'buyer@example.org',
      to: inbox.inbox_id,
      subject: 'Pricing?',
      text: 'How much?',
    });
    const messages = await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/messages`, platformKey);
    assert.equal(messages.body.messages[0].subject, 'Pricing?');
    const reply = await t.request(
      'POST',
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(messages.body.messages[0].message_id)}/reply`,
      platformKey,
      {
        text: 'Ten euros.',
      },
    );
    assert.equal(reply.body.status, 'sent');
    const relayed = relay.received.at(-1)!;
    assert.match(relayed.raw, new RegExp(`DKIM-Signature: [^]*d=${domain.replace(/\./g, '\\.')}`));
    assert.match(relayed.raw, /s=mbx1/);
  });

  test('other workspaces cannot see or verify the domain', async () => {
    const other = await t.platform.signup();
    const key = (await t.platform.createApiKey(other)).secret;
    assert.equal((await t.request('GET', `/v0/domains/${domain}`, key)).status, 404);
    assert.equal((await t.request('POST', `/v0/domains/${domain}/verify`, key)).status, 404);
    const list = await t.request('GET', '/v0/domains', key);
    assert.equal(list.body.count, 0);
  });
});
