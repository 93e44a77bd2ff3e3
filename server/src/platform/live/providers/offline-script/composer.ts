// Turns the derived conversation state and the participant's last words into the persona's reply.
import type { ChatMessage } from '../types.ts';
import { type ConversationState, classifyUtterance, deriveState } from './conversation.ts';
import { type ScenarioKind, scenarioKind } from './defaults.ts';
import { keyPhrase } from './echo.ts';
import { demeanorOf, PHRASING, type Phrasing } from './phrasing.ts';
import type { ScriptStep } from './script.ts';
import { fill, pick } from './text.ts';
import { generateWelcomeMessage } from './welcome.ts';

export interface OfflineScriptContext {
  personaName: string;
  jobTitle: string | null;
  demeanor: string | null;
  scenarioName: string;
  scenarioType: string;
  prompt: string | null;
  welcomeMessage: string | null;
  participantName: string | null;
}

export type ScriptEndReason = 'script_complete' | 'participant_ended';

export interface ComposedReply {
  text: string;
  /** Set when the reply closes the session; the engine then calls end_call if it is offered. */
  endReason: ScriptEndReason | null;
}

const ROLE_LINE: Record<ScenarioKind, string> = {
  interview: "I'm running this interview.",
  roleplay: "I'm playing my part in this role-play.",
  upskill: "I'm here as your practice partner for this session.",
  brainstorm: "I'm here to think through ideas with you.",
  general: "I'm here to guide this conversation.",
};

const KIND_LABEL: Record<ScenarioKind, string> = {
  interview: 'an interview',
  roleplay: 'a role-play',
  upskill: 'a practice session',
  brainstorm: 'a brainstorming session',
  general: 'a conversation',
};

const ASKS_IF_AI =
  /\b(?:are|r) (?:you|u) (?:an? |even )?(?:ai|a\.i\.|bot|robot|real|human|person|machine|computer|program|llm|chatbot|chat ?gpt|language model|actual person|recording|script)\b|\bam i (?:talking|speaking) (?:to|with) (?:an? )?(?:ai|bot|robot|human|real person|person|machine|computer|script)\b/i;
