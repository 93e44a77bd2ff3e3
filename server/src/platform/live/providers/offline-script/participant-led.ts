// The participant leads: the persona answers each question from its facts, and asks a question of
// its own only where its script says so (the script's question section), when the participant
// stops asking.
import { answerFromFacts } from './answering.ts';
import { readAsides } from './asides.ts';
import type { Utterance } from './conversation.ts';
import { counterpartLines } from './counterpart.ts';
import { buildOnIdea, proposesIdea } from './ideas.ts';
import { answerAboutItself } from './in-character.ts';
import { rankFacts } from './retrieval.ts';
import { countWords } from './text.ts';
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
  const lines = counterpartLines(turn.context.demeanor);
  // "Did you catch the match?": off the subject unless a word of it is one of the persona's facts.
  if (OFF_TOPIC.test(question) && !rankFacts(turn.facts, question)[0]?.wordMatch)
    return say(turn, lines.offTopic, 'off-topic', say(turn, lines.unknown, 'unknown', ''));
  // "How can I help?": the persona says what it came for (its need, its problem, its reason).
  // Only before anything was asked: later, "what's the problem?" leans on what was just said.
  const opens = OPENER.test(question) && !turn.recent.question;
  const asked = opens ? 'What do you want or need, and why, what is the problem?' : question;
  const reply = answerFromFacts(turn.facts, asked, turn.said, turn.state.seed, turn.recent);
  if (reply.covered) return reply.text;
  // Nothing it knows answers it: said in its own manner, never an unrelated fact.
  return say(turn, lines.unknown, 'unknown', reply.text);
}

/** The opener of a service call: it asks what the caller came for, naming nothing. */
const OPENER =
  /^(?:(?:hi|hello|hey|morning|good (?:morning|afternoon|evening))\b[^?]*?[,.!]\s*)?(?:(?:so|okay|ok|right|well|now),?\s+)?(?:how (?:can|may|could) (?:i|we) help(?: you)?(?: today)?|what can (?:i|we) do for you(?: today)?|what brings you (?:in|here|to us)(?: today)?|what seems to be the (?:problem|trouble|issue)|how can i be of help|what(?:'s| is) (?:this|it) (?:about|regarding)|what (?:did|do) you want(?:ed)? to (?:talk|chat|speak) (?:to me )?about(?: today)?|what (?:can|could) (?:i|we) help (?:you )?with(?: today)?|what(?:'s| is) (?:going on|up|the matter|the problem)(?: today)?)\s*\??$/i;

/** A question about a pastime, the news or private life rather than the matter at hand. */
const OFF_TOPIC =
  /^(?:(?:by the way|btw|random(?:ly)?|out of interest|just curious|unrelated|oh),?\s+)|[\s,]+(?:out of interest|just curious|by the way)\W*$|\b(?:the (?:match|game|race)|films?|movies?|podcasts?|netflix|telly|tv|weekend|holidays?|vacation|weather|football|cricket|rugby|tennis|music|pub|recipes?|hobby|hobbies|pets?|dogs?|cats?|favou?rite)\b/i;

/** Small talk, a dig or "are you a bot?" said beside (or instead of) the business: answered in character first. */
function asidesFirst(turn: Turn, utterance: string): string | null {
  const reading = readAsides(utterance);
  if (!reading.probe && !reading.social && !reading.rude) return null;
  const parts: string[] = [];
  if (reading.probe) {
    const about = answerAboutItself(turn.context, 'are you an AI?') ?? [];
    parts.push(say(turn, about, 'about-itself', about[0] ?? ''));
  }
  if (reading.social) parts.push(say(turn, turn.phrasing[reading.social], `social-${reading.social}`, ''));
  if (reading.rude && !reading.probe)
    parts.push(say(turn, counterpartLines(turn.context.demeanor).rude, 'rude', ''));
  const asked = reading.question ?? (UNMARKED_QUESTION.test(reading.answer) ? reading.answer : null);
  if (asked) parts.push(answer(turn, asked));
  // "Hi Linda. We've looked at your usage…": what is said beside the greeting is still heard.
  else if (countWords(reading.answer) >= 6 && !/!\s*$/.test(reading.answer))
    parts.push(respondToStatement(turn, reading.answer));
  const text = parts.filter((p) => p.length > 0).join(' ');
  // Every in-character line said already: the usual reading of the turn answers instead.
  return text.length > 0 ? text : null;
}

/** A question asked without a question mark, as speech-to-text writes it, or a request to tell ("Tell us about…", "I'm curious how…"). */
const UNMARKED_QUESTION =
  /^(?:(?:so|and|okay|ok|right|now|well|first(?:ly)?),?\s+)*(?:what|how|why|who|when|where|which|is|are|do|does|did|can|could|would|will|tell (?:me|us)|talk (?:me|us) through|walk (?:me|us) through|take (?:me|us) through|describe|explain|give (?:me|us)|i'?d (?:love|like) to (?:know|hear|understand)|i (?:want|wanted|need) to (?:know|understand|hear)|i'?m (?:curious|interested|wondering)|i wonder(?:ed)?|help me understand)\b/i;

/** A statement: acknowledged, with a fact it touches on, then the script's next question back if any. */
function respondToStatement(turn: Turn, statement: string): string {
  const parts = [say(turn, [...turn.phrasing.plain, ...ACKNOWLEDGE], 'ack', '')];
  const related = rankFacts(turn.facts, statement).find((r) => r.wordMatch && !turn.said.has(r.fact.text));
  if (related && related.score >= 8) {
    // "Worth knowing: I'm…" keeps its capital I.
    const text = /^I\b/.test(related.fact.text)
      ? related.fact.text
      : `${related.fact.text[0].toLowerCase()}${related.fact.text.slice(1)}`;
    parts.push(`Worth knowing: ${text}`);
    turn.said.add(parts[parts.length - 1]);
  }
  // The participant leads, so the script's cursor does not move: its next question is one not asked yet.
  const next = turn.steps.find((step) => !turn.said.has(step.question));
  parts.push(next ? next.question : say(turn, INVITE, 'invite', ''));
  return parts.filter((p) => p.length > 0).join(' ');
}

export function participantLedReply(turn: Turn, heard: Utterance): ComposedReply {
  if (heard.kind === 'question' || heard.kind === 'answer') {
    // An idea first: "free coffee on rainy mornings" is an idea, not a remark about the weather.
    if (proposesIdea(turn, turn.state.utterance ?? ''))
      return { text: buildOnIdea(turn, turn.state.utterance ?? ''), endReason: null };
    const asides = asidesFirst(turn, turn.state.utterance ?? '');
    if (asides) return { text: asides, endReason: null };
  }
  switch (heard.kind) {
    case 'question':
      return { text: answer(turn, heard.question), endReason: null };
    case 'answer':
      return {
        text:
          heard.question || UNMARKED_QUESTION.test(heard.text) || /\?\s*$/.test(heard.text)
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
