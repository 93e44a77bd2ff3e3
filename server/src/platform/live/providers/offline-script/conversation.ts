// Derives where the conversation stands from the messages alone, so the engine keeps no state.
import type { ChatMessage } from '../types.ts';
import { CLOSING_MARKERS, FOLLOW_UP_MARKERS, WRAP_UP_MARKERS } from './phrasing.ts';
import type { ScriptStep } from './script.ts';
import { countWords, hashString, normalize, sentences } from './text.ts';

export interface ConversationState {
  /** Index of the last step the persona asked; -1 before the first. */
  cursor: number;
  /** Whether the persona already followed up on the step at `cursor`. */
  followUpAsked: boolean;
  /** The persona asked its last step and then invited the participant's questions: the script is done. */
  wrappedUp: boolean;
  /** The persona closed the session (closing line or an end_call tool call). */
  closed: boolean;
  /** The persona has spoken at least once (the welcome message counts). */
  spoke: boolean;
  /** The participant's words since the persona last spoke; null when they have not spoken since. */
  utterance: string | null;
  /** Hash of the whole conversation: picks phrasing variants deterministically. */
  seed: number;
}

function contains(text: string, phrase: string): boolean {
  return phrase.length > 0 && ` ${text} `.includes(` ${phrase} `);
}

/** The reply ends with the question (the welcome may ask the first step and then add nothing). */
function asks(text: string, question: string): boolean {
  return question.length > 0 && (text === question || text.endsWith(` ${question}`));
}

export function deriveState(
  messages: readonly ChatMessage[],
  steps: readonly ScriptStep[],
): ConversationState {
  const keys = steps.map((s) => normalize(s.question));
  let cursor = -1;
  let followUpAsked = false;
  let closed = false;
  let wrappedUp = false;
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    lastAssistant = index;
    if (message.tool_calls?.some((call) => call.function.name === 'end_call')) closed = true;
    const text = normalize(message.content ?? '');
    if (text.length === 0) return;
    // The earliest not-yet-asked step wins, so a script that repeats itself still advances in order.
    // A step is asked where a reply ends with it: a fact that happens to quote a script question
    // mid-reply ("How do I decide what not to build?") does not move the script on.
    let asked = -1;
    for (let j = cursor + 1; j < keys.length; j++) {
      if (asks(text, keys[j])) {
        asked = j;
        break;
      }
    }
    if (asked >= 0) {
      cursor = asked;
      followUpAsked = false;
    } else if (cursor >= 0 && FOLLOW_UP_MARKERS.some((m) => contains(text, m))) {
      followUpAsked = true;
    }
    if (cursor === keys.length - 1 && WRAP_UP_MARKERS.some((m) => contains(text, m))) wrappedUp = true;
    if (CLOSING_MARKERS.some((m) => contains(text, m))) closed = true;
  });
  const spoken = messages.slice(lastAssistant + 1).filter((m) => m.role === 'user');
  const utterance =
    spoken.length > 0
      ? spoken
          .map((m) => (m.content ?? '').trim())
          .join(' ')
          .trim()
      : null;
  const seed = hashString(messages.map((m) => `${m.role}\u0000${m.content ?? ''}`).join('\u0001'));
  return { cursor, followUpAsked, wrappedUp, closed, spoke: lastAssistant >= 0, utterance, seed };
}

export type Utterance =
  | { kind: 'silence' }
  | { kind: 'goodbye' }
  | { kind: 'repeat' }
  | { kind: 'skip' }
  | { kind: 'question'; question: string }
  | { kind: 'answer'; text: string; vague: boolean; question: string | null };

const SILENCE_MARKER =
  /^[[(<*]*\s*(?:silence|silent|no response|no answer|inaudible|unintelligible|noise|pause|crosstalk|no speech)\s*[\])>*]*\.?$/i;
