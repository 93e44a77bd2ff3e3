// An empty update on the mailbox, as on the platform (docs/api-conventions.md, "Request bodies"):
// every PATCH of /v0 (inboxes, message labels, drafts, webhooks) takes `{}`, or no body at all,
// changes nothing (not `updated_at`, no event) and answers the resource as it is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

describe('empty updates: PATCH with {} answers the resource unchanged', () => {
  let t: TestMailbox;
  let key: string;
  let inbox: { inbox_id: string };
  /** `{}`, and no body at all (which a body of optional fields takes as `{}`). */
  const EMPTY = [{}, undefined];

  /** PATCH `path` with each empty body: 200 and exactly what GET answered before. */
  async function unchanged(path: string, read = path) {
    const before = await t.request('GET', read, key);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    // An update that wrote anything would show a later updated_at.
    t.clock.advance(60_000);
    for (const payload of EMPTY) {
      const patched = await t.request('PATCH', path, key, payload);
      assert.equal(
        patched.status,
        200,
        `${path} with ${JSON.stringify(payload)}: ${JSON.stringify(patched.body)}`,
      );
      assert.deepEqual(
        patched.body,
        before.body,
        `${path} with ${JSON.stringify(payload)} answers the resource`,
      );
    }
    assert.deepEqual((await t.request('GET', read, key)).body, before.body, `${path} is as it was`);
    return before.body;
  }

  const eventTypes = async () =>
    (await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/events`, key)).body.events.map(
      (event: { event_type: string }) => event.event_type,
    );

  before(async () => {
    t = await startMailbox();
    key = (await t.platform.createApiKey(await t.platform.signup())).secret;
    inbox = await t.createInbox(key, { display_name: 'Desk' });
  });
  after(() => t.close());

  test('inbox: {} keeps the display name; null still clears it', async () => {
    const path = `/v0/inboxes/${inbox.inbox_id}`;
    const current = await unchanged(path);
    assert.equal(current.display_name, 'Desk');
    const cleared = await t.request('PATCH', path, key, { display_name: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.display_name, null);
    assert.notEqual(cleared.body.updated_at, current.updated_at, 'a real change is written');
    await t.request('PATCH', path, key, { display_name: 'Desk' });
    const unknown = await t.request('PATCH', path, key, { name: 'x' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.param, 'name');
  });

  test('message labels: {} changes no label, of the message or its thread', async () => {
    const peer = await t.createInbox(key);
    const sent = await t.request('POST', `/v0/inboxes/${peer.inbox_id}/messages/send`, key, {
      to: inbox.inbox_id,
      subject: 'Labels',
      text: 'Hello',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const path = `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent(sent.body.message_id)}`;
    const received = await t.request('GET', path, key);
    assert.equal(received.status, 200, 'delivered internally');
    const thread = `/v0/inboxes/${inbox.inbox_id}/threads/${received.body.thread_id}`;
    const threadBefore = (await t.request('GET', thread, key)).body;
    const current = await unchanged(path);
    assert.deepEqual(current.labels, ['received', 'unread']);
    assert.deepEqual((await t.request('GET', thread, key)).body, threadBefore);
    const empties = await t.request('PATCH', path, key, { add_labels: [], remove_labels: [] });
    assert.deepEqual(empties.body, current, 'empty lists change nothing either');
  });

  test('draft: {} fires no draft.updated and keeps updated_at', async () => {
    const created = await t.request('POST', `/v0/inboxes/${inbox.inbox_id}/drafts`, key, {
      to: ['someone@example.com'],
      subject: 'Draft',
      text: 'First',
    });
    assert.equal(created.status, 201);
    const path = `/v0/inboxes/${inbox.inbox_id}/drafts/${created.body.draft_id}`;
    await unchanged(path);
    assert.ok(!(await eventTypes()).includes('draft.updated'), 'no event for a change that did not happen');
    const changed = await t.request('PATCH', path, key, { subject: 'Final' });
    assert.equal(changed.body.subject, 'Final');
    assert.ok((await eventTypes()).includes('draft.updated'));
    const unknown = await t.request('PATCH', path, key, { client_id: 'x' });
    assert.equal(unknown.status, 400, 'client_id still cannot change');
  });

  test('webhook: {} keeps it as it is, paused or not', async () => {
    const created = await t.request('POST', '/v0/webhooks', key, {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['message.received'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const path = `/v0/webhooks/${created.body.webhook_id}`;
    assert.equal((await unchanged(path)).enabled, true);
    assert.equal((await t.request('PATCH', path, key, { enabled: false })).body.enabled, false);
    assert.equal((await unchanged(path)).enabled, false, 'a paused webhook stays paused');
  });

  test('an empty update of something absent or out of reach is still a 404', async () => {
    const other = await t.createInbox(t.adminKey);
    for (const path of [
      '/v0/inboxes/nobody@mail.test',
      `/v0/inboxes/${other.inbox_id}`,
      `/v0/inboxes/${inbox.inbox_id}/messages/${encodeURIComponent('<absent@example.com>')}`,
      `/v0/inboxes/${inbox.inbox_id}/drafts/drf_absent`,
      '/v0/webhooks/whk_absent',
    ]) {
      const response = await t.request('PATCH', path, key, {});
      assert.equal(response.status, 404, `${path}: ${JSON.stringify(response.body)}`);
    }
  });
});
