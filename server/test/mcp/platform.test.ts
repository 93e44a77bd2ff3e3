import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createAuthoring } from '../fixtures/objects.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { connectMcp, postMcp, toolError } from './client.ts';

describe('platform MCP server at /mcp', () => {
  let t: ListeningPlatform;
  let ws: ApiClient;
  let client: Client;
  let scenarioId: string;

  before(async () => {
    t = await startListeningPlatform();
    ws = await t.workspace();
    ({ scenarioId } = await createAuthoring(ws));
    client = await connectMcp(t.baseUrl, ws.key);
  });
  after(async () => {
    await client?.close();
    await t?.close();
  });

  test('initialise announces tools, resources and prompts', () => {
    assert.equal(client.getServerVersion()?.name, 'understudy-platform');
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities?.tools && capabilities.resources && capabilities.prompts);
    assert.match(client.getInstructions() ?? '', /next_cursor/);
  });

  test('tools/list gives schemas from the routes and annotations from the method', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const get = byName.get('get_scenario');
    assert.deepEqual(get?.inputSchema.required, ['id']);
    assert.equal(get?.annotations?.readOnlyHint, true);
    assert.equal(get?.annotations?.idempotentHint, true);
    assert.equal(get?.outputSchema?.type, 'object');
    const create = byName.get('create_meeting');
    assert.equal(create?.annotations?.readOnlyHint, false);
    assert.equal(create?.annotations?.destructiveHint, false);
    assert.ok(create?.inputSchema.properties?.scenario_id, 'body fields are inputs');
    assert.ok(create?.inputSchema.properties?.idempotency_key);
  });

  test('a read tool answers what GET /v1 answers', async () => {
    const result = await client.callTool({ name: 'get_scenario', arguments: { id: scenarioId } });
    assert.equal(result.isError, undefined);
    const rest = ok(await ws.call('GET', `/scenarios/${scenarioId}`));
    assert.deepEqual(result.structuredContent, rest);
    const text = (result.content as { type: string; text: string }[])[0]!;
    assert.deepEqual(JSON.parse(text.text), rest);
  });

  test('a write tool creates the meeting and returns its join link, once per idempotency key', async () => {
    const args = { scenario_id: scenarioId, person_name: 'Ada', idempotency_key: `mcp-${Date.now()}` };
    const first = await client.callTool({ name: 'create_meeting', arguments: args });
    assert.equal(first.isError, undefined, JSON.stringify(first.content));
    const meeting = (
      first.structuredContent as { data: { id: string; meeting_url: string; room_token: string } }
    ).data;
    assert.equal(meeting.meeting_url, `${t.baseUrl}/meetings/${meeting.id}?t=${meeting.room_token}`);
    assert.ok(meeting.room_token);
    const again = await client.callTool({ name: 'create_meeting', arguments: args });
    assert.equal((again.structuredContent as { data: { id: string } }).data.id, meeting.id);
    ok(await ws.call('GET', `/meetings/${meeting.id}`));
  });

  test('an API error comes back as a tool error with its code', async () => {
    const result = await client.callTool({ name: 'create_meeting', arguments: { scenario_id: 'nope' } });
    assert.equal(result.isError, true);
    const { error } = toolError(result);
    assert.ok(['resource_not_found', 'parameter_invalid'].includes(error.code), error.code);
    assert.ok(error.message);
  });

  test('401 with a Bearer challenge without a key and with a bad key', async () => {
    const missing = await postMcp(t.baseUrl, {});
    assert.equal(missing.status, 401);
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer realm="understudy"/);
    assert.equal((await missing.json()).error.code, 'unauthorized');
    const bad = await postMcp(t.baseUrl, { authorization: 'Bearer svc_not_a_real_key' });
    assert.equal(bad.status, 401);
    assert.match(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    await assert.rejects(connectMcp(t.baseUrl, 'svc_wrong'));
  });

  test('a foreign Origin is refused, this host and loopback are not', async () => {
    const auth = { authorization: `Bearer ${ws.key}` };
    const foreign = await postMcp(t.baseUrl, { ...auth, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    const own = await postMcp(t.baseUrl, { ...auth, origin: t.baseUrl });
    assert.equal(own.status, 200);
    const local = await postMcp(t.baseUrl, { ...auth, origin: 'http://localhost:6274' });
    assert.equal(local.status, 200);
  });

  test('a dot or missing path argument is refused, never normalised into another route', async () => {
    // detach_guardrail {id: ".."} would otherwise become DELETE /v1/scenarios/{scenarioId}.
    const dots = await client.callTool({ name: 'detach_guardrail', arguments: { scenarioId, id: '..' } });
    assert.deepEqual(
      { code: toolError(dots).error.code, param: toolError(dots).error.param },
      { code: 'parameter_invalid', param: 'id' },
    );
    const missing = await client.callTool({ name: 'get_scenario', arguments: {} });
    assert.deepEqual(
      { code: toolError(missing).error.code, param: toolError(missing).error.param },
      { code: 'parameter_missing', param: 'id' },
    );
    ok(await ws.call('GET', `/scenarios/${scenarioId}`), 200);
    await assert.rejects(client.readResource({ uri: `understudy://meetings/%2E%2E/transcript` }));
  });

  test('GET and DELETE answer 405: the server is stateless', async () => {
    const response = await fetch(new URL('/mcp', t.baseUrl), {
      headers: { authorization: `Bearer ${ws.key}` },
    });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
  });
});
