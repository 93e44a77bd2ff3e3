// GET /v1/scenarios/{id}/prompt-preview (docs/authoring.md, "Prompt preview"): the system prompt
// the live engine's own builder makes for a meeting of the scenario — persona, script, session
// context, remembered facts, tools and the guardrails block — byte for byte what a meeting started
// with the same inputs gets at its first join; goals never in it; scopes and isolation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ApiClient, expectError, type ListeningPlatform, ok } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from '../live/helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;

before(async () => {
  t = await startLivePlatform();
  api = await t.workspace();
});
after(() => t.close());

async function authoredScenario() {
  const { scenario, persona } = await createScenario(api, {
    prompt: '## Questions\n1. Ask about the ledger migration.',
    session_options: { memory_enabled: true },
  });
  const guardrail = ok(
    await api.call('POST', '/guardrails', {
      guardrail_name: `no-salary-${Date.now()}`,
      guardrail_prompt: 'Never discuss salary figures.',
    }),
    201,
  );
  const guardrailId = guardrail.data?.id ?? guardrail.id;
  ok(await api.call('POST', `/scenarios/${scenario.id}/guardrails/${guardrailId}/attach`, {}));
  const fn = ok(
    await api.call('POST', '/custom-functions', {
      name: `lookup_order_${Date.now()}`,
      description: 'Looks up an order.',
      webhook_url: 'https://tools.example.com/lookup',
    }),
    201,
  ).data;
  ok(await api.call('POST', `/scenarios/${scenario.id}/custom-functions/${fn.id}/attach`));
  ok(
    await api.call('POST', '/memories', {
      user_memory_tag: `membership:${api.membershipId}`,
      memories: ['Prefers examples from fintech.'],
    }),
    201,
  );
  return { scenario, persona, functionName: fn.name as string };
}

describe('prompt preview', () => {
  test('is the prompt a meeting gets, with guardrails, memories and tools, and no goals', async () => {
    const { scenario, persona, functionName } = await authoredScenario();
    const query = 'person_name=Sam%20Lee&note_context=Focus%20on%20databases.';
    const preview = ok(await api.call('GET', `/scenarios/${scenario.id}/prompt-preview?${query}`));
    const prompt: string = preview.system_prompt;
    assert.match(prompt, new RegExp(`^You are ${persona.name}, Engineering Manager\\.`));
    assert.match(prompt, /with Sam Lee\./);
    assert.match(prompt, /## Script\n\n## Questions\n1\. Ask about the ledger migration\./);
    assert.match(prompt, /## Session context\n\nFocus on databases\./);
    assert.match(prompt, /- Prefers examples from fintech\./);
    assert.match(prompt, new RegExp(`## Tools[\\s\\S]*${functionName}`));
    assert.match(
      prompt,
      /## Guardrails[\s\S]*Never discuss salary figures\.$/,
      'the guardrails block comes last',
    );
    assert.doesNotMatch(prompt, /SECRET-GOAL-INSTRUCTIONS|Explains impact/);
    assert.deepEqual(preview.tools, ['end_call', functionName]);
    assert.equal(preview.memory_tag, `membership:${api.membershipId}`);

    // A meeting with the same inputs freezes exactly this prompt at its first join.
    const meeting = await createMeeting(api, scenario.id, { note_context: 'Focus on databases.' });
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    p.close();
    const sealed = await t.deps.db
      .selectFrom('meetings')
      .select('agent_prompt_sealed')
      .where('id', '=', meeting.id)
      .executeTakeFirstOrThrow();
    assert.equal(t.deps.secretBox.open(sealed.agent_prompt_sealed!), prompt);
  });

  test('reads another container when asked, and none when memory is off', async () => {
    const { scenario } = await authoredScenario();
    const other = ok(
      await api.call('GET', `/scenarios/${scenario.id}/prompt-preview?user_memory_tag=candidate:nobody`),
    );
    assert.doesNotMatch(other.system_prompt, /fintech/);
    assert.equal(other.memory_tag, 'candidate:nobody');
    ok(await api.call('PUT', `/scenarios/${scenario.id}`, { session_options: { memory_enabled: false } }));
    const off = ok(await api.call('GET', `/scenarios/${scenario.id}/prompt-preview`));
    assert.doesNotMatch(off.system_prompt, /fintech|What you remember/);
    assert.equal(off.memory_tag, null);
    assert.match(off.system_prompt, /with a participant\./);
    expectError(await api.call('GET', `/scenarios/${scenario.id}/prompt-preview?user_memory_tag=a%20b`), 400);
  });

  test('needs the scenario, guardrail and memory read scopes, and a scenario of the workspace', async () => {
    const { scenario } = await authoredScenario();
    const url = `/v1/scenarios/${scenario.id}/prompt-preview`;
    const scoped = (await t.createApiKey(api, { name: 'narrow', scopes: ['scenarios:read'] })).secret;
    const narrow = await t.app.inject({ url, headers: { authorization: `Bearer ${scoped}` } });
    expectError(narrow, 403);
    assert.equal(narrow.json().error.code, 'insufficient_scope');
    const enough = (
      await t.createApiKey(api, {
        name: 'enough',
        scopes: ['scenarios:read', 'guardrails:read', 'memories:read'],
      })
    ).secret;
    ok(await t.app.inject({ url, headers: { authorization: `Bearer ${enough}` } }));
    const user = await t.app.inject({ url, headers: { authorization: `Bearer ${api.token}` } });
    ok(user);
    const stranger = await t.workspace();
    expectError(await stranger.call('GET', `/scenarios/${scenario.id}/prompt-preview`), 404, 'id');
    expectError(await api.call('GET', '/scenarios/not-a-uuid/prompt-preview'), 404, 'id');
  });
});
