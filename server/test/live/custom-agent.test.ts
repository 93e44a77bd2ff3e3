// End to end with a custom agent: a local OpenAI-compatible streaming server plays the customer's
// endpoint; a local receiver serves the scenario's custom functions and checks their signatures
// with its own HMAC code. Covers tool calls (success and every failure kind), the filler notice on a
// slow first token, the retry after timeout_s, the request the customer receives (its own
// credentials only, the system prompt with guardrails last and no goals), and meeting creation
// refusing a base_url that resolves to a blocked address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { type ApiClient, type ListeningPlatform, ok, type TestPlatform } from '../harness.ts';
import {
  type AgentReply,
  type AgentRequest,
  createMeeting,
  createScenario,
  eventsOf,
  type FakeAgent,
  type FunctionReceiver,
  Participant,
  startFakeAgent,
  startFunctionReceiver,
  startIsolatedPlatform,
  startLivePlatform,
  subscribeAll,
  uploadRecording,
} from './helpers.ts';

const FUNCTION_SECRET = 'fn-signing-secret-0123456789';
const CUSTOMER_KEY = 'sk-customer-000000000001';
const GUARDRAIL = 'GUARDRAIL-TEXT: never discuss salary numbers.';

let t: ListeningPlatform;
let api: ApiClient;
let agent: FakeAgent;
let receiver: FunctionReceiver;
const seen = new Map<string, number>();

function script(request: AgentRequest): AgentReply {
  const messages = request.body.messages as Array<{ role: string; content: string | null }>;
  const last = messages[messages.length - 1]!;
  const usage = { prompt_tokens: 50, completion_tokens: 5 };
  if (last.role === 'tool') return { text: ['Result: ', String(last.content)], usage };
  const text = String(last.content);
  const times = (seen.get(text) ?? 0) + 1;
  seen.set(text, times);
  const lookup = /^lookup (\S+)( denied)?$/.exec(text);
  if (lookup) {
    return {
      toolCalls: [
        {
          id: `call_${lookup[1]}_${times}`,
          name: lookup[2] ? 'lookup_denied' : 'lookup_order',
          arguments: JSON.stringify({ order_id: lookup[1] }),
        },
      ],
    };
  }
  if (text === 'slow please') return { firstTokenDelayMs: 1_800, text: ['Sorry ', 'for the wait.'] };
  if (text === 'retry please') return times === 1 ? { hang: true } : { text: ['Second ', 'try.'] };
  if (text === 'goodbye') {
    return {
      text: ['Goodbye!'],
      toolCalls: [{ id: 'call_end', name: 'end_call', arguments: '{"reason":"done"}' }],
    };
  }
  return { text: ['Noted', '.'], usage };
}

before(async () => {
  agent = await startFakeAgent(script);
  receiver = await startFunctionReceiver(FUNCTION_SECRET, (args) => {
    switch (args?.order_id) {
      case '500':
        return { status: 500, body: '{"error":"boom"}' };
      case 'slow':
        return { delayMs: 600, body: '{"status":"late"}' };
      case 'junk':
        return { body: 'this is not json' };
      default:
        return { body: JSON.stringify({ order_id: args?.order_id, status: 'shipped' }) };
    }
  });
  t = await startLivePlatform();
  api = await t.workspace();
  await subscribeAll(api);
});
after(async () => {
  await t.close();
  await agent.close();
  await receiver.close();
});

async function customAgentScenario() {
  const { scenario, persona } = await createScenario(api, {
    custom_agent_enabled: true,
    custom_agent_config: {
      base_url: agent.baseUrl,
      api_key: CUSTOMER_KEY,
      model: 'my-model',
      timeout_s: 2,
      extra_headers: { 'X-Tenant': 'acme' },
    },
  });
  const fn = async (name: string, secret: string) => {
    const created = ok(
      await api.call('POST', '/custom-functions', {
        name,
        description: 'Looks up an order.',
        parameters_schema: {
          type: 'object',
          properties: { order_id: { type: 'string' } },
          required: ['order_id'],
        },
        webhook_url: receiver.url,
        webhook_secret: secret,
        timeout_ms: 300,
      }),
      201,
    ).data;
    ok(await api.call('POST', `/scenarios/${scenario.id}/custom-functions/${created.id}/attach`), 200);
  };
  await fn('lookup_order', FUNCTION_SECRET);
  await fn('lookup_denied', 'another-secret-value-000000');
  const guardrail = ok(
    await api.call('POST', '/guardrails', { guardrail_name: 'no-salary', guardrail_prompt: GUARDRAIL }),
    201,
  );
  const guardrailId = guardrail.data?.id ?? guardrail.id;
  const attached = await api.call('POST', `/scenarios/${scenario.id}/guardrails/${guardrailId}/attach`);
  assert.ok(attached.statusCode === 200 || attached.statusCode === 201, attached.body);
  return { scenario, persona };
}

