// End to end with the platform LLM (LLM_BASE_URL): the same fake OpenAI-compatible server, now
// configured by the operator. The request carries the operator's key and model; token usage is
// metered for the meeting; the model ends the call through end_call.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { type ApiClient, type ListeningPlatform, ok } from '../harness.ts';
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
  startLivePlatform,
  subscribeAll,
  uploadRecording,
} from './helpers.ts';

const LLM_KEY = 'sk-platform-operator-key';
const SECRET = 'platform-fn-secret-0000000';

let t: ListeningPlatform;
let api: ApiClient;
let llm: FakeAgent;
let receiver: FunctionReceiver;
let search: Server;
const searches: string[] = [];

function script(request: AgentRequest): AgentReply {
  const messages = request.body.messages as Array<{ role: string; content: string | null }>;
  const last = messages[messages.length - 1]!;
  const usage = { prompt_tokens: 120, completion_tokens: 30 };
  if (last.role === 'tool' && String(last.content).includes('results')) {
    return { text: ['Found: ', JSON.parse(String(last.content)).results[0].title], usage };
  }
  if (last.role === 'tool') {
    return { text: ['The weather ', 'is ', JSON.parse(String(last.content)).sky, '.'], usage };
  }
  if (last.content === 'search cats') {
    return { toolCalls: [{ id: 'call_s', name: 'web_search', arguments: '{"query":"cats"}' }], usage };
  }
  if (last.content === 'weather?') {
    return { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: '{"city":"Lisbon"}' }], usage };
  }
  if (last.content === 'that is all') {
    return {
      text: ['Thanks, ', 'goodbye.'],
      toolCalls: [{ id: 'call_end', name: 'end_call', arguments: '{"reason":"script_complete"}' }],
      usage,
    };
  }
  return { text: ['Tell me ', 'more.'], usage };
}

before(async () => {
  llm = await startFakeAgent(script);
  receiver = await startFunctionReceiver(SECRET, (args) => ({
    body: JSON.stringify({ city: args.city, sky: 'sunny' }),
  }));
  // A SearxNG-style JSON search API for web_search.
  search = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    searches.push(`${url.searchParams.get('q')}|${url.searchParams.get('format')}`);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        results: [{ title: 'All about cats', url: 'https://cats.example', content: 'Cats purr.' }],
      }),
    );
  });
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
  const searchUrl = `http://127.0.0.1:${(search.address() as AddressInfo).port}/search`;
  t = await startLivePlatform({
    LLM_BASE_URL: llm.baseUrl,
    LLM_API_KEY: LLM_KEY,
    LLM_MODEL: 'platform-model',
    SEARCH_URL: searchUrl,
  });
  api = await t.workspace();
  await subscribeAll(api);
});
after(async () => {
  await t.close();
  await llm.close();
  await receiver.close();
  search.close();
});

describe('platform LLM over the realtime protocol', () => {
  test('streams replies, calls a custom function, meters tokens and ends through end_call', async () => {
    const { scenario } = await createScenario(api, { session_options: { memory_enabled: true } });
    ok(
      await api.call('POST', '/memories', { user_memory_tag: 'crm:77', memories: ['Prefers Go over Java.'] }),
      201,
    );
    const fn = ok(
      await api.call('POST', '/custom-functions', {
        name: 'get_weather',
        description: 'Weather of a city.',
        parameters_schema: { type: 'object', properties: { city: { type: 'string' } } },
        webhook_url: receiver.url,
        webhook_secret: SECRET,
      }),
      201,
    ).data;
    ok(await api.call('POST', `/scenarios/${scenario.id}/custom-functions/${fn.id}/attach`), 200);
    const meeting = await createMeeting(api, scenario.id, { user_memory_tag: 'crm:77' });
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');

    const first = await p.say('I build payment systems.');
    assert.equal(first.text, 'Tell me more.');
    const deltas = p.messages.filter((m) => m.type === 'agent.delta' && m.turn_id === first.turn_id);
    assert.deepEqual(
      deltas.map((m) => m.text),
      ['Tell me ', 'more.'],
    );
    t.clock.advance(30_000);
    assert.equal((await p.say('weather?')).text, 'The weather is sunny.');
    assert.equal(receiver.calls.length, 1);
    assert.equal(receiver.calls[0]!.signatureValid, true);
    const searched = await p.say('search cats');
    assert.equal(searched.text, 'Found: All about cats');
    assert.deepEqual(searches, ['cats|json']);
    t.clock.advance(30_000);
    assert.equal((await p.say('that is all')).text, 'Thanks, goodbye.');
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'script_complete');

    for (const request of llm.requests) {
      assert.equal(request.headers.authorization, `Bearer ${LLM_KEY}`);
      assert.equal(request.body.model, 'platform-model');
      assert.equal(request.body.stream, true);
      assert.ok(!JSON.stringify(request.body).includes('SECRET-GOAL-INSTRUCTIONS'));
    }
    assert.deepEqual(
      llm.requests[0]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name),
      ['end_call', 'web_search', 'get_weather'],
    );
    const system = llm.requests[0]!.body.messages[0].content as string;
    assert.ok(system.includes('- Prefers Go over Java.'), 'the memory container is read when memory is on');

    await uploadRecording(t, meeting.id, meeting.room_token);
    // The analysis (LLM evaluator here) is not part of this test: only the meeting's own jobs run.
    await createPlatformJobRunner(t.deps).runOnce();

    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.agent_provider, 'llm');
    assert.equal(read.end_reason, 'script_complete');
    assert.equal(read.duration_seconds, 60);
    assert.deepEqual(
      read.sentenced_transcripts.map((s: { speaker: string }) => s.speaker),
      ['agent', 'user', 'agent', 'user', 'agent', 'user', 'agent', 'user', 'agent'],
    );
    assert.equal(read.sentenced_transcripts[3].start_duration, '00:30');
    assert.equal(read.participants.length, 1);
    assert.equal(read.participants[0].name, 'Sam Lee');
    assert.ok(read.participants[0].joined_at && read.participants[0].left_at);
    const recording = ok(await api.call('GET', `/recordings/url-with-thumbnail/${meeting.id}`), 200).data;
    assert.equal((await fetch(recording.url)).status, 200);
    assert.equal((await fetch(recording.thumbnail_url)).status, 200);
    const events = (await eventsOf(t.deps, meeting.id)).map((e) => e.event);
    assert.deepEqual(events.slice(0, 5), [
      'meeting.created',
      'participant.joined',
      'participant.left',
      'recording.ready',
      'meeting.ended',
    ]);
    assert.equal(events[5], 'transcript.ready');
    const queued = await t.deps.db
      .selectFrom('jobs')
      .select('name')
      .where('dedupe_key', '=', `analysis.run:${meeting.id}`)
      .executeTakeFirst();
    assert.equal(queued?.name, 'analysis.run', 'the analysis is queued after transcript.ready');

    const usage = ok(await api.call('GET', `/usage?scenario_id=${scenario.id}`), 200).data;
    assert.equal(usage.meetings, 1);
    assert.equal(usage.by_provider[0].provider, 'llm');
    // One model request per turn, two for each tool round; 120 + 30 tokens each.
    assert.equal(usage.prompt_tokens, 120 * llm.requests.length);
    assert.equal(usage.completion_tokens, 30 * llm.requests.length);
    assert.equal(usage.session_seconds, 60);
  });
});
