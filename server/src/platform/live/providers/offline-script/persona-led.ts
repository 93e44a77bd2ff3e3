// The persona leads: it asks its script's questions in order, skips those the participant already
// answered, probes once on a vague answer and acknowledges the answer's specifics. Whatever is said
// beside an answer (small talk, a dig, "are you an AI?", a question) is answered in character and
// the pending question is asked again. After the last step it wraps up (what the script says to do
// at the end), takes the participant's questions, and ends the call when they are done.
import { answerFromFacts } from './answering.ts';
import { type Reading, readAsides } from './asides.ts';
import { indexTerms } from './concepts.ts';
import { type Utterance, VAGUE_WORD_LIMIT } from './conversation.ts';
import { keyPhrase, reflect } from './echo.ts';
import { answerAboutItself } from './in-character.ts';
import { capitalize, countWords, STOPWORDS } from './text.ts';
import { type ComposedReply, say, type Turn } from './turn.ts';
import { readWrapUp } from './wrap-up.ts';

const ASKS_PROGRESS =
  /\bhow (?:many|much) (?:more )?(?:questions|time|longer)|\bhow long (?:is|will) (?:this|it)\b|\bare we (?:almost |nearly )?(?:done|finished|there)\b|\bquestions? (?:are )?left\b/i;
