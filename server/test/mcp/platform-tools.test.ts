import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createAuthoring } from '../fixtures/objects.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { connectMcp, toolError } from './client.ts';

type Structured = Record<string, any>;

describe('platform MCP tools, resources and prompts', () => {
  let t: ListeningPlatform;
  let ws: ApiClient;
  let client: Client;
  let ids: Awaited<ReturnType<typeof createAuthoring>>;

  before(async () => {
    t = await startListeningPlatform();
    ws = await t.workspace();
    ids = await createAuthoring(ws);
    client = await connectMcp(t.baseUrl, ws.key);
  });
  after(async () => {
    await client?.close();
    await t?.close();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<Structured> {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Structured;
  }

  test('the issue’s tools are all listed, each with a description and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'list_scenarios',
      'get_scenario',
      'create_scenario',
      'update_scenario',
      'export_scenario',
      'list_personas',
      'get_persona',
      'list_goals',
      'get_goal',
      'create_goal',
      'attach_guardrail',
      'detach_guardrail',
      'search_memories',
      'add_memories',
      'delete_memory',
      'create_meeting',
      'get_meeting',
      'list_meetings',
      'end_meeting',
      'get_meeting_analysis',
      'rerun_analysis',
      'get_meeting_transcript',
      'list_webhook_deliveries',
      'redeliver_webhook',
      'list_people',
      'get_person_progress',
      'assign_practice',
      'list_assignments',
      'get_meeting_report',
    ]) {
      assert.ok(names.includes(name), name);
    }
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 30, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get('delete_memory')?.annotations?.destructiveHint, true);
    assert.equal(byName.get('update_scenario')?.annotations?.idempotentHint, true);
    assert.equal(byName.get('create_goal')?.annotations?.idempotentHint, false);
    assert.ok(byName.get('list_goals')?.inputSchema.properties?.cursor);
  });

  test('lists page by cursor: more goals than the limit come back over two calls', async () => {
    for (const n of [1, 2, 3])
      await call('create_goal', { name: `Paged goal ${n}`, instructions: 'Score 1-10.' });
    const first = await call('list_goals', { limit: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    assert.ok(first.next_cursor);
    const second = await call('list_goals', { limit: 2, cursor: first.next_cursor });
    const seen = [...first.data, ...second.data].map((goal: { id: string }) => goal.id);
    assert.equal(new Set(seen).size, seen.length, 'no goal twice');
    const all = ok(await ws.call('GET', '/goals'));
    assert.equal(seen.length, Math.min(4, all.length));
  });

  test('scenario tools: create, update, export, list', async () => {
    const created = await call('create_scenario', {
      name: 'MCP scenario',
      type: 'roleplay',
      persona_id: ids.personaId,
      goals: [ids.goalId],
    });
    const updated = await call('update_scenario', { id: created.id, name: 'MCP scenario, renamed' });
    assert.equal(updated.name, 'MCP scenario, renamed');
    const exported = await call('export_scenario', { id: created.id });
    assert.deepEqual(exported, ok(await ws.call('GET', `/scenarios/${created.id}/export`)));
    const listed = await call('list_scenarios', {});
    assert.ok(listed.data.some((item: { id: string }) => item.id === created.id));
    const persona = await call('get_persona', { id: ids.personaId });
    assert.equal(persona.id, ids.personaId);
  });

  test('a coach’s assistant assigns practice, finds what is overdue and reads progress and reports', async () => {
    ok(await ws.call('POST', '/people', { name: 'Dana Reyes', email: 'dana@example.com' }), 201);
    const kim = ok(await ws.call('POST', '/people', { name: 'Kim Park' }), 201).data;
    const found = await call('list_people', { q: 'dana' });
    assert.deepEqual(
      found.data.map((person: { name: string }) => person.name),
      ['Dana Reyes'],
    );
    const dana = found.data[0];
    const late = await call('assign_practice', {
      scenario_id: ids.scenarioId,
      person_ids: [dana.id],
      due_at: new Date(Date.now() - 60_000).toISOString(),
      note: 'Before Monday’s call.',
    });
    assert.equal(late.data.people[0].status, 'overdue');
    await call('assign_practice', { scenario_id: ids.scenarioId, person_ids: [kim.id] });
    const overdue = await call('list_assignments', { status: 'overdue' });
    assert.deepEqual(
      overdue.data.map((assignment: { id: string }) => assignment.id),
      [late.data.id],
    );
    const kims = await call('list_assignments', { person_id: kim.id });
    assert.equal(kims.data.length, 1);
    assert.equal(kims.data[0].people[0].person.name, 'Kim Park');

    const progress = await call('get_person_progress', { person_id: dana.id });
    assert.equal(progress.data.person.id, dana.id);
    assert.deepEqual(progress.data.meetings, []);
    const meeting = await call('create_meeting', { scenario_id: ids.scenarioId, person_id: dana.id });
    const report = await call('get_meeting_report', { id: meeting.data.id });
    assert.equal(report.data.status, 'pending');
    assert.equal(report.data.meeting.person_id, dana.id);
  });

  test('guardrails attach and detach through the scenario routes', async () => {
    const guardrail = ok(
      await ws.call('POST', '/guardrails', {
        guardrail_name: 'no-salary',
        guardrail_prompt: 'Never discuss salary.',
      }),
      201,
    );
    const guardrailId: string = guardrail.data?.id ?? guardrail.id;
    await call('attach_guardrail', { scenarioId: ids.scenarioId, id: guardrailId });
    const attached = ok(await ws.call('GET', `/scenarios/${ids.scenarioId}/guardrails`));
    assert.ok(JSON.stringify(attached).includes(guardrailId));
    await call('detach_guardrail', { scenarioId: ids.scenarioId, id: guardrailId });
    const detached = ok(await ws.call('GET', `/scenarios/${ids.scenarioId}/guardrails`));
    assert.ok(!JSON.stringify(detached).includes(guardrailId));
  });

  test('a tool takes absent, {} or null arguments alike, and refuses an unknown one by name', async () => {
    const raw = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ws.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_scenarios', arguments: null },
      }),
    });
    const answer = await raw.json();
    assert.notEqual(answer.result?.isError, true, JSON.stringify(answer));
    const viaNull = answer.result.structuredContent.data.map((item: { id: string }) => item.id);
    const viaEmpty = (await call('list_scenarios', {})).data.map((item: { id: string }) => item.id);
    assert.deepEqual(viaNull, viaEmpty);
    assert.ok(viaEmpty.includes(ids.scenarioId));
    const refused = await client.callTool({
      name: 'detach_guardrail',
      arguments: { scenarioId: ids.scenarioId, id: '1', force: true },
    });
    assert.equal(toolError(refused).error.param, 'force');
    assert.equal(toolError(refused).error.code, 'parameter_invalid');
  });

  test('memories: add facts, search by tag, delete', async () => {
    const added = await call('add_memories', {
      user_memory_tag: 'candidate:ada',
      memories: ['Prefers mornings.'],
    });
    const memoryId = added.data.created[0].id;
    const found = await call('search_memories', { user_memory_tag: 'candidate:ada' });
    assert.deepEqual(
      found.data.map((memory: { content: string }) => memory.content),
      ['Prefers mornings.'],
    );
    await call('delete_memory', { id: memoryId });
    assert.equal((await call('search_memories', { user_memory_tag: 'candidate:ada' })).data.length, 0);
  });

  test('meetings: create, get, list, end; analysis not ready is a tool error', async () => {
    const meeting = (await call('create_meeting', { scenario_id: ids.scenarioId })).data;
    assert.equal((await call('get_meeting', { id: meeting.id })).data.id, meeting.id);
    const listed = await call('list_meetings', { id: ids.scenarioId });
    assert.ok(listed.data.some((item: { id: string }) => item.id === meeting.id));
    const ended = await call('end_meeting', { id: meeting.id });
    assert.equal(ok(await ws.call('GET', `/meetings/${meeting.id}`)).data.status, ended.data.status);
    await call('get_meeting_transcript', { meetingId: meeting.id });
    const analysis = await client.callTool({
      name: 'get_meeting_analysis',
      arguments: { meetingId: meeting.id },
    });
    assert.equal(toolError(analysis).error.code, 'resource_not_found');
    const rerun = await client.callTool({ name: 'rerun_analysis', arguments: { meetingId: meeting.id } });
    // Nobody spoke: no complete transcript to analyse, the route's 409.
    assert.equal(toolError(rerun).error.code, 'resource_conflict');
  });

  test('webhook deliveries list and redeliver', async () => {
    const endpoint = ok(
      await ws.call('POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' }),
      201,
    );
    const endpointId: string = endpoint.data?.id ?? endpoint.id;
    await t.deps.db.transaction().execute((tx) =>
      t.deps.events.emit(tx, {
        accountId: ws.accountId,
        event: 'meeting.created',
        data: { meeting_id: crypto.randomUUID(), scenario_id: crypto.randomUUID() },
      }),
    );
    const delivery = await t.deps.db
      .selectFrom('deliveries')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    const redelivered = await call('redeliver_webhook', { deliveryId: String(delivery.id) });
    assert.equal(String(redelivered.data.id), String(delivery.id), 'queued again (202)');
    const listed = await call('list_webhook_deliveries', { id: endpointId });
    assert.deepEqual(
      listed,
      ok(await ws.call('GET', `/webhooks/endpoints/${endpointId}/deliveries?limit=25`)),
    );
    const endpoints = await call('list_webhook_endpoints', {});
    assert.ok(endpoints.data.some((item: { id: string }) => item.id === endpointId));
  });

  test('another workspace’s id is a tool error resource_not_found', async () => {
    const other = await t.workspace();
    const theirs = await createAuthoring(other);
    for (const [name, args] of [
      ['get_scenario', { id: theirs.scenarioId }],
      ['get_persona', { id: theirs.personaId }],
      ['create_meeting', { scenario_id: theirs.scenarioId }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(toolError(result).error.code, 'resource_not_found', name);
    }
  });

  test('a scoped key works inside its scopes and is refused outside them', async () => {
    const { secret } = await t.createApiKey(ws, { name: 'read scenarios', scopes: ['scenarios:read'] });
    const scoped = await connectMcp(t.baseUrl, secret);
    try {
      const read = await scoped.callTool({ name: 'get_scenario', arguments: { id: ids.scenarioId } });
      assert.notEqual(read.isError, true);
      const write = await scoped.callTool({
        name: 'create_meeting',
        arguments: { scenario_id: ids.scenarioId },
      });
      const { error } = toolError(write);
      assert.equal(error.code, 'insufficient_scope');
      assert.equal(error.status, 403);
    } finally {
      await scoped.close();
    }
  });

  test('resources: templates listed, read through the same GET', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate).sort(), [
      'understudy://meetings/{id}/analysis',
      'understudy://meetings/{id}/transcript',
      'understudy://scenarios/{id}/export',
    ]);
    const uri = `understudy://scenarios/${ids.scenarioId}/export`;
    const { contents } = await client.readResource({ uri });
    assert.equal(contents[0]?.uri, uri);
    assert.equal(contents[0]?.mimeType, 'application/json');
    assert.deepEqual(
      JSON.parse((contents[0] as { text: string }).text),
      ok(await ws.call('GET', `/scenarios/${ids.scenarioId}/export`)),
    );
    await assert.rejects(
      client.readResource({ uri: `understudy://meetings/${crypto.randomUUID()}/analysis` }),
      /resource_not_found/,
    );
    await assert.rejects(client.readResource({ uri: 'understudy://nothing/here' }), /Unknown resource/);
  });

  test('prompts: debrief-meeting and prepare-practice point at the resources', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), ['debrief-meeting', 'prepare-practice']);
    const debrief = await client.getPrompt({ name: 'debrief-meeting', arguments: { meeting_id: 'm-1' } });
    const uris = debrief.messages.map((message) => (message.content as { uri?: string }).uri).filter(Boolean);
    assert.deepEqual(uris, ['understudy://meetings/m-1/analysis', 'understudy://meetings/m-1/transcript']);
    const prepare = await client.getPrompt({
      name: 'prepare-practice',
      arguments: { scenario_id: ids.scenarioId },
    });
    assert.match(
      JSON.stringify(prepare.messages),
      new RegExp(`understudy://scenarios/${ids.scenarioId}/export`),
    );
    await assert.rejects(client.getPrompt({ name: 'debrief-meeting', arguments: {} }), /meeting_id/);
  });
});

describe('platform MCP tool calls spend the REST rate-limit budget', () => {
  let t: ListeningPlatform;
  after(async () => t?.close());

  test('once the per-minute budget is spent by tool calls, REST answers 429 too', async () => {
    t = await startListeningPlatform({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const ws = await t.workspace();
    const client = await connectMcp(t.baseUrl, ws.key);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const result = await client.callTool({ name: 'list_scenarios', arguments: {} });
        outcomes.push(result.isError ? toolError(result).error.code : 'ok');
      }
      assert.deepEqual(outcomes, ['ok', 'ok', 'ok', 'rate_limited']);
      assert.equal((await ws.call('GET', '/scenarios')).statusCode, 429);
    } finally {
      await client.close();
    }
  });
});
