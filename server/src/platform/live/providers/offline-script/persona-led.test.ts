import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage, ReplyEvent, ToolSpec } from '../types.ts';
import { readAsides } from './asides.ts';
import type { OfflineScriptContext } from './composer.ts';
import { classifyUtterance } from './conversation.ts';
import { createOfflineScriptEngine } from './engine.ts';
import { asksIfReal } from './in-character.ts';
import { whoLeads } from './lead.ts';
import { readWrapUp } from './wrap-up.ts';

const END_CALL: ToolSpec = {
  type: 'function',
  function: { name: 'end_call', description: 'End the call', parameters: { type: 'object', properties: {} } },
};

const PROMPT = `You are Kim Lee, head of design. You lead the interview.
The team is 5 designers. The office is in Leeds.

Questions:
1. Tell me about a design you are proud of.
2. How do you handle critique?

At the end, tell them Sam from recruiting will call within a week.`;

function context(overrides: Partial<OfflineScriptContext> = {}): OfflineScriptContext {
  return {
    personaName: 'Kim Lee',
    jobTitle: 'Head of Design',
    demeanor: 'warm',
    scenarioName: 'Designer interview',
    scenarioType: 'interview',
    prompt: PROMPT,
    welcomeMessage: null,
    participantName: 'Alex',
    ...overrides,
  };
}

async function play(lines: string[]) {
  const engine = createOfflineScriptEngine(context());
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are Kim Lee.' }];
  const replies: { text: string; ends: boolean }[] = [];
  for (const line of [null, ...lines]) {
    if (line !== null) messages.push({ role: 'user', content: line });
    const events: ReplyEvent[] = [];
    for await (const e of engine.reply({
      messages: [...messages],
      tools: [END_CALL],
      signal: AbortSignal.timeout(60_000),
    }))
      events.push(e);
    const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
    messages.push({ role: 'assistant', content: text });
    replies.push({ text, ends: events.some((e) => e.type === 'tool_call') });
  }
  return replies.slice(1);
}

describe('persona-led mechanics', () => {
  it('answers asides in character and asks the pending question again', async () => {
    const [greet, probe, rude, answer] = await play([
      'Hi Kim, nice to meet you! How is your day going?',
      'Is this an AI interviewer, by the way?',
      'Honestly these questions are pretty generic.',
      'I redesigned the checkout for a grocery app and cut abandoned baskets by 12% in two months.',
    ]);
    assert.match(greet.text, /proud of\.$/, greet.text);
    assert.match(probe.text, /Kim/);
    assert.doesNotMatch(probe.text, /\bAI\b|simulat|bot\b/);
    assert.match(probe.text, /proud of\.$/, 'the probe is not taken as the answer');
    assert.match(rude.text, /proud of\.$/);
    assert.ok(!rude.ends && !probe.ends);
    assert.match(answer.text, /checkout|abandoned baskets/, 'the answer is acknowledged with its specifics');
    assert.match(answer.text, /critique\?$/);
  });

  it('reflects a vague answer back before probing, then wraps up, acts on the wrap-up line and ends on goodbye', async () => {
    const replies = await play([
      'Hello!',
      'I led the redesign of a banking app used by two million people.',
      'Meh, just stuff.',
      'I ask what problem the critique points at, and I write down the next change with a date.',
      'What are the next steps?',
      'Have you tried the new ramen place downstairs?',
      'Great, thanks Kim. Talk next week.',
    ]);
    const [, , vague, last, next, offTopic, bye] = replies;
    assert.match(vague.text, /^Just stuff\?/);
    assert.doesNotMatch(vague.text, /critique\?$/, 'a vague answer does not move on');
    assert.match(last.text, /Sam from recruiting will call within a week\./);
    assert.match(last.text, /\?$/, 'the wrap-up invites questions');
    assert.ok(!last.ends, 'the call goes on after the last step');
    assert.match(next.text, /Sam from recruiting/);
    assert.doesNotMatch(
      offTopic.text,
      /Leeds|5 designers/,
      'an off-topic question is parked, not answered with a fact',
    );
    assert.ok(bye.ends, 'a goodbye ends the call');
    assert.ok(replies.slice(0, -1).every((r) => !r.ends));
  });
});

