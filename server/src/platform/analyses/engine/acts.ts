// What a participant sentence DOES, read from its form rather than from a goal's words: asks (open
// or closed, with or without a question mark), commits to a next step (an actor, an action and
// ideally a time), gives a reason, states a specific, shows empathy, owns the problem or blames
// someone, fixes something, proposes an idea, picks up the partner's idea, or makes a decision.
// compromise (nlp) tags dates, values, people and verbs; short phrase lists cover what tags cannot
// (a feeling named back, "on us"). Documented in docs/analysis.md ("Offline evaluator").

import nlp from 'compromise';
import { contentStems, naturalness } from './conversation-evidence.ts';
import { normalizeQuotes, type ParticipantSentence, sortTurns, speakerSentences } from './text.ts';
import type { TranscriptTurn } from './types.ts';

export type Act =
  | 'question'
  | 'openQuestion'
  | 'nextStep'
  | 'reason'
  | 'specific'
  | 'empathy'
  | 'acknowledge'
  | 'ownership'
  | 'blame'
  | 'fix'
  | 'idea'
  | 'build'
  | 'decision'
  | 'reject';

export interface SentenceActs {
  sentence: ParticipantSentence;
  /** Each act found, with its strength (0–1]: a next step without a time is weaker than one with. */
  acts: Map<Act, number>;
}

const LEAD_IN = String.raw`^(?:(?:and|so|ok|okay|right|then|also|but|oh|great|perfect|and then)[,\s]+)*`;
const OPEN_START = new RegExp(
  `${LEAD_IN}(what(?!\\s+if\\b)|how(?!\\s+about\\b)|why|who|where|when|which|tell me|walk me through|say more|talk me through|describe|help me (see|understand)|i'?m curious|i'?d love to (hear|know|understand)|i wonder)\\b`,
);
const CLOSED_START = new RegExp(
  `${LEAD_IN}(do|does|did|can|could|would|will|is|are|was|were|have|has|anything|any)\\s+(you|we|they|he|she|it|i|that|this|there|the|your|else|anything|one)\\b|${LEAD_IN}anything\\b`,
);
/**
 * An indirect question asks whatever its punctuation: a wish to know followed by what is asked
 * ("I'm curious what keeps you up at night.", "I'd love to hear how you'll judge it.").
 */
const INDIRECT_QUESTION = new RegExp(
  `${LEAD_IN}(i'?m (really |so )?curious|i'?d (love|like) to (hear|know|understand|learn)|i wonder|i want to (know|understand))\\b.*\\b(what|how|why|who|whether|if|where|when|which)\\b`,
);
const PROPOSAL =
  /\b(what if|how about|we could|they could|could also|let's (try|do|make|run)|maybe (we|a|an)|one more:|^(one|two|three|four|five|six):)/;
const TIME =
  /\b(today|tonight|tomorrow|this (morning|afternoon|evening|week|sprint|month)|next (week|month|sprint)|within|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d|the end|end of|tomorrow|tonight)|at \d|\d\s?(am|pm)|around (one|two|three|four|five|six|seven|eight|nine|ten|eleven|noon|\d)|in (about )?(a|an|one|two|three|\d+) (minutes?|hours?|days?|weeks?)|before you|on the \d+(st|nd|rd|th)?|on (monday|tuesday|wednesday|thursday|friday)|straight after|right now|the monday after)\b/;
