// One persona turn: its state, the fillers that cover a slow start, and the provider rounds with
// the tool calls between them. The session (session.ts) starts, finishes and interrupts turns;
// what happens inside one is here.
import { randomUUID } from 'node:crypto';
import type { EndReason } from '../meetings/schemas.ts';
import type { ChatMessage, ReplyProvider, ToolCall, ToolSpec } from './providers/types.ts';
import type { SentenceProvider } from './tables.ts';

/** Tool rounds per turn: a model calling tools in a loop is cut off here. */
export const MAX_TOOL_ROUNDS = 4;

export interface Turn {
  id: string;
  controller: AbortController;
  /** Everything said in this turn so far. */
  text: string;
  /** Text not yet added to the conversation as an assistant message. */
  unpushed: string;
  startMs: number | null;
  output: boolean;
  finished: boolean;
  /** Who is speaking this turn: the provider being asked, a stand-in, or the apology. */
  answeredBy: SentenceProvider;
  fillers: number;
  fillerTimer: NodeJS.Timeout | undefined;
  /** Tool calls added to the conversation that still lack their result message. */
  pendingCalls: Map<string, string>;
}

export function newTurn(answeredBy: SentenceProvider): Turn {
  return {
    id: randomUUID(),
    controller: new AbortController(),
    text: '',
    unpushed: '',
    startMs: null,
    output: false,
    finished: false,
    answeredBy,
    fillers: 0,
    fillerTimer: undefined,
    pendingCalls: new Map(),
  };
}

export interface FillerPlan {
  /** First token later than this: a filler. */
  delayMs: number;
  /** Then another this often while nothing has been said yet… */
  intervalMs: number;
  /** …at most this many per turn. */
  max: number;
}

/** `say` a filler after the delay while the turn has said nothing, then every interval up to the cap. */
export function scheduleFillers(turn: Turn, plan: FillerPlan, say: () => void, delay = plan.delayMs): void {
  turn.fillerTimer = setTimeout(() => {
    if (turn.finished || turn.text !== '' || turn.fillers >= plan.max) return;
    turn.fillers += 1;
    say();
    if (turn.fillers < plan.max) scheduleFillers(turn, plan, say, plan.intervalMs);
  }, delay);
  turn.fillerTimer.unref?.();
}

export interface RoundHooks {
  /** The conversation, appended to as the rounds go. */
  messages: ChatMessage[];
  speak(text: string): void;
  /** The turn has produced something (text or a tool call). */
  markOutput(): void;
  tokens(promptTokens: number, completionTokens: number): void;
  runTool(call: ToolCall, endCall: (reason: EndReason) => void): Promise<string>;
}

/**
 * Up to MAX_TOOL_ROUNDS provider rounds with the tool calls between them; the end reason if a
 * tool ended the call. Throws what the provider throws.
 */
export async function runRounds(
  turn: Turn,
  provider: ReplyProvider,
  tools: ToolSpec[],
  hooks: RoundHooks,
): Promise<EndReason | null> {
  const { signal } = turn.controller;
  const { messages } = hooks;
  let endReason: EndReason | null = null;
  for (let round = 0; round < MAX_TOOL_ROUNDS && !endReason; round += 1) {
    const calls: ToolCall[] = [];
    for await (const event of provider.reply({ messages: [...messages], tools, signal })) {
      if (signal.aborted) break;
      if (event.type === 'delta') {
        if (event.text) hooks.speak(event.text);
      } else if (event.type === 'tool_call') {
        calls.push(event.call);
      } else if (provider.kind === 'llm') {
        hooks.tokens(event.promptTokens, event.completionTokens);
      }
    }
    if (signal.aborted || calls.length === 0) break;
    hooks.markOutput();
    messages.push({ role: 'assistant', content: turn.unpushed || null, tool_calls: calls });
    turn.unpushed = '';
    for (const call of calls) turn.pendingCalls.set(call.id, call.function.name);
    for (const call of calls) {
      if (signal.aborted) return null;
      const content = await hooks.runTool(call, (reason) => {
        endReason = reason;
      });
      if (signal.aborted || !turn.pendingCalls.has(call.id)) return null;
      turn.pendingCalls.delete(call.id);
      messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content });
    }
  }
  return endReason;
}
