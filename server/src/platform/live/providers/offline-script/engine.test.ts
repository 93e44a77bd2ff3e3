import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMEANORS } from '../../../personas/schemas.ts';
import type { ChatMessage, ReplyEvent, ReplyProvider, ToolSpec } from '../types.ts';
import type { OfflineScriptContext } from './composer.ts';
import { chunkText, createOfflineScriptEngine } from './engine.ts';
import { CLOSING_MARKERS, FOLLOW_UP_MARKERS, PHRASING, templateMarker, WRAP_UP_MARKERS } from './phrasing.ts';
import { normalize } from './text.ts';

const END_CALL: ToolSpec = {
  type: 'function',
  function: { name: 'end_call', description: 'End the call', parameters: { type: 'object', properties: {} } },
};

const STEPS = [
  'Can you tell me about your background?',
  'Can you tell me about your experience with Kubernetes?',
  'Why do you want this job?',
];

function context(overrides: Partial<OfflineScriptContext> = {}): OfflineScriptContext {
  return {
    personaName: 'Jane Doe',
    jobTitle: 'Engineering Manager',
    demeanor: 'friendly',
    scenarioName: 'Backend Engineer Interview',
    scenarioType: 'interview',
    prompt:
      '## Questions\n1. Ask about their background.\n2. Probe their experience with Kubernetes.\n3. Why do you want this job?',
    welcomeMessage: 'Hi, I am Jane. Ready when you are.',
    participantName: 'Sam',
    ...overrides,
  };
}

async function collect(
  engine: ReplyProvider,
  messages: ChatMessage[],
  tools: ToolSpec[] = [END_CALL],
  signal = new AbortController().signal,
): Promise<ReplyEvent[]> {
  const events: ReplyEvent[] = [];
  for await (const event of engine.reply({ messages, tools, signal })) events.push(event);
  return events;
}

/** The reply ends by asking `question` (a lead-in may lower-case its first letter). */
const asks = (text: string, question: string) => normalize(text).endsWith(normalize(question));
const textOf = (events: ReplyEvent[]) => events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
const toolCalls = (events: ReplyEvent[]) => events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));

/** Plays the participant's lines against the engine, appending each reply as the runtime would. */
async function converse(engine: ReplyProvider, lines: string[], tools: ToolSpec[] = [END_CALL]) {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are Jane Doe.' },
    { role: 'assistant', content: 'Hi, I am Jane. Ready when you are.' },
  ];
  const replies: ReplyEvent[][] = [];
  for (const line of lines) {
    messages.push({ role: 'user', content: line });
    const events = await collect(engine, [...messages], tools);
    replies.push(events);
    messages.push({ role: 'assistant', content: textOf(events) });
  }
  return { messages, replies };
}

const LONG = [
  'Hi, thanks for having me today.',
  'In my last job I led the migration of our billing system to a new platform over two years.',
  'We ran about forty services on Kubernetes and I owned the deployment pipeline end to end.',
  'The mission of the company and the chance to work on large scale data pipelines excite me a lot.',
];

