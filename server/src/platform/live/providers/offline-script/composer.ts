// Decides the persona's reply from the context and the messages: the welcome, the close, and in
// between the turn of whoever leads (lead.ts).
import type { ChatMessage } from '../types.ts';
import { classifyUtterance } from './conversation.ts';
import { participantLedReply } from './participant-led.ts';
import { personaLedReply } from './persona-led.ts';
import type { ScriptStep } from './script.ts';
import { type ComposedReply, type OfflineScriptContext, readTurn, say } from './turn.ts';
import { generateWelcomeMessage } from './welcome.ts';

export type { ComposedReply, OfflineScriptContext, ScriptEndReason } from './turn.ts';

export function composeReply(
  context: OfflineScriptContext,
  steps: readonly ScriptStep[],
  messages: readonly ChatMessage[],
): ComposedReply {
  const turn = readTurn(context, steps, messages);
  const { state, phrasing } = turn;
  if (!state.spoke && state.utterance === null) {
    const welcome = context.welcomeMessage?.trim() || generateWelcomeMessage(context);
    return { text: welcome, endReason: null };
  }
  if (state.closed)
    return { text: say(turn, phrasing.afterClose, 'after-close'), endReason: 'script_complete' };
  const heard = classifyUtterance(state.utterance);
  return turn.lead === 'participant' ? participantLedReply(turn, heard) : personaLedReply(turn, heard);
}
