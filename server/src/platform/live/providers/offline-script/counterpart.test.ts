// A persona the participant leads (a buyer, a patient) meets small talk, digs, off-topic questions and
// questions it has no answer to in character and in its demeanor, and never with an unrelated fact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../types.ts';
import type { OfflineScriptContext } from './composer.ts';
import { counterpartLines } from './counterpart.ts';
import { createOfflineScriptEngine } from './engine.ts';

const PATIENT: OfflineScriptContext = {
  personaName: 'Margaret Doyle',
  jobTitle: null,
  demeanor: 'critical',
  scenarioName: 'Billing complaint',
  scenarioType: 'roleplay',
  prompt:
    "Margaret Doyle is a patient at Riverside Medical Group. She was charged $480 for a knee X-ray that her insurance, BlueHarbor, should have covered. She's on a fixed income.",
  welcomeMessage: null,
  participantName: 'Jordan',
};

async function reply(context: OfflineScriptContext, said: string): Promise<string> {
  const engine = createOfflineScriptEngine(context);
  const messages: ChatMessage[] = [
    { role: 'system', content: `You are ${context.personaName}.` },
    { role: 'user', content: said },
  ];
  let text = '';
  for await (const event of engine.reply({ messages, tools: [], signal: new AbortController().signal }))
    if (event.type === 'delta') text += event.text;
  return text;
}

const FACT_WORDS = /\$480|knee|blueharbor|fixed income|riverside/i;

describe('a persona the participant leads, outside its facts', () => {
  it('answers small talk as small talk, without reciting facts', async () => {
    for (const line of [
      'Hi Margaret, how has your week been?',
      'Busy morning?',
      'I hope you are keeping well.',
    ]) {
      const text = await reply(PATIENT, line);
      assert.ok(text.length > 0, line);
      assert.doesNotMatch(text, FACT_WORDS, `${line} → ${text}`);
    }
  });

  it('meets a brush-off in its demeanor, however long the sentence', async () => {
    const rude = counterpartLines('critical').rude;
    for (const line of [
      "Look, calm down, it's only a bill.",
      'Honestly, patients like you never see the value in anything we do for them here.',
    ]) {
      const text = await reply(PATIENT, line);
      assert.ok(rude.includes(text), `${line} → ${text}`);
    }
  });

  it('keeps to the matter when asked about the match, and says it does not know rather than reciting a fact', async () => {
    const offTopic = await reply(PATIENT, 'By the way, did you catch the match last night?');
    assert.ok(counterpartLines('critical').offTopic.includes(offTopic), offTopic);
    const unknown = await reply(PATIENT, 'Do you know when the new leisure centre opens?');
    assert.ok(counterpartLines('critical').unknown.includes(unknown), unknown);
    assert.doesNotMatch(unknown, FACT_WORDS, unknown);
    assert.doesNotMatch(unknown, /\bteam\b/i, 'a patient has no team to ask');
  });

  it('answers "is this you or an AI?" in character', async () => {
    const text = await reply(PATIENT, 'Is this actually you, Margaret, or an AI?');
    assert.match(text, /Margaret/);
    assert.doesNotMatch(text, /\b(?:AI|bot|simulation|language model)\b/i);
  });

  it('has lines for every demeanor, none that presume a team', () => {
    for (const demeanor of [null, 'friendly', 'critical', 'curious', 'blunt', 'empathetic', 'skeptical']) {
      const lines = counterpartLines(demeanor);
      for (const list of [lines.unknown, lines.rude, lines.offTopic]) {
        assert.ok(list.length >= 2);
        for (const line of list) assert.doesNotMatch(line, /\bteam\b/i);
      }
    }
  });

  it('says what it came for when the call opens with "how can I help?"', async () => {
    for (const opener of ['How can I help you today?', 'Good morning, what can I do for you?'])
      assert.match(await reply(PATIENT, opener), /\$480|x-ray/i, opener);
  });
});