const FILLER_ONLY = /^(?:(?:um+|uh+|erm+|er|hmm+|mm+|ah+|eh)[\s.,!?…]*)+$/i;
const GOODBYE = [
  /^(?:(?:ok(?:ay)?|well|alright|right|thanks|thank you|great|sorry),? )*(?:good ?bye|bye(?:[- ]bye)?|farewell|see you(?: later)?|see ya)\b/i,
  // Leave-taking formulas that close a sentence: "take care, bye now", "talk soon", "have a good one".
  // "Good to see you again" greets: a "see you" after "to" is not a leave-taking.
  /\b(?:good ?bye|bye(?:[- ]bye)?(?: now| for now)?|farewell|cheerio|ciao|ta-?ra|all the best|good ?night|(?<!\bto )see (?:you|ya)(?: (?:later|soon|around|then|next time|tomorrow|next \w+|on \w+day))?|take care(?: of yourself)?|(?:talk|speak|chat)(?: to you)? (?:soon|later|then|tomorrow|next (?:week|time|month)|on \w+day)|catch you (?:later|soon|next time|then)|until next time|till next time|have a (?:good|great|nice|lovely) (?:day|one|evening|weekend|afternoon|night|rest of your day|rest of the day|week))(?:,? \w+)?[.!]*$/i,
  // Pleasantries that close: "great chatting, take it easy", "nice talking to you", "lovely, cheers then".
  /\b(?:take it easy|(?:great|nice|good|lovely) (?:chatting|talking (?:to|with) you|speaking (?:to|with) you)|cheers(?: then| mate| for now)?)(?:,? \w+)?[.!]*$/i,
  // "I think we're good here, cheers", "that's all I had, thank you", "I need to jump on another call".
  /^(?:(?:ok(?:ay)?|right|alright|well|so|great|perfect),? )*(?:i think )?(?:we(?:'re| are) (?:done|all done|finished)(?: here| for (?:today|now))?|we(?:'re| are) (?:good|all set) (?:here|for (?:today|now))|(?:that'?s|that is|that will be|that'?ll be) (?:all|everything|it)(?: (?:i had|from me|i needed|for (?:today|now)|on my side))?)(?:,? (?:thanks|thank you|cheers)(?: \w+)?)?[.!]*$/i,
  /\b(?:need|have|got|gotta) to (?:jump|hop) (?:on|off|onto)\b|\b(?:jump|hop) (?:on|onto) (?:another|a|my next) (?:call|meeting)\b/i,
  // Leave-taking in so many words: "I'll let you go", "I'd better get going", "that's me done".
  /^(?:(?:ok(?:ay)?|right|alright|well|anyway|so|great|cool),? )*(?:i'?ll let you go|i(?:'d| had) better (?:go|get going|head off|be off|run|let you go)|i(?:'m| am) (?:off|heading off|signing off)|(?:gotta|got to|have to|need to) (?:run|go|dash|head off)|that'?s me done|that'?s it from me|nothing (?:else|more) from me|let'?s leave it (?:there|here))\b[^?]*$/i,
  // Thanks that close the conversation rather than answer something.
  /^(?:ok(?:ay)?,? |great,? |perfect,? |alright,? )?(?:thanks|thank you)(?: (?:so|very) much)?,? (?:\w+,? )?(?:for (?:your|the) (?:time|help|call|chat|patience)|for talking (?:to|with) me)(?: today)?[.!]*$/i,
  /^(?:(?:ok(?:ay)?|right|alright|well|so|great),? )*(?:i think )?(?:(?:that'?s|that is) (?:all|everything|it)(?: (?:from me|i needed|for (?:today|now)|on my side))?|we'?re (?:done|finished|all done)(?: here| for today)?|i'?ve got (?:what|everything|all) i need(?:ed)?)[.!]*$/i,
  /^(?:sorry,? )?i (?:have|need|gotta|got|'ve got) to (?:go|leave|run|drop(?: off)?|hop off)(?: now| soon| sorry)?[.!]*$/i,
  /^(?:ok(?:ay)?,? )?(?:let'?s|let us|can we|could we|i want to|i'd like to|i would like to|please|we can|i need to)(?: just)? (?:stop|end|finish|wrap up|wrap this up|call it a day|call it)(?: (?:here|now|there|the (?:call|session|meeting|interview|conversation)|this(?: call| session| meeting| interview| conversation)?|it here))?(?: please)?[.!?]*$/i,
  /\b(?:end|stop|hang up|leave) (?:the|this) (?:call|session|meeting|interview)\b/i,
  /^(?:that'?s all for (?:today|now)|i'?m done(?: here)?|i quit)[.!]*$/i,
];
/** Wrapping up in so many words: "that's all our questions", "let's stop there for today", "leave it with me". */
const WRAPS_UP =
  /\b(?:that'?s (?:all|everything|it) (?:(?:of |from )?(?:my|our|the) (?:questions|side)|from (?:me|us|my side|our side))|let'?s (?:stop|leave it|pause|call it a day|wrap (?:it |this |things )?up)(?: there| here)?(?: for (?:today|now))?|leave it with me|same time (?:next \w+|in \w+ \w+|tomorrow)|until next time)\b/i;
/** A next contact promised: "I'll be in touch", "I'll write this up and send it round", "we'll come back to you". */
const NEXT_CONTACT =
  /\b(?:i'?ll|i will|we'?ll|we will|i'?m going to)\b[^.?!]{0,40}\b(?:be in touch|get back to you|come back to you|call you back|ring you back|let you know|send|write (?:this|that|it|these) up|talk to|speak to|put (?:that|this|it) to|take (?:that|this|it) (?:back|to)|follow up)\b/i;
const THANKS =
  /\b(?:thanks|thank you|cheers|many thanks|much appreciated|appreciate (?:it|your time|that))\b/i;

/**
 * A turn that closes the call without a goodbye formula: "That's all our questions. Thanks so much
 * for your time, we'll be in touch" or "Thanks Owen, I'll write this up and send it round". Read in
 * its last two sentences, and never when the turn ends on a question that is not itself the wrap-up.
 */
function wrapsUp(parts: readonly string[]): boolean {
  const end = parts.slice(-2);
  const last = end[end.length - 1] ?? '';
  // "…same time in two weeks?" asks nothing the persona must answer.
  if (last.trim().endsWith('?') && !/\bsame time\b|\bnext time\b/i.test(last)) return false;
  if (end.some((s) => WRAPS_UP.test(s))) return true;
  return end.some((s) => NEXT_CONTACT.test(s)) && end.some((s) => THANKS.test(s));
}

const REPEAT =
  /\b(?:(?:can|could|would) you (?:please )?(?:repeat|say (?:that|it) again|rephrase)|repeat (?:that|the question|please)|say (?:that|it) again|come again|pardon(?: me)?|i didn'?t (?:catch|hear|get|understand) (?:that|it|the question|you)|what was the question|one more time)\b|^(?:sorry|what|huh|excuse me|pardon)\??$/i;
const SKIP =
  /\b(?:skip (?:this|that|it|the question)|can we skip|pass on (?:this|that)|i'?ll pass|next question|move on|rather not (?:answer|say|talk about))\b/i;
const VAGUE =
  /\b(?:i don'?t know|not sure|no idea|it depends|maybe|i guess|hard to say|can'?t remember|don'?t remember|nothing really)\b/i;
const INTERROGATIVE =
  /^(?:what|how|why|who|whom|whose|when|where|which|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|have|has|may|might)\b/i;

/** Fewer words than this is a short answer that earns one follow-up. */
export const VAGUE_WORD_LIMIT = 8;

export function classifyUtterance(utterance: string | null): Utterance {
  const text = (utterance ?? '').replace(/[’‘]/g, "'").trim();
  if (
    text.length === 0 ||
    SILENCE_MARKER.test(text) ||
    FILLER_ONLY.test(text) ||
    /^[\s.…,!?-]*$/.test(text)
  ) {
    return { kind: 'silence' };
  }
  const parts = sentences(text);
  if (
    parts.some((s) => GOODBYE.some((pattern) => pattern.test(s.replace(/^[\s,]+/, '')))) ||
    wrapsUp(parts)
  ) {
    return { kind: 'goodbye' };
  }
  const wordCount = countWords(text);
  if (wordCount <= 15 && REPEAT.test(text)) return { kind: 'repeat' };
  if (wordCount <= 15 && SKIP.test(text)) return { kind: 'skip' };
  const last = parts[parts.length - 1] ?? '';
  const asks = last.endsWith('?') && (countWords(last) >= 3 || INTERROGATIVE.test(last));
  const answerPart = asks ? parts.slice(0, -1).join(' ') : text;
  // A question with (almost) nothing else is a question to the persona; otherwise it rides on an answer.
  if (asks && countWords(answerPart) < 3) return { kind: 'question', question: last };
  const answerWords = countWords(answerPart);
  const vague = answerWords < VAGUE_WORD_LIMIT || (answerWords < 15 && VAGUE.test(answerPart));
  return { kind: 'answer', text: answerPart, vague, question: asks ? last : null };
}
