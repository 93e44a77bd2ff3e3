// The HTTP clients integrators really use, against both services listening on loopback, making the
// calls that take no body in each client's own idiom (docs/api-conventions.md, "Request bodies").
// The Python SDK and urllib make the same calls in sdk/python/tests/test_bodyless.py.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import axios from 'axios';
import ky from 'ky';
import createClient from 'openapi-fetch';
import type { paths as MailboxPaths } from '../../../sdk/node/src/generated/mailbox-v0.ts';
import type { paths as PlatformPaths } from '../../../sdk/node/src/generated/platform-v1.ts';
import { Mailbox, Understudy } from '../../../sdk/node/src/index.ts';
import {
  type ApiClient,
  type ListeningPlatform,
  OWN_COUNTERS,
  ok,
  startListeningPlatform,
} from '../harness.ts';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';

const run = promisify(execFile);
const BUDGETS = { ...OWN_COUNTERS, WRITE_RATE_LIMIT_PER_MINUTE: '100000', MAILBOX_RATE_LIMIT: '100000' };

/** Tries every status: the test asserts it, not the client. */
const anyStatus = { validateStatus: () => true };

describe('real HTTP clients: platform operations that take no body', () => {
  let t: ListeningPlatform;
  let ws: ApiClient;
  let auth: Record<string, string>;
  let scenarioId: string;

  before(async () => {
    t = await startListeningPlatform({ env: BUDGETS });
    ws = await t.workspace();
    auth = { authorization: `Bearer ${ws.key}` };
    scenarioId = ok(await ws.call('GET', '/scenarios')).data[0].id;
  });
  after(() => t.close());

  const newEndpoint = async (): Promise<string> => {
    const created = ok(
      await ws.call('POST', '/webhooks/endpoints', { url: 'https://example.com/hook' }),
      201,
    );
    return created.data?.id ?? created.id;
  };
  const newMeeting = async (): Promise<string> =>
    ok(await ws.call('POST', '/meetings', { scenario_id: scenarioId }), 201).data.id;
  const url = (path: string) => `${t.baseUrl}/v1${path}`;

  test('axios: post(url), post(url, {}), a default JSON content type, put and delete', async () => {
    const id = await newEndpoint();
    const rotate = url(`/webhooks/endpoints/${id}/rotate-secret`);
    // No data: axios sends a zero-length form body.
    const bare = await axios.post(rotate, undefined, { headers: auth, ...anyStatus });
    assert.equal(bare.status, 200, JSON.stringify(bare.data));
    assert.equal((await axios.post(rotate, {}, { headers: auth, ...anyStatus })).status, 200);
    const jsonByDefault = axios.create({ headers: { 'Content-Type': 'application/json', ...auth } });
    assert.equal((await jsonByDefault.post(rotate, undefined, anyStatus)).status, 200);
    assert.equal((await jsonByDefault.post(rotate, null, anyStatus)).status, 200);
    const ended = await axios.put(
      url(`/meetings/${await newMeeting()}/end`),
      {},
      { headers: auth, ...anyStatus },
    );
    assert.equal(ended.status, 200, JSON.stringify(ended.data));
    const deleted = await axios.delete(url(`/webhooks/endpoints/${id}`), {
      headers: auth,
      data: {},
      ...anyStatus,
    });
    assert.ok([200, 204].includes(deleted.status), JSON.stringify(deleted.data));
    const refused = await axios.post(rotate, { force: true }, { headers: auth, ...anyStatus });
    assert.equal(refused.status, 400);
    assert.equal(refused.data.error.param, 'force');
  });

  test('ky: json {} on post, put and delete', async () => {
    const id = await newEndpoint();
    const client = ky.create({ headers: auth, throwHttpErrors: false });
    assert.equal(
      (await client.post(url(`/webhooks/endpoints/${id}/rotate-secret`), { json: {} })).status,
      200,
    );
    assert.equal((await client.post(url(`/webhooks/endpoints/${id}/rotate-secret`))).status, 200);
    assert.equal((await client.put(url(`/meetings/${await newMeeting()}/end`), { json: {} })).status, 200);
    const deleted = await client.delete(url(`/webhooks/endpoints/${id}`), { json: {} });
    assert.ok([200, 204].includes(deleted.status), await deleted.text());
  });

  test('openapi-fetch, typed by the committed OpenAPI document', async () => {
    const id = await newEndpoint();
    const client = createClient<PlatformPaths>({ baseUrl: t.baseUrl, headers: auth });
    const path = { params: { path: { id } } };
    const rotated = await client.POST('/v1/webhooks/endpoints/{id}/rotate-secret', path);
    assert.equal(rotated.response.status, 200, JSON.stringify(rotated.error));
    // A wrapper that always passes a body: `{}` where the operation declares none.
    const withEmpty = await client.POST('/v1/webhooks/endpoints/{id}/rotate-secret', {
      ...path,
      body: {} as never,
    });
    assert.equal(withEmpty.response.status, 200, JSON.stringify(withEmpty.error));
    const ended = await client.PUT('/v1/meetings/{id}/end', { params: { path: { id: await newMeeting() } } });
    assert.equal(ended.response.status, 200, JSON.stringify(ended.error));
    const deleted = await client.DELETE('/v1/webhooks/endpoints/{id}', path);
    assert.ok([200, 204].includes(deleted.response.status), JSON.stringify(deleted.error));
  });

  test('fetch behind a hand-written JSON.stringify(body ?? {}) wrapper, and curl --json', async () => {
    const id = await newEndpoint();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(url(path), {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    assert.equal((await call('POST', `/webhooks/endpoints/${id}/rotate-secret`)).status, 200);
    const { stdout } = await run('curl', [
      '--silent',
      '--json',
      '{}',
      '--header',
      `Authorization: Bearer ${ws.key}`,
      '--write-out',
      '\n%{http_code}',
      url(`/webhooks/endpoints/${id}/rotate-secret`),
    ]);
    assert.equal(stdout.trim().split('\n').at(-1), '200', stdout);
    const deleted = await call('DELETE', `/webhooks/endpoints/${id}`);
    assert.ok([200, 204].includes(deleted.status), await deleted.text());
  });

  test('the Node SDK', async () => {
    const client = new Understudy({ apiKey: ws.key, baseUrl: t.baseUrl });
    const id = await newEndpoint();
    await client.webhooks.rotateEndpointSecret(id);
    await client.meetings.end(await newMeeting());
    await client.webhooks.deleteEndpoint(id);
    assert.equal((await ws.call('GET', `/webhooks/endpoints/${id}`)).statusCode, 404);
  });
});

describe('real HTTP clients: mailbox operations that take no body', () => {
  let m: TestMailbox;
  let key: string;
  let auth: Record<string, string>;

  before(async () => {
    m = await startMailbox({ env: BUDGETS });
    await m.listen();
    key = (await m.platform.workspace()).key;
    auth = { authorization: `Bearer ${key}` };
  });
  after(() => m.close());

  const url = (path: string) => `${m.baseUrl}/v0${path}`;
  const inboxPath = (inbox: { inbox_id: string }) => `/inboxes/${encodeURIComponent(inbox.inbox_id)}`;

  test('axios creates an inbox with no data and deletes it with {}', async () => {
    const created = await axios.post(url('/inboxes'), undefined, { headers: auth, ...anyStatus });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    const deleted = await axios.delete(url(inboxPath(created.data)), {
      headers: auth,
      data: {},
      ...anyStatus,
    });
    assert.ok([200, 204].includes(deleted.status), JSON.stringify(deleted.data));
  });

  test('ky and openapi-fetch', async () => {
    const client = ky.create({ headers: auth, throwHttpErrors: false });
    const created = await client.post(url('/inboxes'), { json: {} });
    assert.equal(created.status, 201, await created.clone().text());
    const inbox = (await created.json()) as { inbox_id: string };
    const typed = createClient<MailboxPaths>({ baseUrl: `${m.baseUrl}/v0`, headers: auth });
    const second = await typed.POST('/inboxes', {});
    assert.equal(second.response.status, 201, JSON.stringify(second.error));
    for (const each of [inbox, second.data!]) {
      const deleted = await typed.DELETE('/inboxes/{inbox_id}', {
        params: { path: { inbox_id: each.inbox_id } },
      });
      assert.ok([200, 204].includes(deleted.response.status), JSON.stringify(deleted.error));
    }
  });

  test('the Node SDK', async () => {
    const mailbox = new Mailbox({ apiKey: key, baseUrl: m.baseUrl });
    const inbox = await mailbox.inboxes.create();
    await mailbox.inboxes.delete(inbox.inbox_id);
    const gone = await axios.get(url(inboxPath(inbox)), { headers: auth, ...anyStatus });
    assert.equal(gone.status, 404);
  });
});