const ASKS_CLARIFY =
  /\bwhat do you mean\b|\bnot sure what you(?:'re| are) asking\b|\bdon'?t understand\b|\bwhat are you asking\b/i;
const ASKS_FEEDBACK =
  /\bhow (?:did|am) i (?:do|doing)\b|\bwas (?:that|my answer) (?:good|ok|okay|right|wrong)\b/i;
/** "What are the next steps?", "When will I hear back?": what the script says happens after the call. */
const ASKS_NEXT_STEPS =
  /\bnext steps?\b|\bwhat happens (?:next|now|after(?:wards)?)\b|\b(?:after this|afterwards|after the (?:call|session|interview|meeting))\b|\bhear (?:back|from (?:you|them|someone|anyone))\b|\bwhen (?:will|would|do) i (?:know|hear)\b|\bfollow(?:s|ing)?[- ]?up\b|\bwho (?:will|would) (?:call|contact|email) me\b/i;
const HEDGED =
  /\b(?:i don'?t know|dunno|not sure|no idea|it depends|maybe|i guess|hard to say|can'?t remember|don'?t remember|nothing really)\b/i;
/** After the wrap-up: the participant has nothing more to ask. */
const NOTHING_MORE =
  /^(?:(?:no|nope|nah|not really|none|nothing|all good|i'?m (?:good|fine|all set)|i think (?:that'?s|i'?m) (?:it|all|good|fine)|that'?s (?:all|it|everything)|no(?:,)? (?:more )?questions?|not (?:at the moment|right now|for now))\b[^?]*)$/i;
/** Extra ways back to the pending question, so a call with many asides never repeats one. */
const RESUME = [
  'So, back to you:',
  'Now, where were we:',
  'Over to you again:',
  'Picking up where we were:',
  'Anyway, as I was asking:',
  'Coming back to my question:',
  'Where we left off:',
  'Let me ask again:',
  'Returning to it:',
  'So, once more:',
];
/** Ways to say a wrap-up line again when asked about the next steps. */
const AGAIN = ['As I said: {line}', 'Like I mentioned: {line}', 'To repeat: {line}'];
const SUMMARY = ['To sum up, {echo}.', 'So the one thing to take away: {echo}.'];

const lowerFirst = (text: string) => (/^I\b/.test(text) ? text : text[0].toLowerCase() + text.slice(1));

/** What the script says happens next, said (again) in words not used yet; null when it says nothing. */
function nextSteps(turn: Turn): string | null {
  const { lines } = readWrapUp(turn.context.prompt, turn.context.personaName);
  if (lines.length === 0) return null;
  const fresh = turn.said.fresh([lines.join(' ')], turn.state.seed, 'next-steps');
  if (fresh) return fresh;
  const again = AGAIN.map((a) => a.replace('{line}', lines.join(' ')));
  return say(turn, again, 'next-steps-again', again[0]);
}

/** "Have you tried the ramen place?", "Where did you go to uni?": the persona's own life and tastes. */
const ABOUT_YOU =
  /\b(?:have you (?:ever )?(?:tried|been to|seen|watched|heard of|read)|did you (?:go|end up|see|watch|get to|enjoy|have a (?:good|nice|great))|do you (?:like|enjoy|love|have any (?:kids|pets|hobbies))|your favou?rite)\b/i;

/** A question about the persona's own life that none of its facts touches: it is parked, not answered with a fact. */
function asksAboutItsLife(turn: Turn, question: string): boolean {
  if (!ABOUT_YOU.test(question)) return false;
  const known = new Set(turn.facts.flatMap((f) => [...stems(f.text)].filter((t) => !t.startsWith('~'))));
  const asked = question
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}'-]/gu, ''))
    .filter((w) => w.length >= 4 && !STOPWORDS.has(w.toLowerCase()))
    .flatMap((w) => (indexTerms(w) ?? []).filter((t) => !t.startsWith('~')));
  return asked.length > 0 && !asked.some((t) => known.has(t));
}

/** The persona's answer to a question the participant asks it. */
function answerParticipant(turn: Turn, question: string): string {
  const about = answerAboutItself(turn.context, question);
  if (about) return say(turn, about, 'about-itself', about[0]);
  const left = turn.steps.length - Math.max(turn.state.cursor, 0);
  if (ASKS_PROGRESS.test(question) && !turn.state.wrappedUp)
    return say(turn, [`A few more, ${left} to go.`, `We have ${left} left.`], 'progress', '');
  if (ASKS_CLARIFY.test(question))
    return say(turn, ["There's no trick to it: answer from your own experience."], 'clarify', '');
  if (ASKS_FEEDBACK.test(question))
    return say(turn, ["I'll hold my assessment until we're done."], 'feedback', '');
  if (ASKS_NEXT_STEPS.test(question)) {
    const next = nextSteps(turn);
    if (next) return next;
  }
  if (asksAboutItsLife(turn, question)) return say(turn, turn.phrasing.park, 'park', '');
  const answer = answerFromFacts(turn.facts, question, turn.said, turn.state.seed, turn.recent);
  // Nothing it knows answers it (a personal or off-topic question): parked in its own manner.
  if (!answer.covered) return say(turn, turn.phrasing.park, 'park', answer.text);
  return answer.text;
}

/** The in-character replies to what was said beside an answer, in the order it was said. */
function asides(turn: Turn, reading: Reading): string[] {
  const parts: string[] = [];
  const { phrasing } = turn;
  if (reading.probe) {
    const about = answerAboutItself(turn.context, 'are you an AI?') ?? [];
    parts.push(say(turn, about, 'about-itself', about[0] ?? ''));
  }
  if (reading.social) parts.push(say(turn, phrasing[reading.social], `social-${reading.social}`, ''));
  if (reading.rude && !reading.probe) parts.push(say(turn, phrasing.rude, 'rude', ''));
  if (reading.question) parts.push(answerParticipant(turn, reading.question));
  return parts.filter((p) => p.length > 0);
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

const join = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .join(' ');

/** The script is done: what it says to do at the end, then an invitation to ask; the call goes on. */
function wrapUp(turn: Turn, ack: string, answered: string): ComposedReply {
  const { lines, summarise } = readWrapUp(turn.context.prompt, turn.context.personaName);
  const echo = summarise ? keyPhrase(answered) : null;
  const summary = echo
    ? say(
        turn,
        SUMMARY.map((s) => s.replace('{echo}', echo)),
        'summary',
        '',
      )
    : '';
  const wrap = say(turn, turn.phrasing.wrapUp, 'wrap-up', '');
  const after = turn.said.fresh([lines.join(' ')], turn.state.seed, 'next-steps') ?? '';
  const invite = say(turn, turn.phrasing.invite, 'invite');
  // A summary says the answer back already: it takes the acknowledgement's place.
  return { text: join(summary || ack, wrap, after, invite), endReason: null };
}

/** Moves to the next step not answered yet, or wraps up when the script is done. */
function advance(turn: Turn, ack: string, answered: string): ComposedReply {
  const spoken = stems(answered);
  let next = turn.state.cursor + 1;
  while (next < turn.steps.length - 1 && alreadyAnswered(turn, next, spoken)) next++;
  if (next < turn.steps.length) {
    const lead = say(turn, turn.phrasing.next, 'next', '');
    return { text: join(ack, ask(lead, turn.steps[next].question)), endReason: null };
  }
  return wrapUp(turn, ack, answered);
}

/**
 * An acknowledgement that names what the answer said, in a template not used in the persona's last
 * reply; a plain one (or none) when the answer holds nothing specific.
 */
function acknowledge(turn: Turn, answer: string): string {
  const echo = keyPhrase(answer);
  if (echo) {
    const last = turn.recent.reply ?? '';
    const fixed = (template: string) => template.split('{echo}').map((part) => part.trim());
    const unused = turn.phrasing.echo.filter(
      (t) => !fixed(t).some((part) => part.length > 2 && last.includes(part)),
    );
    const options = (unused.length > 0 ? unused : turn.phrasing.echo).map((t) =>
      t.startsWith('{echo}') ? t.replace('{echo}', capitalize(echo)) : t.replace('{echo}', echo),
    );
    const fresh = turn.said.fresh(options, turn.state.seed, 'echo');
    if (fresh) return fresh;
  }
  return say(turn, turn.phrasing.plain, 'ack', '');
}

/** The pending question again, in words not used yet in this call (the lead-in and question are one sentence). */
function pending(turn: Turn, salt: string, leads: readonly string[], greeted = false): string {
  const step = turn.steps[turn.state.cursor];
  // After a greeting of its own, the persona goes straight to its first question.
  if (!step) return join(greeted ? '' : say(turn, turn.phrasing.first, 'first', ''), turn.steps[0].question);
  const variants = [...leads, ...RESUME].map((lead) => ask(lead, step.question));
  return say(turn, variants, salt, step.question);
}

/** The call closes: a closing line and end_call. */
function close(turn: Turn, lead = ''): ComposedReply {
  return { text: join(lead, say(turn, turn.phrasing.closing, 'closing')), endReason: 'script_complete' };
}

/** After the wrap-up: answers the participant's questions until they are done. */
function afterScript(turn: Turn, heard: Utterance): ComposedReply {
  const utterance = turn.state.utterance ?? '';
  // "No, that's all from me, thanks." answers "anything else?": the persona closes the script; a
  // leave-taking of the participant's own ends it as theirs.
  const nothingMore = NOTHING_MORE.test(utterance.replace(/[’‘]/g, "'").trim());
  if (heard.kind === 'silence' || heard.kind === 'skip' || nothingMore) return close(turn);
  if (heard.kind === 'goodbye')
    return { text: say(turn, turn.phrasing.goodbye, 'goodbye'), endReason: 'participant_ended' };
  // "Sorry, what was that?": the wrap-up again, and the invitation in other words.
  if (heard.kind === 'repeat')
    return { text: join(nextSteps(turn) ?? '', say(turn, turn.phrasing.more, 'more', '')), endReason: null };
  const reading = readAsides(utterance);
  const parts = asides(turn, reading);
  if (reading.answer) {
    // A question asked without a question mark, as speech-to-text writes it.
    const unmarked = /^(?:what|how|why|who|when|where|which|tell me)\b/i.test(reading.answer);
    if (unmarked && countWords(reading.answer) >= 3) parts.push(answerParticipant(turn, reading.answer));
    else parts.push(acknowledge(turn, reading.answer));
  }
  return { text: join(...parts, say(turn, turn.phrasing.more, 'more', '')), endReason: null };
}

export function personaLedReply(turn: Turn, heard: Utterance): ComposedReply {
  const { phrasing, state } = turn;
  if (state.wrappedUp) return afterScript(turn, heard);
  const started = state.cursor >= 0;
  switch (heard.kind) {
    case 'goodbye':
      return { text: say(turn, phrasing.goodbye, 'goodbye'), endReason: 'participant_ended' };
    case 'silence':
      return {
        text: join(say(turn, phrasing.silence, 'silence', ''), pending(turn, 'resume', phrasing.resume)),
        endReason: null,
      };
    case 'repeat':
      return { text: pending(turn, 'repeat', phrasing.repeat), endReason: null };
    case 'skip':
      return started
        ? advance(turn, say(turn, phrasing.skip, 'skip', ''), '')
        : { text: pending(turn, 'first', []), endReason: null };
    default:
      break;
  }
  const reading = readAsides(state.utterance ?? '');
  const aside = asides(turn, reading);
  // Only asides (small talk, a probe, a question): answered, then the pending question again.
  if (!started || reading.answer.length === 0)
    return {
      text: join(
        ...aside,
        pending(turn, started ? 'resume' : 'first', started ? phrasing.resume : [], reading.social !== null),
      ),
      endReason: null,
    };
  const answer = reading.answer;
  // Short, or hedged with nothing specific in it ("maybe 5% for three years" is specific).
  const words = countWords(answer);
  const content = answer
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}']/gu, '').toLowerCase())
    .filter((w) => w.length >= 4 && !STOPWORDS.has(w));
  const specific = /\d/.test(answer) || content.length >= 4;
  const vague = words < VAGUE_WORD_LIMIT || (words < 15 && HEDGED.test(answer) && !specific);
  if (vague && !state.followUpAsked) {
    // A vague answer is said back as a question ("Just stuff?") before the probe.
    const echo = reflect(answer);
    const ack = echo && !turn.said.has(echo) ? echo : acknowledge(turn, answer);
    turn.said.add(ack);
    return { text: join(ack, ...aside, say(turn, phrasing.followUps, 'follow-up')), endReason: null };
  }
  return advance(turn, join(acknowledge(turn, answer), ...aside), answer);
}
