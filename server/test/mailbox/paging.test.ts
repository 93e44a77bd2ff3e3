import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

/**
 * Every keyset-paged list of the mailbox, walked one small page at a time: nothing is skipped or
 * repeated, rows created in the same millisecond are told apart by id, and the pages together
 * give the order of the whole list.
 */
describe('keyset paging of the mailbox lists', () => {
  let t: TestMailbox;
  let key: string;
  let inbox: { inbox_id: string };
  let peer: { inbox_id: string };

  before(async () => {
    t = await startMailbox();
    // A workspace of its own: its namespace holds only what these tests create.
    const workspace = await t.platform.signup();
    key = (await t.platform.createApiKey(workspace)).secret;
    inbox = await t.createInbox(key);
    peer = await t.createInbox(key);
  });
  after(() => t.close());

  interface Created<T = string> {
    older: T[];
    newer: T[];
  }

  /** Two rows in one millisecond, then three in a later one. */
  async function createFive<T = string>(create: (n: number) => Promise<T>): Promise<Created<T>> {
    const older = [await create(1), await create(2)];
    t.clock.advance(1_000);
    const newer = [await create(3), await create(4), await create(5)];
    t.clock.advance(1_000);
    return { older, newer };
  }

  async function expectPaged(url: string, token: string, itemsKey: string, idKey: string, created: Created) {
    const { older, newer } = created;
    const ours = new Set([...older, ...newer]);
    const join = url.includes('?') ? '&' : '?';
    const whole = await t.request('GET', `${url}${join}limit=100`, token);
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    const expected = whole.body[itemsKey]
      .map((item: any) => item[idKey])
      .filter((id: string) => ours.has(id));

    const walked: string[] = [];
    let pageToken: string | null = null;
    do {
      const suffix: string = pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : '';
      const page = await t.request('GET', `${url}${join}limit=2${suffix}`, token);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.count <= 2);
      assert.equal(page.body.count, page.body[itemsKey].length);
      walked.push(...page.body[itemsKey].map((item: any) => item[idKey]));
      pageToken = page.body.next_page_token;
    } while (pageToken);

    assert.equal(new Set(walked).size, walked.length, `no row twice: ${walked}`);
    const ourWalk = walked.filter((id) => ours.has(id));
    assert.deepEqual(ourWalk, expected, 'the pages give the order of the whole list');
    assert.deepEqual(new Set(ourWalk), ours, 'every row is on some page');
    assert.deepEqual(new Set(ourWalk.slice(0, newer.length)), new Set(newer), 'the newest come first');
  }

  test('inboxes, pods and domains', async () => {
    const pod = await t.request('POST', '/v0/pods', key, { name: 'paging' });
    const inboxes = await createFive(
      async () => (await t.createInbox(key, { pod_id: pod.body.pod_id })).inbox_id,
    );
    await expectPaged(`/v0/inboxes?pod_id=${pod.body.pod_id}`, key, 'inboxes', 'inbox_id', inboxes);

    const pods = await createFive(
      async (n) => (await t.request('POST', '/v0/pods', key, { name: `pod ${n}` })).body.pod_id,
    );
    await expectPaged('/v0/pods', key, 'pods', 'pod_id', pods);

    const domains = await createFive(async (n) => {
      const response = await t.request('POST', '/v0/domains', key, {
        domain: `${t.unique('paging')}${n}.example.com`,
      });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body.domain_id;
    });
    await expectPaged('/v0/domains', key, 'domains', 'domain_id', domains);
  });

  test('messages, threads and drafts of an inbox', async () => {
    const sent = await createFive<{ message_id: string; thread_id: string }>(async (n) => {
      const response = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/messages/send`, key, {
        to: peer.inbox_id,
        subject: `paging ${n}`,
        text: 'hello',
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body;
    });
    const field = (name: 'message_id' | 'thread_id') => ({
      older: sent.older.map((message) => message[name]),
      newer: sent.newer.map((message) => message[name]),
    });
    await expectPaged(
      `/v0/inboxes/${inbox.inbox_id}/messages`,
      key,
      'messages',
      'message_id',
      field('message_id'),
    );
    await expectPaged(
      `/v0/inboxes/${inbox.inbox_id}/threads`,
      key,
      'threads',
      'thread_id',
      field('thread_id'),
    );

    const drafts = await createFive(
      async (n) =>
        (await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/drafts`, key, { subject: `draft ${n}` })).body
          .draft_id,
    );
    await expectPaged(`/v0/inboxes/${inbox.inbox_id}/drafts`, key, 'drafts', 'draft_id', drafts);
  });

  test('block lists, webhooks and scoped keys', async () => {
    for (const base of ['/v0/block-list', `/v0/inboxes/${inbox.inbox_id}/block-list`]) {
      const entries = await createFive(
        async (n) =>
          (await t.request('POST', base, key, { value: `${t.unique('blocked')}${n}.example.net` })).body
            .entry_id,
      );
      await expectPaged(base, key, 'entries', 'entry_id', entries);
    }

    const webhooks = await createFive(async (n) => {
      const response = await t.request('POST', '/v0/webhooks', key, {
        url: `http://127.0.0.1:9/hook-${n}`,
        event_types: ['message.received'],
      });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body.webhook_id;
    });
    await expectPaged('/v0/webhooks', key, 'webhooks', 'webhook_id', webhooks);

    const keys = await createFive(async (n) => (await t.createScopedKey({ name: `paging ${n}` })).key_id);
    await expectPaged('/v0/api-keys', t.adminKey, 'api_keys', 'key_id', keys);
  });
});
