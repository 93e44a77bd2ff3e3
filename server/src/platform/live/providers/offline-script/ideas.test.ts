// A brainstorm persona builds on the participant's idea (in their words), adds what its scenario says
// that bears on it, and asks the question that takes the idea further.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../types.ts';
import type { OfflineScriptContext } from './composer.ts';
import { createOfflineScriptEngine } from './engine.ts';

const BRAINSTORM: OfflineScriptContext = {
  personaName: 'Zoe',
  jobTitle: 'Marketing Lead',
  demeanor: 'enthusiastic',
  scenarioName: 'Launch brainstorm',
  scenarioType: 'brainstorm',
  prompt:
    "Zoe is the marketing lead at Pennywise, a budgeting app for students.\n- Launch budget is £40,000\n- Freshers' fairs are the week of 15 September\n- Zoe thinks TikTok will work, but the CEO prefers campus ambassadors",
  welcomeMessage: null,
  participantName: 'Kit',
};

async function conversation(context: OfflineScriptContext, lines: string[]): Promise<string[]> {
  const engine = createOfflineScriptEngine(context);
  const messages: ChatMessage[] = [{ role: 'system', content: `You are ${context.personaName}.` }];
  const replies: string[] = [];
  for (const line of lines) {
    messages.push({ role: 'user', content: line });
    let text = '';
    for await (const event of engine.reply({
      messages: [...messages],
      tools: [],
      signal: new AbortController().signal,
    }))
      if (event.type === 'delta') text += event.text;
    messages.push({ role: 'assistant', content: text });
    replies.push(text);
  }
  return replies;
}

describe('a brainstorm persona and the participant’s ideas', () => {
  it('takes the idea up in the participant’s words, adds what bears on it and asks how to take it further', async () => {
    const [tiktok, stalls] = await conversation(BRAINSTORM, [
      'What about a TikTok challenge with student ambassadors?',
      "We could run stalls at freshers' fairs.",
    ]);
    assert.match(tiktok, /a TikTok challenge with student ambassadors/);
    assert.match(tiktok, /CEO prefers campus ambassadors/);
    assert.match(tiktok, /\?$/);
    // "we could run stalls" is said back as a noun phrase.
    assert.match(stalls, /running stalls at freshers' fairs/i);
    assert.match(stalls, /15 September/);
  });

  it('doubts an idea that what it knows speaks against', async () => {
    const [reply] = await conversation(
      {
        ...BRAINSTORM,
        prompt:
          "You're Omar at a bike-share company. You're open to anything but allergic to ideas that need city council approval, that takes 9 months.",
      },
      ['How about a new bike lane that needs city council approval?'],
    );
    assert.doesNotMatch(reply, /I like|Now we're talking|could really work/);
    assert.match(reply, /council approval, that takes 9 months/);
  });

  it('is only a brainstorm’s move: in a role-play "what about…" is a question', async () => {
    const [reply] = await conversation({ ...BRAINSTORM, scenarioType: 'roleplay' }, [
      'What about the budget?',
    ]);
    assert.match(reply, /£40,000/);
    assert.doesNotMatch(reply, /I like/);
  });
});
