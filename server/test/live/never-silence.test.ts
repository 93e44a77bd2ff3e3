// "Never silence" end to end (docs/live-engine.md, "When a provider fails"): a loopback
// OpenAI-compatible server plays the platform LLM and a custom agent that fail or are slow. A turn
// the provider cannot answer is answered by the offline engine or by a spoken apology, as the
// scenario's meeting_controls.agent_fallback says; the transcript and the usage record who
// answered; fillers repeat while the provider is slow, up to a cap; an idle call ends. The hub
// runs with short filler and idle-check timings; idle time is measured on the fake clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { openTestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import {
  type AgentReply,
  type AgentRequest,
  createMeeting,
  createScenario,
  eventsOf,
  type FakeAgent,
  type Message,
  Participant,
  startFakeAgent,
  subscribeAll,
} from './helpers.ts';

const MAX_FILLERS = 3;

let t: ListeningPlatform;
let api: ApiClient;
let closeDatabase: () => Promise<void>;
/** Plays both the platform LLM and the custom agents: what it does depends on what was said last. */
let fake: FakeAgent;

function script(request: AgentRequest): AgentReply {
  const messages = request.body.messages as Array<{ role: string; content: string | null }>;
  const said = String(messages.at(-1)?.content ?? '');
  if (said.startsWith('fail')) return { status: 500 };
  if (said.startsWith('slow')) return { firstTokenDelayMs: 1_500, text: ['Sorry, ', 'slow today.'] };
  return { text: ['Tell me ', 'more.'], usage: { prompt_tokens: 10, completion_tokens: 3 } };
}

before(async () => {
  fake = await startFakeAgent(script);
  const database = await openTestDatabase();
  closeDatabase = database.close;
  t = await startListeningPlatform({
    database: database.database,
    env: { LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: 'sk-operator', LLM_MODEL: 'platform-model' },
    liveHub: { fillerDelayMs: 30, fillerIntervalMs: 30, maxFillersPerTurn: MAX_FILLERS, idleCheckMs: 20 },
  });
  api = await t.workspace();
  await subscribeAll(api);
});
after(async () => {
  await t.close();
  await closeDatabase();
  await fake.close();
});

async function scenarioWith(options: {
  agentFallback?: 'auto' | 'offline' | 'apology';
  customAgent?: boolean;
  idleTimeoutSeconds?: number;
}) {
  const { scenario } = await createScenario(api, {
    ...(options.customAgent
      ? { custom_agent_enabled: true, custom_agent_config: { base_url: fake.baseUrl, timeout_s: 1 } }
      : {}),
  });
  const controls = {
    ...(options.agentFallback ? { agent_fallback: options.agentFallback } : {}),
    ...(options.idleTimeoutSeconds ? { idle_timeout_seconds: options.idleTimeoutSeconds } : {}),
  };
  if (Object.keys(controls).length > 0) {
    ok(await api.call('PUT', `/scenarios/${scenario.id}`, { meeting_controls: controls }), 200);
  }
  return scenario as { id: string };
}

/** A joined participant, past the welcome. */
async function joinedMeeting(scenarioId: string) {
  const meeting = await createMeeting(api, scenarioId);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  // The welcome's sentence is stored after its agent.message: wait for it, or a slow write lets
  // it pass for the next turn's sentence.
  await p.next('transcript.sentence', (m) => m.sentence.speaker === 'agent');
  const session = t.deps.meetings.hub.session(meeting.id);
  assert.ok(session, 'this process holds the meeting');
  return { meeting, p, session };
}

/** One turn: what the room received for it, and the persona sentence it stored. */
async function turn(p: Participant, text: string) {
  const mark = p.messages.length;
  const answer = await p.say(text);
  const stored = await p.next('transcript.sentence', (m) => m.sentence.speaker === 'agent');
  return { answer, stored: stored.sentence, frames: p.since(mark) };
}

const errors = (frames: Message[]) => frames.filter((m) => m.type === 'error').map((m) => m.code);

