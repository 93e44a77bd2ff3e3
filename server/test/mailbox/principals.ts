import assert from 'node:assert/strict';
import { startMailbox, type TestMailbox } from './app.ts';

export interface Principals {
  t: TestMailbox;
  /** owner, teammate (same workspace), stranger, admin, scopedMine, scopedPod, revoked */
  keys: Record<string, string>;
  mine: { inbox_id: string };
  theirs: { inbox_id: string };
  podInbox: { inbox_id: string };
  podId: string;
}

/** A listening mailbox with one key of every principal kind and the inboxes they should (not) see. */
export async function startWithPrincipals(): Promise<Principals> {
  const t = await startMailbox();
  await t.listen();
  const keys: Record<string, string> = {};
  const workspace = await t.platform.signup();
  keys.owner = (await t.platform.createApiKey(workspace)).secret;
  keys.teammate = (await t.platform.createApiKey(workspace, { name: 'teammate key' })).secret;
  const other = await t.platform.signup();
  keys.stranger = (await t.platform.createApiKey(other)).secret;
  keys.admin = t.adminKey;

  const mine = await t.createInbox(keys.owner);
  const theirs = await t.createInbox(keys.stranger);
  const pod = await t.request('POST', '/v0/pods', keys.admin, { name: 'customer-1' });
  const podId: string = pod.body.pod_id;
  const podInbox = await t.createInbox(keys.admin, { pod_id: podId });

  keys.scopedMine = (await t.createScopedKey({ name: 'mine only', inbox_ids: [mine.inbox_id] })).api_key;
  keys.scopedPod = (await t.createScopedKey({ name: 'pod', pod_id: podId })).api_key;
  const revoked = await t.createScopedKey({ name: 'revoked', inbox_ids: [mine.inbox_id] });
  keys.revoked = revoked.api_key;
  assert.equal((await t.request('DELETE', `/v0/api-keys/${revoked.key_id}`, keys.admin)).status, 204);
  return { t, keys, mine, theirs, podInbox, podId };
}