describe('custom agent over the realtime protocol', () => {
  test('tools, filler, retry, credentials, prompt, transcript, events and recording', async () => {
    const { scenario, persona } = await customAgentScenario();
    const meeting = await createMeeting(api, scenario.id, { note_context: 'NOTE: focus on databases.' });
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    assert.equal((await p.next('agent.message')).text, 'Hi, I am Jane. Shall we begin?');

    // A custom function call: signed, its JSON result goes back to the model.
    t.clock.advance(3_000);
    let mark = p.messages.length;
    const shipped = await p.say('lookup 42');
    assert.equal(shipped.text, 'Result: {"order_id":"42","status":"shipped"}');
    const tools = p.since(mark).filter((m) => m.type === 'tool');
    assert.deepEqual(
      tools.map((m) => [m.name, m.status]),
      [
        ['lookup_order', 'started'],
        ['lookup_order', 'completed'],
      ],
    );
    for (const tool of tools) {
      assert.deepEqual(
        Object.keys(tool).sort(),
        ['call_id', 'name', 'status', 'turn_id', 'type'],
        'no arguments or results',
      );
    }
    const call = receiver.calls.at(-1)!;
    assert.equal(call.signatureValid, true);
    assert.deepEqual(call.body.data.arguments, { order_id: '42' });
    assert.equal(call.body.meeting_id, meeting.id);
    assert.equal(call.body.function.name, 'lookup_order');

    // Failures come back to the model as error results, and the call goes on.
    for (const [utterance, type] of [
      ['lookup 500', 'http_error'],
      ['lookup slow', 'timeout'],
      ['lookup junk', 'invalid_response'],
      ['lookup 7 denied', 'http_error'],
    ] as const) {
      mark = p.messages.length;
      const answer = await p.say(utterance);
      const result = JSON.parse(answer.text.replace(/^Result: /, ''));
      assert.equal(result.error.type, type, utterance);
      assert.ok(p.since(mark).some((m) => m.type === 'tool' && m.status === 'failed'));
    }
    assert.equal(receiver.calls.at(-1)!.signatureValid, false, 'the receiver refused the wrong signature');
    assert.equal((await p.say('hello')).text, 'Noted.');

    // A slow first token: the filler notice comes before the first delta.
    mark = p.messages.length;
    const slow = await p.say('slow please');
    assert.equal(slow.text, 'Sorry for the wait.');
    const turn = p
      .since(mark)
      .filter((m) => m.turn_id === slow.turn_id)
      .map((m) => m.type);
    assert.equal(turn[0], 'filler');
    assert.ok(turn.indexOf('filler') < turn.indexOf('agent.delta'));

    // No reply within timeout_s: the request is sent once more.
    const before = agent.requests.length;
    mark = p.messages.length;
    const retried = await p.say('retry please');
    assert.equal(retried.text, 'Second try.');
    const retryRequests = agent.requests.slice(before);
    assert.equal(retryRequests.length, 2);
    assert.deepEqual(retryRequests[0]!.body.messages, retryRequests[1]!.body.messages);
    assert.ok(!p.since(mark).some((m) => m.type === 'error'));

    t.clock.advance(60_000);
    const bye = await p.say('goodbye');
    assert.equal(bye.text, 'Goodbye!');
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'agent_ended');
    assert.equal(ended.duration_seconds, 63);

    // What the customer's endpoint received: its own credentials only, the conversation, the tools.
    for (const request of agent.requests) {
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${CUSTOMER_KEY}`);
      assert.equal(request.headers['x-tenant'], 'acme');
      assert.equal(request.body.model, 'my-model');
      assert.equal(request.body.stream, true);
      const raw = JSON.stringify(request);
      assert.ok(!raw.includes(api.key), 'the workspace API key is never sent');
      assert.ok(!raw.includes('SECRET-GOAL-INSTRUCTIONS'), 'goals are never sent');
      assert.ok(!raw.includes(FUNCTION_SECRET), 'function secrets are never sent');
      const names = request.body.tools.map((tool: { function: { name: string } }) => tool.function.name);
      assert.equal(names[0], 'end_call');
      assert.deepEqual(names.slice(1).sort(), ['lookup_denied', 'lookup_order']);
    }
    const system = agent.requests[0]!.body.messages[0];
    assert.equal(system.role, 'system');
    assert.ok(system.content.startsWith(`You are ${persona.name}, ${persona.job_title}.`));
    assert.ok(system.content.includes('NOTE: focus on databases.'));
    assert.ok(system.content.includes('Ask about a system they designed.'));
    assert.ok(system.content.trimEnd().endsWith(GUARDRAIL), 'the guardrails block comes last');
    assert.ok(!system.content.includes('no-salary'), 'guardrail names are never shown');
    const second = agent.requests[1]!.body.messages;
    assert.equal(second.at(-2).tool_calls[0].function.name, 'lookup_order');
    assert.equal(second.at(-1).role, 'tool');

    await uploadRecording(t, meeting.id, meeting.room_token);
    await createPlatformJobRunner(t.deps).drain();

    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.status, 'ended');
    assert.equal(read.agent_provider, 'custom_agent');
    assert.equal(read.end_reason, 'agent_ended');
    assert.equal(read.Scenario.custom_agent_config.api_key, '****0001', 'the key is masked on read');
    const lines = read.sentenced_transcripts.map(
      (s: { speaker: string; message: string }) => `${s.speaker}: ${s.message}`,
    );
    assert.equal(lines[0], 'agent: Hi, I am Jane. Shall we begin?');
    assert.equal(lines[1], 'user: lookup 42');
    assert.equal(lines[2], 'agent: Result: {"order_id":"42","status":"shipped"}');
    assert.equal(lines.at(-1), 'agent: Goodbye!');
    assert.equal(read.sentenced_transcripts[1].start_duration, '00:03');
    assert.equal(read.participants[0].left_at !== null, true);

    const events = (await eventsOf(t.deps, meeting.id)).map((e) => e.event);
    assert.deepEqual(
      events.filter((e) => e !== 'recording.ready'),
      [
        'meeting.created',
        'participant.joined',
        'participant.left',
        'meeting.ended',
        'transcript.ready',
        'session.analysis_complete',
      ],
    );
    assert.ok(events.includes('recording.ready'));
    const recording = ok(await api.call('GET', `/recordings/url-with-thumbnail/${meeting.id}`), 200).data;
    assert.equal((await fetch(recording.url)).status, 200);

    const usage = ok(await api.call('GET', '/usage'), 200).data;
    const custom = usage.by_provider.find((row: { provider: string }) => row.provider === 'custom_agent');
    assert.equal(custom.meetings, 1);
    assert.equal(custom.session_seconds, 63);
    assert.equal(
      custom.prompt_tokens + custom.completion_tokens,
      0,
      'no model tokens are metered for custom agents',
    );
  });

  test('an agent that never answers: the retry fails too, the room is told, the call goes on', async () => {
    const silent = await startFakeAgent(() => ({ hang: true }));
    try {
      const { scenario } = await createScenario(api, {
        custom_agent_enabled: true,
        custom_agent_config: { base_url: silent.baseUrl, timeout_s: 1 },
      });
      const meeting = await createMeeting(api, scenario.id);
      const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
      await p.join();
      await p.next('agent.message');
      p.send({ type: 'utterance', text: 'hello?', final: true });
      const error = await p.next('error');
      assert.equal(error.code, 'agent_unavailable');
      assert.equal(error.fatal, false);
      assert.equal(silent.requests.length, 2);
      assert.equal(
        silent.requests[0]!.headers.authorization,
        undefined,
        'no Authorization without an api_key',
      );
      p.send({ type: 'leave' });
      assert.equal((await p.next('ended')).reason, 'participant_left');
    } finally {
      await silent.close();
    }
  });
});

describe('custom agent base_url vetting at meeting creation', () => {
  let strict: TestPlatform;
  before(async () => {
    strict = await startIsolatedPlatform({ OUTBOUND_ALLOW_CIDRS: '' });
  });
  after(() => strict.close());

  for (const baseUrl of ['https://127.0.0.1/v1', 'https://10.0.0.1/v1', 'https://[::1]:8443/v1']) {
    test(`refuses ${baseUrl}`, async () => {
      const strictApi = await strict.workspace();
      const { scenario } = await createScenario(strictApi, {
        custom_agent_enabled: true,
        custom_agent_config: { base_url: baseUrl },
      });
      const response = await strictApi.call('POST', '/meetings', { scenario_id: scenario.id });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().error.param, 'custom_agent_config.base_url');
      const count = await strict.deps.db
        .selectFrom('meetings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scenario_id', '=', scenario.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });
  }
});
