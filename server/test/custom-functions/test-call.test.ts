// POST /v1/custom-functions/{id}/test (docs/guardrails-memories-functions.md, "Test call"): a real
// signed call through the SSRF-safe client to a loopback receiver that checks the signature with
// its own HMAC, the body a meeting sends (with `"test": true` and no meeting), and the answer
// shown as it came — a success, a refused signature, a non-JSON answer, an unreachable receiver.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { withoutResolvedAddress } from '../../src/platform/custom-functions/test-call.ts';
import { type ApiClient, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';
import { startFunctionReceiver } from '../live/helpers.ts';
import { createFunction } from './helpers.ts';

const SECRET = 'whsec_test_call_secret_0123456789';

let t: TestPlatform;
let api: ApiClient;

before(async () => {
  t = await startPlatform();
  api = await t.workspace();
});
after(() => t.close());

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('custom function test call', () => {
  test('signs the call like a meeting does and shows the receiver’s answer', async () => {
    const receiver = await startFunctionReceiver(SECRET, (args) => ({
      body: JSON.stringify({ status: 'shipped', order: args.order_id }),
    }));
    try {
      const fn = await createFunction(api, { webhook_url: receiver.url, webhook_secret: SECRET });
      const result = ok(
        await api.call('POST', `/custom-functions/${fn.id}/test`, { arguments: { order_id: '42' } }),
      ).data;
      assert.equal(result.ok, true);
      assert.equal(result.status, 200);
      assert.equal(result.error, null);
      assert.deepEqual(JSON.parse(result.response_body), { status: 'shipped', order: '42' });
      assert.equal(result.response_truncated, false);
      assert.ok(Number.isInteger(result.duration_ms) && result.duration_ms >= 0);

      assert.equal(receiver.calls.length, 1);
      const [call] = receiver.calls;
      assert.equal(call!.signatureValid, true);
      assert.equal(call!.body.type, 'function.call');
      assert.equal(call!.body.test, true);
      assert.deepEqual(call!.body.function, { id: fn.id, name: fn.name });
      assert.equal(call!.body.meeting_id, null);
      assert.equal(call!.body.scenario_id, null);
      assert.match(call!.body.tool_call_id, /^test_/);
      assert.deepEqual(call!.body.data, { arguments: { order_id: '42' } });
    } finally {
      await receiver.close();
    }
  });

  test('shows a refused signature, a non-JSON answer and an unreachable receiver as a meeting would get them', async () => {
    const receiver = await startFunctionReceiver(SECRET, () => ({ body: 'plain text, not JSON' }));
    try {
      // The receiver knows another secret: it refuses the signature with 401.
      const wrongSecret = await createFunction(api, { webhook_url: receiver.url });
      const refused = ok(
        await api.call('POST', `/custom-functions/${wrongSecret.id}/test`, { arguments: {} }),
      ).data;
      assert.equal(refused.ok, false);
      assert.equal(refused.status, 401);
      assert.equal(refused.response_body, '{"error":"invalid signature"}');
      assert.match(refused.error, /^http_error: /);
      assert.equal(receiver.calls.at(-1)!.signatureValid, false);

      const notJson = await createFunction(api, { webhook_url: receiver.url, webhook_secret: SECRET });
      const invalid = ok(
        await api.call('POST', `/custom-functions/${notJson.id}/test`, { arguments: {} }),
      ).data;
      assert.equal(invalid.ok, false);
      assert.equal(invalid.status, 200);
      assert.equal(invalid.response_body, 'plain text, not JSON');
      assert.match(invalid.error, /^invalid_response: /);
    } finally {
      await receiver.close();
    }

    const gone = await createFunction(api, {
      webhook_url: `http://127.0.0.1:${await closedPort()}/lookup`,
      webhook_secret: SECRET,
    });
    const unreachable = ok(
      await api.call('POST', `/custom-functions/${gone.id}/test`, { arguments: {} }),
    ).data;
    assert.equal(unreachable.ok, false);
    assert.equal(unreachable.status, null);
    assert.equal(unreachable.response_body, null);
    assert.match(unreachable.error, /^network_error: /);
  });

  test('refuses bad input and another workspace’s function', async () => {
    const fn = await createFunction(api);
    expectError(await api.call('POST', `/custom-functions/${fn.id}/test`, {}), 400, 'arguments');
    expectError(await api.call('POST', `/custom-functions/${fn.id}/test`, { arguments: [1] }), 400);
    const stranger = await t.workspace();
    expectError(await stranger.call('POST', `/custom-functions/${fn.id}/test`, { arguments: {} }), 404, 'id');
    const readOnly = (await t.createApiKey(api, { name: 'read', scopes: ['custom_functions:read'] })).secret;
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/custom-functions/${fn.id}/test`,
      headers: { authorization: `Bearer ${readOnly}` },
      payload: { arguments: {} },
    });
    expectError(response, 403);
  });
});

describe('test call errors', () => {
  test('do not reveal the internal address a refused name resolved to', () => {
    assert.equal(
      withoutResolvedAddress('network_error: db.internal (10.1.2.3) is in a blocked range (private)'),
      'network_error: db.internal is in a blocked range (private)',
    );
    assert.equal(
      withoutResolvedAddress('network_error: 10.1.2.3 is in a blocked range (private)'),
      'network_error: 10.1.2.3 is in a blocked range (private)',
    );
  });
});
