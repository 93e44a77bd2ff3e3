// The participant leads: the persona answers each question from its facts, and asks a question of
// its own only where its script says so (the script's question section), when the participant
// stops asking.
import { answerFromFacts } from './answering.ts';
import type { Utterance } from './conversation.ts';
import { answerAboutItself } from './in-character.ts';
import { rankFacts } from './retrieval.ts';
import { type ComposedReply, say, type Turn } from './turn.ts';

const ACKNOWLEDGE = ['Right.', 'Okay.', 'Fair enough.', 'Makes sense.', 'Understood.', 'Good.'];
const INVITE = [
  'Ask me anything else you need.',
  'Happy to go into more detail on any of that.',
  "Go on, I'm listening.",
  'What else is on your list?',
];

function answer(turn: Turn, question: string): string {
  const about = answerAboutItself(turn.context, question);
  if (about) return say(turn, about, 'about-itself', about[0]);
  return answerFromFacts(turn.facts, question, turn.said, turn.state.seed, turn.recent).text;
}

/** A question asked without a question mark, as speech-to-text writes it. */
const UNMARKED_QUESTION =
  /^(?:what|how|why|who|when|where|which|is|are|do|does|did|can|could|would|will|tell me|walk me through|i'd like to know|i want to know)\b/i;

/** A statement: acknowledged, with a fact it touches on, then the script's next question back if any. */
function respondToStatement(turn: Turn, statement: string): string {
  const parts = [say(turn, [...turn.phrasing.plain, ...ACKNOWLEDGE], 'ack', '')];
  const related = rankFacts(turn.facts, statement).find((r) => r.wordMatch && !turn.said.has(r.fact.text));
  if (related && related.score >= 8) {
    parts.push(`Worth knowing: ${related.fact.text[0].toLowerCase()}${related.fact.text.slice(1)}`);
    turn.said.add(parts[parts.length - 1]);
  }
  // The participant leads, so the script's cursor does not move: its next question is one not asked yet.
  const next = turn.steps.find((step) => !turn.said.has(step.question));
  parts.push(next ? next.question : say(turn, INVITE, 'invite', ''));
  return parts.filter((p) => p.length > 0).join(' ');
}

export function participantLedReply(turn: Turn, heard: Utterance): ComposedReply {
  switch (heard.kind) {
    case 'question':
      return { text: answer(turn, heard.question), endReason: null };
    case 'answer':
      return {
        text:
          heard.question || UNMARKED_QUESTION.test(heard.text)
            ? answer(turn, `${heard.text} ${heard.question ?? ''}`)
            : respondToStatement(turn, heard.text),
        endReason: null,
      };
    case 'silence':
      return { text: say(turn, [...turn.phrasing.silence, ...INVITE], 'silence', ''), endReason: null };
    case 'repeat':
    case 'skip':
      // "How many people skip it?" is a question, not a request to skip one.
      if (turn.state.utterance?.includes('?'))
        return { text: answer(turn, turn.state.utterance), endReason: null };
      return { text: say(turn, INVITE, 'invite', 'Go ahead.'), endReason: null };
    case 'goodbye':
      return { text: say(turn, turn.phrasing.goodbye, 'goodbye'), endReason: 'participant_ended' };
  }
}
