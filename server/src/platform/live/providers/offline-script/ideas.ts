// In a brainstorm the persona builds on the participant's idea before adding its own: it takes the
// idea up in the participant's words, adds what it knows that bears on it (a budget, a constraint,
// a preference of its scenario: "I think TikTok will work, but the CEO prefers campus ambassadors"),
// and asks the question that takes the idea further.
import nlp from 'compromise';
import { answerFromFacts } from './answering.ts';
import { scenarioKind } from './defaults.ts';
import { keyPhrase } from './echo.ts';
import { rankFacts } from './retrieval.ts';
import { countWords } from './text.ts';
import { say, type Turn } from './turn.ts';

/** "What about…", "We could…", "Maybe we…", "My idea is…": the participant puts an idea forward. */
const PROPOSAL =
  /^(?:(?:ok(?:ay)?|so|well|right|hmm+|um+|and|also|oh|yeah|here's one|how about this)[,:\s]+)*(?:what about|how about|what if|we could|maybe we|perhaps we|i'?d suggest|i suggest|my idea(?: is)?|one idea(?: is)?|another idea(?: is)?|an idea(?: is)?|idea:|let'?s|why don'?t we|could we|should we|i was thinking(?: of| about| we)?|i think we should|we should|i'?d (?:go with|try|start with))(?![\w'])[\s,:]*/i;

const TAKE_UP = [
  'Ooh, {idea}, I like that.',
  'Yes, {idea} could really work.',
  "{Idea}? Now we're talking.",
  "I like the sound of {idea}. Let's build on it.",
];
/** When what the persona knows speaks against the idea ("I don't like paid influencers…"). */
const DOUBT = [
  "Hmm, {idea}… I'm not sure.",
  '{Idea}? I have my doubts.',
  "I'm wary of {idea}, to be honest.",
];
const DOUBT_FURTHER = ['What would make it work for us?', 'How would we get round that?'];
const AGAINST =
  /\b(?:don'?t|doesn'?t|won'?t|can'?t|cannot|never|not|no|hate|hates|allergic|avoid|against|dislike|dislikes|burned|bad experience)\b/i;
const FURTHER = [
  'How would we know it was working?',
  'Who would run it day to day?',
  'What would the first step be?',
  'What would it cost us, roughly?',
  'How would we make it stand out?',
];

export function proposesIdea(turn: Turn, utterance: string): boolean {
  return scenarioKind(turn.context.scenarioType) === 'brainstorm' && PROPOSAL.test(utterance.trim());
}

/** After "we could", "let's", "what if we" the idea is a verb: "run stalls" is said back as "running stalls". */
const VERB_FOLLOWS = /(?:\bwe|let'?s|\bcould|\bshould|\btry|\bstart with)[\s,:]*$/i;

function asGerund(idea: string): string {
  const [verb, ...rest] = idea.split(' ');
  const doc = nlp(verb);
  doc.tag('Verb');
  const gerund = doc
    .verbs()
    .toGerund()
    .text()
    .replace(/^(?:is|are|am) /, '');
  return gerund ? [gerund, ...rest].join(' ') : idea;
}

/** The idea in the participant's words, as a noun phrase: short enough to say back, or its key phrase. */
function ideaOf(utterance: string): string | null {
  const text = utterance.trim();
  const lead = PROPOSAL.exec(text)?.[0] ?? '';
  let idea = text
    .slice(lead.length)
    .replace(/[?.!]+$/, '')
    .trim();
  const subject = /^(?:we|i)\s+/i.exec(idea);
  if (subject) idea = idea.slice(subject[0].length);
  if (idea.length === 0) return null;
  const phrase = countWords(idea) <= 8 && !/\b(?:i|me|my|you|your)\b/i.test(idea) ? idea : keyPhrase(idea);
  if (!phrase) return null;
  const startsWithVerb = nlp(`we ${phrase}`).terms().json()[1]?.terms?.[0]?.tags?.includes('Verb');
  return (subject || VERB_FOLLOWS.test(lead)) && startsWithVerb ? asGerund(phrase) : phrase;
}

export function buildOnIdea(turn: Turn, utterance: string): string {
  const idea = ideaOf(utterance);
  const fill = (template: string) =>
    template
      .replace('{Idea}', idea ? idea[0].toUpperCase() + idea.slice(1) : '')
      .replace('{idea}', idea ?? '');
  // What the persona knows that bears on the idea (said again in other words if it was said): its addition.
  const bears = rankFacts(turn.facts, utterance)[0]?.wordMatch;
  const bearing = bears ? answerFromFacts(turn.facts, utterance, turn.said, turn.state.seed).text : '';
  // "I'm open to anything but allergic to ideas that need city council approval": doubt, not delight.
  const doubts = AGAINST.test(bearing);
  const takeUp = idea
    ? say(turn, (doubts ? DOUBT : TAKE_UP).map(fill), doubts ? 'doubt' : 'take-up', '')
    : say(turn, ['I like that.'], 'take-up', '');
  const further = say(turn, doubts ? DOUBT_FURTHER : FURTHER, 'further', '');
  return [takeUp, bearing, further].filter((part) => part.length > 0).join(' ');
}