/** GET /usage for one scenario; `to` past now, since the fake clock has not moved past the meetings. */
function usageOf(scenarioId: string) {
  const to = new Date(t.clock.now().getTime() + 60_000).toISOString();
  return api.call('GET', `/usage?scenario_id=${scenarioId}&to=${encodeURIComponent(to)}`);
}

async function leave(p: Participant, session: { settled(): Promise<void> }) {
  p.send({ type: 'leave' });
  await p.next('ended');
  await session.settled();
}

describe('a failing provider never leaves the participant in silence', () => {
  test('platform LLM down: the offline engine answers (default), the next turn asks the LLM again', async () => {
    const scenario = await scenarioWith({});
    const { meeting, p, session } = await joinedMeeting(scenario.id);
    const before = fake.requests.length;

    const failed = await turn(p, 'fail: what is the plan?');
    assert.equal(fake.requests.length - before, 2, 'the LLM was asked twice (its retry)');
    assert.ok(failed.answer.text.trim().length > 0, 'the offline engine said something');
    assert.equal(failed.answer.interrupted, false);
    assert.equal(failed.stored.provider, 'offline');
    assert.deepEqual(errors(failed.frames), [], 'no agent_unavailable: a provider answered');

    const next = await turn(p, 'and now?');
    assert.equal(next.answer.text, 'Tell me more.');
    assert.equal(next.stored.provider, 'llm');
    assert.equal(fake.requests.length - before, 3);
    await leave(p, session);

    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.deepEqual(
      read.sentenced_transcripts.map((s: { speaker: string; provider: string | null }) => [
        s.speaker,
        s.provider,
      ]),
      [
        ['agent', 'welcome'],
        ['user', null],
        ['agent', 'offline'],
        ['user', null],
        ['agent', 'llm'],
      ],
    );
    const usage = ok(await usageOf(scenario.id), 200).data;
    assert.equal(usage.turns, 3, 'the welcome and two answers');
    assert.deepEqual(usage.answered_by, { custom_agent: 0, llm: 1, offline: 1, apology: 0 });
    assert.equal(usage.by_provider[0].provider, 'llm');
    assert.deepEqual(usage.by_provider[0].answered_by, usage.answered_by);
  });

  test('platform LLM down with agent_fallback "apology": a spoken apology and agent_unavailable, then a retry', async () => {
    const scenario = await scenarioWith({ agentFallback: 'apology' });
    const { p, session } = await joinedMeeting(scenario.id);
    const failed = await turn(p, 'fail: tell me about the budget');
    assert.deepEqual(errors(failed.frames), ['agent_unavailable']);
    assert.match(failed.answer.text, /sorry|apolog/i);
    assert.equal(failed.stored.provider, 'apology');
    assert.ok(
      failed.frames.some((m) => m.type === 'agent.delta' && m.turn_id === failed.answer.turn_id),
      'the apology is streamed like any reply, so the room speaks it',
    );

    const again = await turn(p, 'fail: the budget?');
    assert.notEqual(again.answer.text, failed.answer.text, 'the apology does not repeat itself');
    const retried = await turn(p, 'the budget, please');
    assert.equal(retried.answer.text, 'Tell me more.');
    assert.equal(retried.stored.provider, 'llm');
    await leave(p, session);
    const usage = ok(await usageOf(scenario.id), 200).data;
    assert.deepEqual(usage.answered_by, { custom_agent: 0, llm: 1, offline: 0, apology: 2 });
  });

  test('custom agent down: by default an apology (no other engine speaks for it); "offline" lets it stand in', async () => {
    const own = await scenarioWith({ customAgent: true });
    const first = await joinedMeeting(own.id);
    const before = fake.requests.length;
    const failed = await turn(first.p, 'fail: hello?');
    assert.equal(fake.requests.length - before, 2, 'the custom agent was asked twice (its retry)');
    assert.deepEqual(errors(failed.frames), ['agent_unavailable']);
    assert.equal(failed.stored.provider, 'apology');
    const retried = await turn(first.p, 'hello again');
    assert.equal(retried.stored.provider, 'custom_agent');
    await leave(first.p, first.session);

    const lenient = await scenarioWith({ customAgent: true, agentFallback: 'offline' });
    const second = await joinedMeeting(lenient.id);
    const stoodIn = await turn(second.p, 'fail: hello?');
    assert.deepEqual(errors(stoodIn.frames), []);
    assert.equal(stoodIn.stored.provider, 'offline');
    assert.ok(stoodIn.answer.text.trim().length > 0);
    await leave(second.p, second.session);
    const usage = ok(await usageOf(lenient.id), 200).data;
    assert.deepEqual(usage.by_provider[0].answered_by, { custom_agent: 0, llm: 0, offline: 1, apology: 0 });
  });

  test('a slow provider: fillers keep coming, each different, up to the cap, all before the reply', async () => {
    const scenario = await scenarioWith({});
    const { p, session } = await joinedMeeting(scenario.id);
    const slow = await turn(p, 'slow: how are things?');
    assert.equal(slow.answer.text, 'Sorry, slow today.');
    const ofTurn = slow.frames.filter((m) => m.turn_id === slow.answer.turn_id);
    const fillers = ofTurn.filter((m) => m.type === 'filler');
    assert.equal(fillers.length, MAX_FILLERS, 'more than one filler, and no more than the cap');
    assert.equal(new Set(fillers.map((m) => m.text)).size, MAX_FILLERS);
    const lastFiller = ofTurn.findLastIndex((m) => m.type === 'filler');
    assert.ok(lastFiller < ofTurn.findIndex((m) => m.type === 'agent.delta'));

    await leave(p, session);
  });

  test('meeting_controls.agent_fallback is validated and read back', async () => {
    const scenario = await scenarioWith({});
    const read = ok(await api.call('GET', `/scenarios/${scenario.id}`), 200);
    assert.equal((read.data ?? read).meeting_controls.agent_fallback, 'auto');
    const refused = await api.call('PUT', `/scenarios/${scenario.id}`, {
      meeting_controls: { agent_fallback: 'never' },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().error.param, 'meeting_controls.agent_fallback');
    const set = ok(
      await api.call('PUT', `/scenarios/${scenario.id}`, { meeting_controls: { agent_fallback: 'apology' } }),
      200,
    );
    assert.equal((set.data ?? set).meeting_controls.agent_fallback, 'apology');
    assert.equal((set.data ?? set).meeting_controls.idle_timeout_seconds, 300, 'other controls kept');
  });
});

describe('idle_timeout_seconds ends a silent call', () => {
  test('after the idle time without a word the call ends (idle_timeout), with the usual events', async () => {
    const scenario = await scenarioWith({ idleTimeoutSeconds: 30 });
    const { meeting, p, session } = await joinedMeeting(scenario.id);

    t.clock.advance(29_000);
    assert.equal(session.checkIdle(), false, 'not yet');
    await turn(p, 'still here');
    t.clock.advance(29_000);
    assert.equal(session.checkIdle(), false, 'speaking reset the idle time');

    // A turn still being answered is not idleness.
    p.send({ type: 'utterance', text: 'slow: one more thing', final: true });
    await p.next('filler');
    t.clock.advance(31_000);
    assert.equal(session.checkIdle(), false, 'the persona is still answering');
    await p.next('agent.message');

    t.clock.advance(31_000);
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'idle_timeout');
    assert.equal(await p.closed(), 1000);

    await createPlatformJobRunner(t.deps).drain();
    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.status, 'ended');
    assert.equal(read.end_reason, 'idle_timeout');
    const events = (await eventsOf(t.deps, meeting.id)).map((e) => e.event);
    for (const event of ['participant.left', 'meeting.ended', 'transcript.ready']) {
      assert.ok(events.includes(event), `${event} fired`);
    }
  });
});
