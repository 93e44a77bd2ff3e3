// The persona leads: it asks its script's questions in order, skips those the participant already
// answered, follows up once on a vague answer and acknowledges the answer's specifics.
import { answerFromFacts } from './answering.ts';
import { indexTerms } from './concepts.ts';
import type { Utterance } from './conversation.ts';
import { keyPhrase } from './echo.ts';
import { answerAboutItself } from './in-character.ts';
import { type ComposedReply, say, type Turn } from './turn.ts';

const ASKS_PROGRESS =
  /\bhow (?:many|much) (?:more )?(?:questions|time|longer)|\bhow long (?:is|will) (?:this|it)\b|\bare we (?:almost |nearly )?(?:done|finished|there)\b|\bquestions? (?:are )?left\b/i;
const ASKS_CLARIFY =
  /\bwhat do you mean\b|\bnot sure what you(?:'re| are) asking\b|\bdon'?t understand\b|\bwhat are you asking\b/i;
const ASKS_FEEDBACK =
  /\bhow (?:did|am) i (?:do|doing)\b|\bwas (?:that|my answer) (?:good|ok|okay|right|wrong)\b/i;
/** Extra ways back to the pending question, so a call with many asides never repeats one. */
const RESUME = ['So, back to you:', 'Now, where were we:', 'Over to you again:', 'Picking up where we were:'];

const lowerFirst = (text: string) => text[0].toLowerCase() + text.slice(1);

function answerParticipant(turn: Turn, question: string): string {
  const about = answerAboutItself(turn.context, question);
  if (about) return say(turn, about, 'about-itself', about[0]);
  const left = turn.steps.length - Math.max(turn.state.cursor, 0);
  if (ASKS_PROGRESS.test(question))
    return say(turn, [`A few more, ${left} to go.`, `We have ${left} left.`], 'progress', '');
  if (ASKS_CLARIFY.test(question))
    return say(turn, ["There's no trick to it: answer from your own experience."], 'clarify', '');
  if (ASKS_FEEDBACK.test(question))
    return say(turn, ["I'll hold my assessment until we're done."], 'feedback', '');
  return answerFromFacts(turn.facts, question, turn.said, turn.state.seed).text;
}

function stems(text: string): Set<string> {
  return new Set(text.split(/\s+/).flatMap((w) => indexTerms(w) ?? []));
}

/** A later step is already answered when the participant's words cover most of what it asks about. */
function alreadyAnswered(turn: Turn, index: number, spoken: Set<string>): boolean {
  const asked = [...stems(turn.steps[index].question)].filter((s) => !s.startsWith('~'));
  const covered = asked.filter((s) => spoken.has(s));
  return covered.length >= 2 && covered.length * 2 >= asked.length;
}

/** "Next question:" joins the question into one sentence; "Let's move on." stays a sentence of its own. */
function ask(lead: string, question: string): string {
  if (!lead) return question;
  return /[.!?]$/.test(lead) ? `${lead} ${question}` : `${lead.replace(/:$/, '')}: ${lowerFirst(question)}`;
}

/** Moves to the next step not answered yet, or closes when the script is done. */
function advance(turn: Turn, ack: string, answered: string): ComposedReply {
  const spoken = stems(answered);
  let next = turn.state.cursor + 1;
  while (next < turn.steps.length - 1 && alreadyAnswered(turn, next, spoken)) next++;
  if (next < turn.steps.length) {
    const lead = say(turn, turn.phrasing.next, 'next', '');
    return { text: `${ack} ${ask(lead, turn.steps[next].question)}`.trim(), endReason: null };
  }
  return {
    text: `${ack} ${say(turn, turn.phrasing.closing, 'closing')}`.trim(),
    endReason: 'script_complete',
  };
}

function acknowledge(turn: Turn, answer: string): string {
  const echo = keyPhrase(answer);
  const echoed = echo ? turn.phrasing.echo.map((t) => t.replace('{echo}', echo)) : [];
  const fresh = turn.said.fresh(echoed, turn.state.seed, 'echo');
  return fresh ?? say(turn, turn.phrasing.plain, 'ack', '');
}

/** The pending question again, in words not used yet in this call (the lead-in and question are one sentence). */
function pending(turn: Turn, salt: string, leads: readonly string[]): string {
  const step = turn.steps[turn.state.cursor];
  if (!step) return `${say(turn, turn.phrasing.first, 'first', '')} ${turn.steps[0].question}`.trim();
  const variants = [...leads, ...RESUME].map((lead) => ask(lead, step.question));
  return say(turn, variants, salt, step.question);
}

export function personaLedReply(turn: Turn, heard: Utterance): ComposedReply {
  const { phrasing, state } = turn;
  const started = state.cursor >= 0;
  switch (heard.kind) {
    case 'goodbye':
      return { text: say(turn, phrasing.goodbye, 'goodbye'), endReason: 'participant_ended' };
    case 'silence':
      return {
        text: `${say(turn, phrasing.silence, 'silence', '')} ${pending(turn, 'resume', phrasing.resume)}`.trim(),
        endReason: null,
      };
    case 'repeat':
      return { text: pending(turn, 'repeat', phrasing.repeat), endReason: null };
    case 'question':
      return {
        text: `${answerParticipant(turn, heard.question)} ${pending(turn, 'resume', phrasing.resume)}`,
        endReason: null,
      };
    case 'skip':
      return started
        ? advance(turn, say(turn, phrasing.skip, 'skip', ''), '')
        : { text: pending(turn, 'first', []), endReason: null };
    case 'answer': {
      if (!started) return { text: pending(turn, 'first', []), endReason: null };
      const aside = heard.question ? ` ${answerParticipant(turn, heard.question)}` : '';
      const ack = `${acknowledge(turn, heard.text)}${aside}`.trim();
      if (heard.vague && !state.followUpAsked) {
        return { text: `${ack} ${say(turn, phrasing.followUps, 'follow-up')}`.trim(), endReason: null };
      }
      return advance(turn, ack, heard.text);
    }
  }
}
