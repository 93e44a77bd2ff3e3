// What counts as "no body" (docs/api-conventions.md, "Request bodies"): every operation that takes
// none, on both services, accepts what ordinary clients send for an absent body, and refuses a body
// that carries something, naming its first field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { bearer, OWN_COUNTERS, ok, startPlatform, type TestPlatform, type Workspace } from '../harness.ts';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';

interface Operation {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

/** Every write operation the committed document lists without a request body. */
function bodylessOperations(document: string, prefix: string): Operation[] {
  const { paths } = JSON.parse(readFileSync(document, 'utf8')) as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(
        ([method, operation]) =>
          ['post', 'put', 'patch', 'delete'].includes(method) && !operation.requestBody,
      )
      .map(([method]) => ({
        method: method.toUpperCase() as Operation['method'],
        // Ids that name nothing: the body rule answers before any lookup, so 404 is the baseline.
        path: `${prefix}${path.replace(/\{[^}]+\}/g, '1')}`,
      })),
  );
}

const json = { 'content-type': 'application/json' };

/** Each operation is called sixteen ways: more writes than a minute's budget holds. */
const BUDGETS = {
  ...OWN_COUNTERS,
  RATE_LIMIT_PER_MINUTE: '100000',
  WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  MAILBOX_RATE_LIMIT: '100000',
};

/** What ordinary clients send when they mean "no body". */
const ABSENT: Array<{ name: string; headers: Record<string, string>; payload?: string }> = [
  { name: 'no body at all', headers: {} },
  { name: 'zero bytes as JSON', headers: json, payload: '' },
  {
    name: 'zero bytes as a form (axios, Stripe-style SDKs)',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  },
  { name: 'zero bytes as text', headers: { 'content-type': 'text/plain' }, payload: '' },
  {
    name: 'zero bytes as multipart',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '',
  },
  { name: '{}', headers: json, payload: '{}' },
  {
    name: '{} with whitespace',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    payload: ' { }\n',
  },
  { name: 'null', headers: json, payload: 'null' },
];

/** Bodies that carry something, and the `param` the refusal names. */
const CARRYING: Array<{ payload: string; headers: Record<string, string>; status: number; param: string }> = [
  { payload: '{"force":true,"reason":"x"}', headers: json, status: 400, param: 'force' },
  { payload: '[]', headers: json, status: 400, param: 'body' },
  { payload: '[{"a":1}]', headers: json, status: 400, param: 'body' },
  { payload: '"yes"', headers: json, status: 400, param: 'body' },
  { payload: '0', headers: json, status: 400, param: 'body' },
  { payload: 'please', headers: { 'content-type': 'text/plain' }, status: 400, param: 'body' },
  {
    payload: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 415,
    param: 'Content-Type',
  },
  { payload: '{"a":', headers: json, status: 400, param: 'body' },
];

type Inject = (
  operation: Operation,
  headers: Record<string, string>,
  payload?: string,
) => Promise<{
  statusCode: number;
  json(): any;
  body: string;
}>;

async function checkEveryOperation(operations: Operation[], inject: Inject) {
  assert.ok(operations.length > 10, `found only ${operations.length} bodyless operations`);
  for (const operation of operations) {
    const label = `${operation.method} ${operation.path}`;
    const baseline = await inject(operation, {});
    assert.ok(baseline.statusCode < 500, `${label}: ${baseline.body}`);
    const baselineCode = baseline.statusCode >= 400 ? baseline.json().error.code : null;
    for (const absent of ABSENT.slice(1)) {
      const response = await inject(operation, absent.headers, absent.payload);
      assert.equal(
        response.statusCode,
        baseline.statusCode,
        `${label} with ${absent.name}: ${response.body}`,
      );
      if (baselineCode)
        assert.equal(response.json().error.code, baselineCode, `${label} with ${absent.name}`);
    }
    for (const carrying of CARRYING) {
      const response = await inject(operation, carrying.headers, carrying.payload);
      assert.equal(
        response.statusCode,
        carrying.status,
        `${label} with ${carrying.payload}: ${response.body}`,
      );
      assert.equal(response.json().error.param, carrying.param, `${label} with ${carrying.payload}`);
    }
  }
}