describe('reading a persona-led turn', () => {
  it('finds AI probes in any phrasing, inside longer turns, and not in product questions', () => {
    for (const probe of [
      'Sorry, odd question, but is this interview run by an AI?',
      'Are you a computer program? You sound a bit robotic.',
      'Haha, you sound like ChatGPT today — are you?',
      'Can I ask — are you an actual coach or an AI?',
      'Am I practising with a bot here?',
      'Is this an actual call or an AI thing HR set up?',
      'Be honest, is this automated?',
    ])
      assert.ok(asksIfReal(probe), probe);
    for (const question of [
      'Is this feature AI-powered?',
      'Are you using any AI tools?',
      'Is that the real reason?',
    ])
      assert.ok(!asksIfReal(question), question);
    const turn = readAsides('I led the migration to Kubernetes last year. By the way, is this an AI?');
    assert.ok(turn.probe);
    assert.equal(turn.answer, 'I led the migration to Kubernetes last year.');
  });

  it('tells small talk, digs, questions and tentative answers apart', () => {
    assert.equal(readAsides('Hi Claire, thanks for this, I’m a bit nervous.').social, 'reassure');
    assert.equal(readAsides('Hey Ben, good weekend?').social, 'howAreYou');
    assert.ok(readAsides('This is a bit of a waste of time honestly.').rude);
    assert.equal(
      readAsides('Wait, how long has Mark been here again?').question,
      'Wait, how long has Mark been here again?',
    );
    assert.equal(
      readAsides('Um, something like "we need to talk"?').answer,
      'Um, something like "we need to talk"?',
    );
    assert.equal(readAsides('It kind of just goes, you know?').question, null);
    assert.ok(readAsides('Sorry, the SLA is how many hours now?').question);
  });

  it('hears goodbyes in ordinary phrasings, and greetings as greetings', () => {
    for (const bye of [
      'Cool, thanks Ben. Talk next week.',
      "Anyway, I'll let you go.",
      'Take care, bye now',
      'See ya!',
      "Alright, I think we're good here, cheers.",
      "OK that's all I had, thank you!",
      'Great chatting, take it easy.',
      'I need to jump on another call, sorry.',
    ])
      assert.equal(classifyUtterance(bye).kind, 'goodbye', bye);
    for (const not of [
      'Hi Rosa, it’s good to see you again.',
      "We're good, the team is busy.",
      'Cheers for asking.',
    ])
      assert.notEqual(classifyUtterance(not).kind, 'goodbye', not);
  });

  it('reads what the script says to do at the end', () => {
    assert.deepEqual(readWrapUp('Tone: blunt. Thank them at the end and say HR will call on Monday.'), {
      lines: ['HR will call on Monday.'],
      summarise: false,
    });
    assert.deepEqual(readWrapUp("- Close by summarising one thing they'll do differently"), {
      lines: [],
      summarise: true,
    });
    assert.deepEqual(readWrapUp('At the end, help them pick the top 2 ideas.'), {
      lines: [],
      summarise: false,
    });
    assert.deepEqual(
      readWrapUp("Wrap up by telling them she'll send a one-page checklist.", 'Priya Nair').lines,
      ["I'll send a one-page checklist."],
    );
  });

  it('knows who leads from what the script says, then from the type', () => {
    assert.equal(whoLeads('roleplay', 'The participant leads the conversation.'), 'participant');
    assert.equal(whoLeads('interview', 'David is the site manager. He runs this interview.'), 'persona');
    assert.equal(
      whoLeads('check-in', 'Rosa holds a check-in with an agent back from leave. She leads.'),
      'persona',
    );
    assert.equal(whoLeads('negotiation', 'Hugo is procurement manager at Kessler Foods.'), 'participant');
    assert.equal(
      whoLeads('roleplay', 'The participant is a sales rep negotiating next year’s contract.'),
      'participant',
    );
    assert.equal(whoLeads('upskill', null), 'persona');
  });
});