const ASKS_IDENTITY =
  /\b(?:who are you|what(?:'s| is) your (?:name|role|job|position|title|background)|what do you do|tell me (?:a bit |a little )?about yourself|your background|where do you work|introduce yourself)\b/i;
const ASKS_PROGRESS =
  /\bhow (?:many|much) (?:more )?(?:questions|time|longer)|\bhow long\b|\bare we (?:almost |nearly )?(?:done|finished|there)\b|\bquestions? (?:are )?left\b/i;
const ASKS_PURPOSE =
  /\bwhat(?:'s| is) (?:this|the) (?:session|meeting|call|interview|conversation|exercise)(?: about| for)?\b|\bwhat(?:'s| is) (?:this|it) (?:about|for)\b|\bwhat are we (?:doing|going to do|talking about)\b|\bpurpose\b|\bwhy are we\b/i;
const ASKS_CLARIFY =
  /\bwhat do you mean\b|\bclarify\b|\bnot sure what you(?:'re| are) asking\b|\bdon'?t understand\b|\bwhat are you asking\b|\bcan you explain(?: the question| that)?\b/i;
const ASKS_FEEDBACK =
  /\bhow (?:did|am) i (?:do|doing)\b|\bfeedback\b|\bwas (?:that|my answer) (?:good|ok|okay|right|correct|wrong)\b/i;

interface Turn {
  context: OfflineScriptContext;
  steps: readonly ScriptStep[];
  state: ConversationState;
  phrasing: Phrasing;
  kind: ScenarioKind;
}

function say(
  turn: Turn,
  options: readonly string[],
  salt: string,
  values: Record<string, string> = {},
): string {
  const name = turn.context.participantName?.trim();
  return fill(pick(options, turn.state.seed, salt), { name: name ? `, ${name}` : '', ...values });
}

function count(n: number): string {
  return n === 1 ? 'one question' : `${n} questions`;
}

/** An honest, in-character answer built only from what the engine knows: persona, scenario, progress. */
function answerParticipant(turn: Turn, question: string): string {
  const { context, steps, state } = turn;
  const position = Math.max(state.cursor, 0) + 1;
  if (ASKS_IF_AI.test(question)) {
    return `I'm ${context.personaName}, a simulated persona for this practice session. My replies come from a rule-based script engine, not from a live person or a language model.`;
  }
  if (ASKS_IDENTITY.test(question)) {
    const title = context.jobTitle ? `, ${context.jobTitle}` : '';
    return `I'm ${context.personaName}${title}. ${ROLE_LINE[turn.kind]}`;
  }
  if (ASKS_PROGRESS.test(question)) {
    return state.cursor < 0
      ? `I have ${count(steps.length)} for you.`
      : `We're on question ${position} of ${steps.length}.`;
  }
  if (ASKS_PURPOSE.test(question)) {
    const name = context.scenarioName.trim() ? `This is ${context.scenarioName.trim()}, ` : 'This is ';
    return `${name}${KIND_LABEL[turn.kind]}. I'll ask you ${count(steps.length)} and react to your answers.`;
  }
  if (ASKS_CLARIFY.test(question)) {
    return "There's no trick to it: answer from your own experience, in whatever detail feels right.";
  }
  if (ASKS_FEEDBACK.test(question)) {
    return "I'll hold my assessment for now; you'll get detailed feedback in the analysis after the session.";
  }
  return say(turn, turn.phrasing.deflect, 'deflect');
}

function acknowledge(turn: Turn, answer: string): string {
  const echo = keyPhrase(answer);
  return echo ? say(turn, turn.phrasing.echo, 'echo', { echo }) : say(turn, turn.phrasing.plain, 'plain');
}

function askFirst(turn: Turn): string {
  return `${say(turn, turn.phrasing.first, 'first')} ${turn.steps[0].question}`;
}

function current(turn: Turn): string {
  return turn.steps[turn.state.cursor].question;
}

/** Moves to the next step, or closes when the script is done. */
function advance(turn: Turn, lead: string): ComposedReply {
  const next = turn.state.cursor + 1;
  if (next < turn.steps.length) {
    const text = `${lead} ${say(turn, turn.phrasing.next, 'next')} ${turn.steps[next].question}`;
    return { text: text.trim(), endReason: null };
  }
  return {
    text: `${lead} ${say(turn, turn.phrasing.closing, 'closing')}`.trim(),
    endReason: 'script_complete',
  };
}

export function composeReply(
  context: OfflineScriptContext,
  steps: readonly ScriptStep[],
  messages: readonly ChatMessage[],
): ComposedReply {
  const state = deriveState(messages, steps);
  const turn: Turn = {
    context,
    steps,
    state,
    phrasing: PHRASING[demeanorOf(context.demeanor)],
    kind: scenarioKind(context.scenarioType),
  };
  const { phrasing } = turn;
  if (!state.spoke && state.utterance === null) {
    const welcome = context.welcomeMessage?.trim() || generateWelcomeMessage(context);
    return { text: welcome, endReason: null };
  }
  if (state.closed)
    return { text: say(turn, phrasing.afterClose, 'after-close'), endReason: 'script_complete' };
  const started = state.cursor >= 0;
  const heard = classifyUtterance(state.utterance);
  switch (heard.kind) {
    case 'goodbye':
      return { text: say(turn, phrasing.goodbye, 'goodbye'), endReason: 'participant_ended' };
    case 'silence':
      return {
        text: started ? `${say(turn, phrasing.silence, 'silence')} ${current(turn)}` : askFirst(turn),
        endReason: null,
      };
    case 'repeat':
      return {
        text: started ? `${say(turn, phrasing.repeat, 'repeat')} ${current(turn)}` : askFirst(turn),
        endReason: null,
      };
    case 'question': {
      const answer = answerParticipant(turn, heard.question);
      const back = started ? `${say(turn, phrasing.resume, 'resume')} ${current(turn)}` : askFirst(turn);
      return { text: `${answer} ${back}`, endReason: null };
    }
    case 'skip':
      return started
        ? advance(turn, say(turn, phrasing.skip, 'skip'))
        : { text: askFirst(turn), endReason: null };
    case 'answer': {
      if (!started) return { text: askFirst(turn), endReason: null };
      const aside = heard.question ? ` ${answerParticipant(turn, heard.question)}` : '';
      const ack = `${acknowledge(turn, heard.text)}${aside}`;
      if (heard.vague && !state.followUpAsked) {
        return { text: `${ack} ${say(turn, phrasing.followUps, 'follow-up')}`, endReason: null };
      }
      return advance(turn, ack);
    }
  }
}
