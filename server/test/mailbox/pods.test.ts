// DELETE /v0/pods/{pod_id} (docs/mailbox.md, "Pod"): only an empty pod goes, with its own lists;
// what still belongs to it is named in a 409, and only an unrestricted key may delete.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

describe('deleting a pod', () => {
  let t: TestMailbox;
  let owner: string;

  const createPod = async (name: string) => {
    const pod = await t.request('POST', '/v0/pods', owner, { name });
    assert.equal(pod.status, 201, JSON.stringify(pod.body));
    return pod.body.pod_id as string;
  };
  const conflict = async (podId: string, message: RegExp) => {
    const refused = await t.request('DELETE', `/v0/pods/${podId}`, owner);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'resource_conflict');
    assert.equal(refused.body.error.param, 'pod_id');
    assert.match(refused.body.error.message, message);
    assert.equal((await t.request('GET', `/v0/pods/${podId}`, owner)).status, 200, 'the pod is still there');
  };

  before(async () => {
    t = await startMailbox();
    owner = (await t.platform.createApiKey(await t.platform.signup())).secret;
  });
  after(() => t.close());

  test('an empty pod is deleted with its lists; then it is gone', async () => {
    const podId = await createPod('empty');
    const entry = await t.request('POST', `/v0/pods/${podId}/block-list`, owner, { value: 'spam.example' });
    assert.equal(entry.status, 201, JSON.stringify(entry.body));
    const deleted = await t.request('DELETE', `/v0/pods/${podId}`, owner);
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    assert.equal((await t.request('GET', `/v0/pods/${podId}`, owner)).status, 404);
    assert.equal((await t.request('GET', `/v0/pods/${podId}/block-list`, owner)).status, 404);
    const listed = await t.request('GET', '/v0/pods', owner);
    assert.ok(!listed.body.pods.some((pod: { pod_id: string }) => pod.pod_id === podId));
    assert.equal((await t.request('DELETE', `/v0/pods/${podId}`, owner)).status, 404, 'deleting again: 404');
  });

  test('inboxes keep a pod: 409 naming them, until they are deleted', async () => {
    const podId = await createPod('with inboxes');
    const first = await t.createInbox(owner, { pod_id: podId });
    const second = await t.createInbox(owner, { pod_id: podId });
    await conflict(podId, /still has 2 inboxes: delete them first/);
    await t.request('DELETE', `/v0/inboxes/${first.inbox_id}`, owner);
    await conflict(podId, /still has 1 inbox:/);
    await t.request('DELETE', `/v0/inboxes/${second.inbox_id}`, owner);
    assert.equal((await t.request('DELETE', `/v0/pods/${podId}`, owner)).status, 204);
  });

  test("a key restricted to the pod, and its webhook, keep it; the pod's own key may not delete it", async () => {
    const podId = await createPod('with a key');
    const podKey = await t.createScopedKey({ name: 'pod agent', pod_id: podId });
    const forbidden = await t.request('DELETE', `/v0/pods/${podId}`, podKey.api_key);
    assert.equal(forbidden.status, 403, JSON.stringify(forbidden.body));
    assert.equal(forbidden.body.error.code, 'permission_denied');
    const hook = await t.request('POST', '/v0/webhooks', podKey.api_key, {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['message.received'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    assert.equal(hook.body.pod_id, podId);
    await conflict(podId, /still has 1 webhook, 1 unrevoked key restricted to it:/);

    assert.equal((await t.request('DELETE', `/v0/api-keys/${podKey.key_id}`, t.adminKey)).status, 204);
    await conflict(podId, /still has 1 webhook:/);
    assert.equal((await t.request('DELETE', `/v0/webhooks/${hook.body.webhook_id}`, owner)).status, 204);
    assert.equal((await t.request('DELETE', `/v0/pods/${podId}`, owner)).status, 204);
  });

  test('keys that do not reach the pod get 404, as for an absent one', async () => {
    const podId = await createPod('out of reach');
    const inbox = await t.createInbox(owner);
    const inboxKey = await t.createScopedKey({ name: 'inbox agent', inbox_ids: [inbox.inbox_id] });
    const otherPod = await createPod('another');
    const otherPodKey = await t.createScopedKey({ name: 'other pod agent', pod_id: otherPod });
    const stranger = (await t.platform.createApiKey(await t.platform.signup())).secret;
    for (const key of [inboxKey.api_key, otherPodKey.api_key, stranger]) {
      const response = await t.request('DELETE', `/v0/pods/${podId}`, key);
      assert.equal(response.status, 404, JSON.stringify(response.body));
    }
    assert.equal((await t.request('GET', `/v0/pods/${podId}`, owner)).status, 200);
  });
});