describe('platform: bodyless operations', () => {
  let t: TestPlatform;
  let ws: Workspace;
  before(async () => {
    t = await startPlatform({ env: BUDGETS });
    ws = await t.signup();
  });
  after(() => t.close());

  const call = (method: string, url: string, headers: Record<string, string>, payload?: string) =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: { ...bearer(ws.token), ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  test('every one accepts an absent body in each way clients send it, and refuses one that carries something', async () => {
    const operations = bodylessOperations('openapi/platform-v1.json', '');
    assert.equal(operations.length, 32);
    await checkEveryOperation(operations, (operation, headers, payload) =>
      call(operation.method, operation.path, headers, payload),
    );
  });

  test('revoke, reactivate and delete do their work whichever absent body they get', async () => {
    const { data } = ok(
      await call('POST', '/v1/api-secrets', json, JSON.stringify({ name: 'bodyless' })),
      201,
    );
    const revoked = ok(await call('POST', `/v1/api-secrets/${data.id}/revoke`, json, '{}'));
    assert.equal(revoked.data.is_active, false);
    const reactivated = ok(await call('POST', `/v1/api-secrets/${data.id}/reactivate`, json, 'null'));
    assert.equal(reactivated.data.is_active, true);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    assert.equal((await call('POST', `/v1/api-secrets/${data.id}/revoke`, form, '')).statusCode, 200);
    const deleted = await call('DELETE', `/v1/api-secrets/${data.id}`, json, '');
    assert.ok([200, 204].includes(deleted.statusCode), deleted.body);
    assert.equal((await call('GET', '/v1/api-secrets', {})).json().data.length, 0);
  });

  test('a refused body changes nothing: the key is still active', async () => {
    const { data } = ok(await call('POST', '/v1/api-secrets', json, JSON.stringify({ name: 'kept' })), 201);
    const refused = await call('POST', `/v1/api-secrets/${data.id}/revoke`, json, '{"now":true}');
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.code, 'parameter_invalid');
    const listed = ok(await call('GET', '/v1/api-secrets', {})).data.find((key: any) => key.id === data.id);
    assert.equal(listed.is_active, true);
  });

  test('an empty JSON body on a GET or a DELETE is no body', async () => {
    ok(await call('GET', '/v1/scenarios', json, ''));
    ok(await call('GET', '/v1/scenarios', json, '{}'));
    ok(
      await call(
        'POST',
        '/v1/memories',
        json,
        JSON.stringify({ user_memory_tag: 'bodies', memories: ['x'] }),
      ),
      201,
    );
    const deleted = await call('DELETE', '/v1/memories/tags/bodies', json, '{}');
    assert.ok([200, 204].includes(deleted.statusCode), deleted.body);
  });

  test('a body whose fields are all optional may be left out: PATCH and PUT with none or {} change nothing and answer the resource', async () => {
    const created = ok(
      await call('POST', '/v1/webhooks/endpoints', json, JSON.stringify({ url: 'https://example.com/hook' })),
      201,
    );
    const id = created.data?.id ?? created.id;
    for (const payload of [undefined, '{}', 'null', '']) {
      const patched = ok(
        await call('PATCH', `/v1/webhooks/endpoints/${id}`, payload === undefined ? {} : json, payload),
      );
      assert.equal((patched.data ?? patched).url, 'https://example.com/hook');
    }
    const workspace = ok(await call('PATCH', '/v1/workspace', json, '{}'));
    assert.ok(workspace);
  });

  test('a body with required fields is still required', async () => {
    const missing = await call('POST', '/v1/goals', json, '');
    assert.equal(missing.statusCode, 400);
    assert.ok(['body', 'name'].includes(missing.json().error.param), missing.body);
  });
});

describe('mailbox: bodyless operations', () => {
  let m: TestMailbox;
  before(async () => {
    m = await startMailbox({ env: BUDGETS });
  });
  after(() => m.close());

  test('every one accepts an absent body in each way clients send it, and refuses one that carries something', async () => {
    const operations = bodylessOperations('openapi/mailbox-v0.json', '/v0');
    assert.equal(operations.length, 18);
    await checkEveryOperation(operations, (operation, headers, payload) =>
      m.app.inject({
        method: operation.method,
        url: operation.path,
        headers: { authorization: `Bearer ${m.adminKey}`, ...headers },
        ...(payload === undefined ? {} : { payload }),
      }),
    );
  });

  test('an inbox is created from an empty JSON body, and deleted with {}', async () => {
    const created = await m.app.inject({
      method: 'POST',
      url: '/v0/inboxes',
      headers: { authorization: `Bearer ${m.adminKey}`, ...json },
      payload: '',
    });
    assert.equal(created.statusCode, 201, created.body);
    const inbox = created.json();
    const deleted = await m.app.inject({
      method: 'DELETE',
      url: `/v0/inboxes/${encodeURIComponent(inbox.inbox_id)}`,
      headers: { authorization: `Bearer ${m.adminKey}`, ...json },
      payload: '{}',
    });
    assert.ok([200, 204].includes(deleted.statusCode), deleted.body);
  });
});