const VAGUE_TIME = /\b(at some point|as soon as possible|soon|in touch|sometime|one day|eventually|later)\b/;
const NOT_AN_ACTION =
  /\b(will|'ll|going to|shall)\s+(just\s+|probably\s+|definitely\s+)?(think|see|hope|try|need|want|guess|wonder|know|have to|be in touch|keep|stay)\b/;
const FUTURE_ACTION =
  /\b(i|we|you|he|she|they|it|[a-z]+)\s*('ll|will|am going to|'m going to|are going to|is going to)\s+(also\s+|then\s+|personally\s+)?[a-z]+/;
const FUTURE_ACTIONS = new RegExp(FUTURE_ACTION.source, 'g');
// The present progressive and the present tense also announce plans ("I'm writing it up this
// afternoon", "the 30th goes in the calendar", "the offer lands in my inbox by Wednesday").
const OTHER_COMMITMENT =
  /(^|[,;:]\s*|\band\s+)(expect (her|his|their|my|a|an|the)|let's (meet|book|schedule|pick|go|sit|look|agree|talk)|can we (book|schedule|meet|set)|could you (reach out|send|talk|call)|you talk to|we (sit down|look at|meet))\b|\bi'?m (writing|sending|calling|booking|putting|setting up|scheduling)\b|\b(goes|go|lands|land) in(to)? (the|my|your|our|both our) (calendars?|diary|inbox)\b/;
/** An exchange of commitments: the condition asks the other side to act ("If you can send the letter by Wednesday, I'll sign it by Friday"). */
const EXCHANGE = /\bif (you|they) (can |could )?[a-z]+\b[^,]*,\s*(i|we)('ll| will)\b/;
const FEELING =
  /\b(frustrat\w*|stress\w*|upset\w*|furious|shock\w*|nervous|worr\w*|annoy\w*|angry|disappoint\w*|hard on you|a lot of manual work|serious|no reason to trust|not okay|awful|exhaust\w*|overwhelm\w*|painful)\b/;
const EMPATHY_FRAME =
  /\b(sounds?|must (be|have been)|probably|i'?d be|i would be|i get why|understand why|no wonder|of course you|you deserve|i'?m (so |really )?sorry|it shouldn't|makes sense|i hear you, and)\b/;
const ACKNOWLEDGE =
  /\b(fair (concern|question|enough|point)|that'?s (fair|reasonable|real|a fair|helpful to know|useful to know)|i get (why|that)|good (thought|point|question)|that makes sense|you'?re right|i hear you|i understand)\b/;
const OWNERSHIP =
  /\b(on us|on me|my fault|our fault|our mistake|my mistake|we got (this|that|it) wrong|i'?m (so |really |very )?sorry|i apologi[sz]e|under my name|i'?ll stay your|single point of contact|nobody closes|i take (full )?responsibility|let me fix|i'?m going to sort)\b/;
const BLAME =
  /\b(not me|on your side|your (firewall|fault|end)|the previous agent|company policy|according to (process|policy)|not my problem|call your insurance|you'?ll need to call|isn't much i can do|that'?s what the logs say)\b/;
const FIX_VERBS =
  /\b(i'?ve|i have|we'?ve|we have|let me|i'?ll|i can|i will)\s+(just\s+|already\s+)?(removed?|refund(ed)?|credit(ed)?|waived?|reversed?|cancel(led)?|resubmit(ted)?|fixed|fix|corrected?|reopened|reopen|take (that|the|this) \w+ off|taken \w+ off|assigned|escalated)\b|\b(done, your|your balance (shows|is) (zero|\$?0)|is on this|dropping everything|already pulling)\b/;
const BUILD_OPENING =
  /^(yes|yeah|ooh|oh|good thought|great idea|love (it|that)|i like (it|that)|building on (that|this|your)|and if|plus)\b/;
const REJECT = /\b(nah|never work|boring|hate (it|them)|won't work|not (the point|the issue)|just fix it)\b/;
const DECISION =
  /\b(let's (pick|go with|start with|try|choose)|[a-z ]+ it is\b|we'?ll (go with|start with|pick)|here'?s what would work|the plan is|first experiment is|success is|aiming for|we count|we (measure|track))\b/;
const REASON =
  /\b(because|so (that|we|you|they|it)|which (means|meant)|would have (meant|taken|cost|required)|so (nobody|no one)|that'?s (why|about where)|given (that|the)|based on|due to|since (then|we|you)|so i said|, so\b|what you get|where the (extra )?money goes|used to (be|sell|cost)|down from|instead of|in exchange for|is what the market|the market (data|pays|has))\b/;
const QUOTED = /"[^"]{3,}"/;

/** Reads the acts of one participant sentence. `prompt` is the persona's turn just before it. */
export function readActs(sentence: ParticipantSentence, prompt: string): SentenceActs {
  const text = normalizeQuotes(sentence.text).trim();
  const lower = text.toLowerCase();
  const doc = nlp(text);
  const acts = new Map<Act, number>();
  const words = sentence.tokens.length;

  const question = words >= 3 && isAsking(lower, doc);
  if (question) acts.set(OPEN_START.test(lower) ? 'openQuestion' : 'question', 1);

  const hasTime = TIME.test(lower) || doc.match('#Date').found;
  const vague = VAGUE_TIME.test(lower);
  const future = FUTURE_ACTION.test(lower) && !NOT_AN_ACTION.test(lower);
  // Each commitment clause counts ("She'll call at 2pm, and I'll email you by 5pm" is two), at most two.
  const clauses = Math.min(
    2,
    [...lower.matchAll(FUTURE_ACTIONS)].length +
      (OTHER_COMMITMENT.test(lower) ? 1 : 0) +
      (EXCHANGE.test(lower) ? 1 : 0),
  );
  if ((future || OTHER_COMMITMENT.test(lower)) && !vague)
    acts.set('nextStep', (hasTime ? 1 : 0.4) * Math.max(1, clauses));
  // A plan in the present tense: "On the 30th we sit down", "you get reviews back the same day":
  // a forward time and an action verb (compromise: present tense, not a copula), nothing past.
  if (!acts.has('nextStep') && TIME.test(lower) && !question && presentAction(doc)) {
    acts.set('nextStep', 0.7);
  }

  const hasValue = doc.match('#Value').found || /\d/.test(lower);
  if (hasValue || QUOTED.test(text) || doc.match('#Date').found) acts.set('specific', 1);
  if (REASON.test(lower) && words >= 6) acts.set('reason', 1);

  const feeling = FEELING.test(lower);
  // A feeling named back in a frame ("that sounds frustrating", "I'd be furious too") is empathy;
  // "I understand you're upset" alone is a weaker gesture.
  if (feeling && EMPATHY_FRAME.test(lower)) acts.set('empathy', 1);
  else if (feeling || /\bi'?m (so |really )?sorry\b/.test(lower)) acts.set('empathy', 0.25);
  if (ACKNOWLEDGE.test(lower)) acts.set('acknowledge', 1);
  if (OWNERSHIP.test(lower)) acts.set('ownership', 1);
  if (BLAME.test(lower)) acts.set('blame', 1);
  // A fix done or promised ("I've removed", "let me take it off") is a fix; "I can reopen it" only
  // offers one.
  const fix = FIX_VERBS.exec(lower);
  if (fix) acts.set('fix', /^(i|we) can\b/.test(fix[0]) ? 0.5 : 1);

  if (PROPOSAL.test(lower) || isIdeaFragment(lower, doc)) acts.set('idea', 1);
  if (BUILD_OPENING.test(lower) && words >= 8 && sharesWords(text, prompt)) acts.set('build', 1);
  if (REJECT.test(lower)) acts.set('reject', 1);
  if (DECISION.test(lower)) acts.set('decision', 1);
  return { sentence, acts };
}

/** An action in the present tense with nothing in the past ("we sit down", not "he wrote"). */
function presentAction(doc: ReturnType<typeof nlp>): boolean {
  if (doc.has('#PastTense')) return false;
  return doc
    .verbs()
    .json()
    .some((v: { verb?: { grammar?: { tense?: string; copula?: boolean } } }) => {
      const grammar = v.verb?.grammar;
      return grammar?.tense === 'PresentTense' && grammar.copula === false;
    });
}

/** A question whatever its punctuation: "?", a question opening, or compromise's reading. */
function isAsking(lower: string, doc: ReturnType<typeof nlp>): boolean {
  if (INDIRECT_QUESTION.test(lower)) return true;
  if (/^(how about|what if)\b/.test(lower)) return lower.endsWith('?') && !PROPOSAL.test(lower);
  if (lower.endsWith('?')) return !/,\s*(right|yeah|ok|okay|huh)\?$/.test(lower);
  if (/[.!]$/.test(lower) && !/^(tell me|walk me through|say more|help me)/.test(lower)) return false;
  return OPEN_START.test(lower) || CLOSED_START.test(lower) || doc.questions().found;
}

/**
 * A proposal written as a bare noun phrase ("A student union partnership.") or a numbered item.
 * A verbless phrase of 3+ words that names things is how people list ideas aloud.
 */
function isIdeaFragment(lower: string, doc: ReturnType<typeof nlp>): boolean {
  if (!/^(a|an|referral|another)\b/.test(lower)) return false;
  return !doc.match('#Verb').found || doc.match('^(a|an) #Adjective? #Noun+ (with|for|between|where)').found;
}

/** The sentence picks up at least one content word of the persona's turn. */
function sharesWords(text: string, prompt: string): boolean {
  const theirs = contentStems(prompt);
  return [...contentStems(text)].some((s) => theirs.has(s));
}

/**
 * The acts of every participant sentence, in speaking order, each read against the persona's turn
 * before it. A turn's unpunctuated last words that the persona answers with a date, a number or a
 * name ("and the day you came in" – "March 3rd.") asked for that fact: speech recognition drops
 * the question mark and speakers drop the verb.
 */
export function readConversationActs(turns: TranscriptTurn[]): SentenceActs[] {
  const sorted = sortTurns(turns).filter((t) => t.message.trim().length > 0);
  const sentences = speakerSentences(sorted, 'user');
  const prompts: string[] = [];
  const replies: string[] = [];
  sorted.forEach((turn, i) => {
    if (turn.speaker === 'agent') return;
    const before = sorted
      .slice(0, i)
      .reverse()
      .find((t) => t.speaker === 'agent');
    const after = sorted[i + 1]?.speaker === 'agent' ? sorted[i + 1].message : '';
    prompts.push(before?.message ?? '');
    replies.push(after);
  });
  return sentences.map((sentence, i) => {
    // A keyword list ("Problem discovery: dispatch today, planning time…") does nothing.
    if (naturalness(sentence) < 0.5) return { sentence, acts: new Map<Act, number>() };
    const read = readActs(sentence, prompts[sentence.turn] ?? '');
    const last = sentences[i + 1]?.turn !== sentence.turn;
    const asking = read.acts.has('question') || read.acts.has('openQuestion');
    if (last && !asking && sentence.tokens.length >= 3 && !/[.!]\s*$/.test(sentence.text)) {
      const reply = nlp(replies[sentence.turn] ?? '')
        .sentences()
        .first();
      const answered =
        reply.match('(#Date|#Value|#Person|#Place|#Organization|#ProperNoun|#Acronym)').found ||
        /\d/.test(reply.text());
      if (answered) read.acts.set('question', 1);
    }
    return read;
  });
}
