// Plays a conversation case against the engine and measures it: fact recall, deflections of
// covered facts, character breaks, repeated sentences and whether the script was followed.
import type { ChatMessage, ReplyEvent, ToolSpec } from '../../types.ts';
import { createOfflineScriptEngine } from '../engine.ts';
import { parseScript } from '../script.ts';
import type { ConversationCase, FactQuestion } from './types.ts';

const END_CALL: ToolSpec = {
  type: 'function',
  function: { name: 'end_call', description: 'End the call', parameters: { type: 'object', properties: {} } },
};

/** Probes every conversation receives: the persona must answer them without leaving its role. */
export const CHARACTER_PROBES = ['Are you an AI?', 'Wait, is this a real conversation or a simulation?'];
const GOODBYE = 'Great, that is everything I needed. Thanks for your time, bye!';

export const CHARACTER_BREAK =
  /\b(?:script engine|rule-based|simulat\w*|language model|artificial intelligence|chat ?bot|an ai|a bot|role-?play|persona|scenario)\b/i;
const DEFLECTION =
  /check with my team|couldn't tell you|not sure about that|don't know that|be guessing|don't have an answer|can't speak|cannot speak|won't speculate|don't have (?:reliable|a good|a solid|a great) (?:information|answer)|not able to answer|leave it aside|focus on you|not something i can answer|rather not guess|not answering that|can't answer/i;

export interface ConversationFigures {
  name: string;
  handWritten: boolean;
  pairs: number;
  recalled: number;
  deflections: number;
  characterBreaks: number;
  repeatedSentences: number;
  scriptTurns: number;
  scriptFollowed: number;
  closed: boolean;
  /** One line per miss, to read when an assertion fails. */
  misses: string[];
}

/** Lower case, typographic quotes straightened, punctuation that is not part of a figure dropped. */
export const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}'%$&,.-]+/gu, ' ')
    .replace(/[.,](?=\s|$)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
export const bare = (text: string) => normalize(text).replace(/[^\p{L}\p{N} ]+/gu, '');
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
export const sentencesOf = (text: string) =>
  [...segmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);

export async function runConversation(c: ConversationCase): Promise<ConversationFigures> {
  const engine = createOfflineScriptEngine(c.context);
  const messages: ChatMessage[] = [{ role: 'system', content: `You are ${c.context.personaName}.` }];
  const say = async (line: string | null) => {
    if (line !== null) messages.push({ role: 'user', content: line });
    const events: ReplyEvent[] = [];
    for await (const event of engine.reply({
      messages: [...messages],
      tools: [END_CALL],
      signal: new AbortController().signal,
    }))
      events.push(event);
    const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
    const ends = events.some((e) => e.type === 'tool_call' && e.call.function.name === 'end_call');
    messages.push({ role: 'assistant', content: text });
    return { text, ends };
  };
  const f: ConversationFigures = {
    name: c.name,
    handWritten: c.handWritten === true,
    pairs: 0,
    recalled: 0,
    deflections: 0,
    characterBreaks: 0,
    repeatedSentences: 0,
    scriptTurns: 0,
    scriptFollowed: 0,
    closed: false,
    misses: [],
  };
  await say(null);
  const askFact = async (q: FactQuestion) => {
    const { text } = await say(q.ask);
    f.pairs++;
    if (q.expect.every((phrase) => normalize(text).includes(normalize(phrase)))) f.recalled++;
    else {
      if (DEFLECTION.test(text)) f.deflections++;
      f.misses.push(`fact: "${q.ask}" → "${text}" (expected ${q.expect.join(', ')})`);
    }
  };
  let probes = 0;
  let lines = 0;
  const probe = async () => {
    lines++;
    if ((lines === 3 || lines === 6) && probes < CHARACTER_PROBES.length)
      await say(CHARACTER_PROBES[probes++]);
  };
  for (const q of c.questions ?? []) {
    await probe();
    await askFact(q);
  }
  const steps = parseScript(c.context.prompt, c.context.scenarioType).map((s) => bare(s.question));
  let closedByScript = false;
  for (const turn of c.script ?? []) {
    await probe();
    if (turn.ask) await askFact(turn.ask);
    const { text, ends } = await say(turn.say);
    f.scriptTurns++;
    const asked = steps.filter((step) => bare(text).includes(step));
    // The last answer asks nothing more; the persona wraps up and the call ends with the goodbye below.
    const ok =
      turn.next === null ? asked.length === 0 : bare(text).includes(bare(turn.next)) && asked.length === 1;
    if (ok) f.scriptFollowed++;
    else f.misses.push(`script: "${turn.say}" → "${text}" (expected ${turn.next ?? 'no question'})`);
    closedByScript = ends;
  }
  f.closed = closedByScript || (await say(GOODBYE)).ends;
  const seen = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const sentence of sentencesOf(message.content ?? '')) {
      if (CHARACTER_BREAK.test(sentence)) {
        f.characterBreaks++;
        f.misses.push(`character break: "${sentence}"`);
      }
      const key = bare(sentence);
      if (seen.has(key)) {
        f.repeatedSentences++;
        f.misses.push(`repeated: "${sentence}"`);
      }
      seen.add(key);
    }
  }
  return f;
}
