// The opening line used when a scenario has no welcome_message of its own. It is the persona
// speaking: when the participant leads (a call, a role-play, a brainstorm) it picks up the phone or
// places the call; when the persona leads it opens its session. The scenario's title and agenda are
// never read out.
import { type ScenarioKind, scenarioKind } from './defaults.ts';
import { whoLeads } from './lead.ts';
import { demeanorOf } from './phrasing.ts';
import { parseScript } from './script.ts';

export interface WelcomeInput {
  personaName: string;
  jobTitle: string | null;
  /** Kept for callers; the title is written for the team lead, not said to the participant. */
  scenarioName: string;
  scenarioType: string;
  prompt: string | null;
  demeanor?: string | null;
}

const NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function spell(n: number): string {
  return NUMBERS[n] ?? String(n);
}

function body(kind: ScenarioKind, steps: number): string {
  const questions = steps === 1 ? 'one question' : `${spell(steps)} questions`;
  switch (kind) {
    case 'interview':
      return `Thanks for making the time. I have ${questions} about your experience; answer in as much detail as you like.`;
    case 'upskill':
      return `This is a practice session: we'll work through ${questions} together, and there are no wrong answers.`;
    case 'brainstorm':
      return `Let's think through some ideas together; I'll guide us with ${questions}.`;
    default:
      return `Thanks for making the time. I have ${questions} for us to go through.`;
  }
}

/** The persona placed the call ("Margaret is calling about a bill", "You're ringing the support line"). */
const PERSONA_CALLS =
  /\b(?:you(?:'re| are)?|she(?:'s| is)?|he(?:'s| is)?|they(?:'re| are)?|who(?: is|'s)?) (?:calling|ringing|phoning)\b|\b(?!(?:participant|rep|user|salesperson|agent|learner|candidate)\b)[a-z]+(?: is|'s) (?:calling|ringing|phoning) (?:about|because|to|the)\b|\b(?:has|have) (?:called|rung|phoned) (?:in|the|to|about)\b/i;

/** Picking up: who answers, in the persona's manner. */
const ANSWERS: Record<string, (full: string, first: string) => string> = {
  friendly: (_, first) => `Hi, ${first} here! What can I do for you?`,
  empathetic: (_, first) => `Hello, this is ${first}. How can I help?`,
  curious: (_, first) => `Hi, ${first} speaking. What's on your mind?`,
  enthusiastic: (_, first) => `Hi, ${first} here! Good to hear from you.`,
  casual: (_, first) => `Hey, ${first} here. What's up?`,
  analytical: (full) => `${full} speaking. How can I help?`,
  critical: (full) => `${full} speaking. Go ahead.`,
  blunt: (full) => `${full}. Go ahead.`,
  assertive: (full) => `${full} speaking. What can I do for you?`,
  neutral: (full) => `Hello, ${full} speaking.`,
};
/** Placing the call. */
const CALLS: Record<string, (full: string, first: string) => string> = {
  friendly: (_, first) => `Hi, it's ${first}! Have you got a minute?`,
  empathetic: (_, first) => `Hello, it's ${first}. Is now a good time?`,
  enthusiastic: (_, first) => `Hi, it's ${first}! Have you got a minute?`,
  casual: (_, first) => `Hey, it's ${first}. Got a sec?`,
  critical: (full) => `Hello, this is ${full}. I need to talk to you about something.`,
  blunt: (full) => `It's ${full}. Have you got a minute?`,
  assertive: (full) => `Hello, this is ${full}. Do you have a moment?`,
  neutral: (full) => `Hello, this is ${full}. Do you have a moment?`,
};

/**
 * A welcome in the persona's voice. When the persona leads: who is speaking and how many questions
 * the script holds (no question of the script itself, so the first step is asked after the
 * participant replies). When the participant leads: the persona picking up (or placing) the call.
 */
export function generateWelcomeMessage(input: WelcomeInput): string {
  const name = input.personaName.trim();
  const first = name.split(/\s+/)[0] ?? name;
  if (whoLeads(input.scenarioType, input.prompt) === 'participant') {
    const demeanor = demeanorOf(input.demeanor ?? null);
    if (scenarioKind(input.scenarioType) === 'brainstorm')
      return `Hi, it's ${first}. Good to get together on this; where would you like to start?`;
    const table = PERSONA_CALLS.test(input.prompt ?? '') ? CALLS : ANSWERS;
    return (table[demeanor] ?? table.neutral)(name, first);
  }
  const kind = scenarioKind(input.scenarioType);
  const steps = parseScript(input.prompt, input.scenarioType).length;
  const title = input.jobTitle?.trim();
  const parts = [
    title ? `Hi, I'm ${name}, ${title}.` : `Hi, I'm ${name}.`,
    body(kind, steps),
    'Shall we begin?',
  ];
  return parts.join(' ');
}