describe('offline script engine', () => {
  it('walks every step in order, wraps up, takes questions and then ends with an end_call tool call', async () => {
    const engine = createOfflineScriptEngine(context());
    assert.equal(engine.kind, 'offline');
    const { replies } = await converse(engine, [...LONG, 'No, that is all from me.']);
    const texts = replies.map(textOf);
    STEPS.forEach((question, i) => {
      assert.ok(asks(texts[i], question), `turn ${i} should ask "${question}": ${texts[i]}`);
    });
    assert.match(texts[1], /billing system/, 'the acknowledgement echoes the answer');
    assert.ok(!STEPS.some((q) => texts[3].includes(q)), 'the wrap-up asks no script question');
    assert.ok(
      WRAP_UP_MARKERS.some((m) => normalize(texts[3]).includes(m)),
      'it invites questions',
    );
    assert.deepEqual(toolCalls(replies[3]), [], 'the call goes on after the wrap-up');
    assert.ok(CLOSING_MARKERS.some((m) => normalize(texts[4]).includes(m)));
    assert.deepEqual(
      toolCalls(replies[4]).map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
      [['end_call', { reason: 'script_complete' }]],
    );
    for (const events of replies) {
      assert.ok(!events.some((e) => e.type === 'usage'), 'no usage: no model tokens are spent');
      assert.ok(events.filter((e) => e.type === 'delta').length > 1, 'a reply streams as several deltas');
    }
    assert.deepEqual(replies.slice(0, 3).map(toolCalls), [[], [], []]);
  });

  it('does not call end_call when the tool is not offered', async () => {
    const { replies } = await converse(createOfflineScriptEngine(context()), [...LONG, 'No.'], []);
    assert.deepEqual(toolCalls(replies[4]), []);
    assert.ok(CLOSING_MARKERS.some((m) => normalize(textOf(replies[4])).includes(m)));
  });

  it('follows up on a short answer only once per step', async () => {
    const engine = createOfflineScriptEngine(context());
    const { replies } = await converse(engine, [LONG[0], 'Not much, really.', 'Still not much.', 'Same.']);
    const [first, followUp, next, again] = replies.map(textOf);
    assert.ok(asks(first, STEPS[0]));
    assert.ok(!followUp.includes(STEPS[1]), 'a vague answer does not advance');
    assert.ok(
      PHRASING.friendly.followUps.some((f) => followUp.endsWith(f)),
      followUp,
    );
    assert.ok(asks(next, STEPS[1]), 'the second vague answer moves on');
    assert.ok(
      PHRASING.friendly.followUps.some((f) => again.endsWith(f)),
      'a new step earns its own follow-up',
    );
  });

  it('phrases the same moves differently per demeanor', async () => {
    const lines = [LONG[0], 'Not much, really.'];
    const friendly = (await converse(createOfflineScriptEngine(context({ demeanor: 'friendly' })), lines))
      .replies;
    const blunt = (await converse(createOfflineScriptEngine(context({ demeanor: 'blunt' })), lines)).replies;
    assert.notEqual(textOf(friendly[0]), textOf(blunt[0]));
    assert.ok(
      PHRASING.blunt.followUps.some((f) => textOf(blunt[1]).endsWith(f)),
      textOf(blunt[1]),
    );
    assert.ok(!PHRASING.friendly.followUps.some((f) => textOf(blunt[1]).includes(f)));
    const unknown = (await converse(createOfflineScriptEngine(context({ demeanor: 'sarcastic' })), lines))
      .replies;
    assert.ok(
      PHRASING.neutral.followUps.some((f) => textOf(unknown[1]).endsWith(f)),
      'unknown demeanor → neutral',
    );
  });

  it('is deterministic and stateless: a new engine replays the same reply for the same messages', async () => {
    const { messages } = await converse(createOfflineScriptEngine(context()), LONG.slice(0, 2));
    const pending = messages.slice(0, -1);
    const a = await collect(createOfflineScriptEngine(context()), pending);
    const b = await collect(createOfflineScriptEngine(context()), pending);
    assert.deepEqual(a, b);
    assert.equal(textOf(a), messages[messages.length - 1].content);
  });

  it('stops streaming when the signal is aborted', async () => {
    const engine = createOfflineScriptEngine(context());
    const messages: ChatMessage[] = [
      { role: 'assistant', content: 'Hi, I am Jane. Ready when you are.' },
      { role: 'user', content: 'Hello!' },
    ];
    const controller = new AbortController();
    const seen: ReplyEvent[] = [];
    for await (const event of engine.reply({ messages, tools: [END_CALL], signal: controller.signal })) {
      seen.push(event);
      controller.abort();
    }
    assert.equal(seen.length, 1);
    assert.ok((await collect(engine, messages)).length > 1, 'the full reply has more than one event');
    assert.deepEqual(await collect(engine, messages, [END_CALL], AbortSignal.abort()), []);
  });

  it('closes and ends the call when the participant says goodbye', async () => {
    const { replies } = await converse(createOfflineScriptEngine(context()), [
      LONG[0],
      'Sorry, I have to go now.',
    ]);
    assert.deepEqual(JSON.parse(toolCalls(replies[1])[0].function.arguments), {
      reason: 'participant_ended',
    });
    assert.ok(!STEPS.some((q) => textOf(replies[1]).includes(q)));
  });

  it('repeats the pending question, waits through silence and answers questions in character', async () => {
    const engine = createOfflineScriptEngine(context());
    const { replies } = await converse(engine, [
      LONG[0],
      'Sorry, can you repeat that?',
      '',
      'Who are you exactly?',
      'Are you a real person?',
      LONG[1],
    ]);
    const texts = replies.map(textOf);
    for (const text of texts.slice(1, 5)) assert.ok(asks(text, STEPS[0]), text);
    assert.match(texts[3], /Jane Doe, Engineering Manager/);
    assert.doesNotMatch(texts[4], /script engine|simulat|language model|\bAI\b/, 'stays in character');
    assert.match(texts[4], /Jane/);
    assert.ok(asks(texts[5], STEPS[1]), 'a real answer still advances afterwards');
    assert.equal(new Set(texts).size, texts.length, 'no reply is said twice');
  });

  it('a persona cast as the candidate answers the panel, asked or told to tell, and asks nothing of its own', async () => {
    const engine = createOfflineScriptEngine(
      context({
        prompt: `You are Grace Mensah, a candidate interviewing for the Ward Manager post. The participant is on the interview panel.
- Proudest achievement: you cut pressure ulcers on your ward from 9 a year to 2
- Notice period is 8 weeks`,
        welcomeMessage: 'Hello, nice to meet you all.',
      }),
    );
    const { replies } = await converse(engine, [
      'Tell us about your proudest achievement.',
      "I'm curious about your notice period.",
    ]);
    const [proud, notice] = replies.map(textOf);
    assert.match(proud, /pressure ulcers/);
    assert.match(notice, /8 weeks/);
    assert.doesNotMatch(`${proud} ${notice}`, /background|interests you/i, 'no interviewer questions');
  });

  it('opens with the welcome message when nothing has been said', async () => {
    const engine = createOfflineScriptEngine(context({ welcomeMessage: null }));
    const text = textOf(await collect(engine, [{ role: 'system', content: 'You are Jane Doe.' }]));
    assert.match(text, /Jane Doe/);
    assert.ok(!STEPS.some((q) => text.includes(q)));
  });

  it('keeps phrasing recognisable: markers never appear in other moves', () => {
    for (const demeanor of DEMEANORS) {
      const p = PHRASING[demeanor];
      const others = [...p.echo, ...p.plain, ...p.next, ...p.first, ...p.repeat, ...p.silence, ...p.skip];
      for (const marker of [...FOLLOW_UP_MARKERS, ...CLOSING_MARKERS]) {
        for (const other of others) assert.ok(!normalize(other).includes(marker), `${demeanor}: ${other}`);
      }
      for (const line of [...p.closing, ...p.goodbye, ...p.followUps]) assert.ok(templateMarker(line), line);
    }
  });

  it('streams word groups that concatenate to the full text', () => {
    const text = 'One two three four five six seven eight nine.';
    const chunks = chunkText(text);
    assert.ok(chunks.length > 1);
    assert.equal(chunks.join(''), text);
  });
});
