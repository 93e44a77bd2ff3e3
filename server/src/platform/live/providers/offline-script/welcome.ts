// The opening line used when a scenario has no welcome_message of its own.
import { type ScenarioKind, scenarioKind } from './defaults.ts';
import { parseScript } from './script.ts';

export interface WelcomeInput {
  personaName: string;
  jobTitle: string | null;
  scenarioName: string;
  scenarioType: string;
  prompt: string | null;
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
    case 'roleplay':
      return "I'm glad we could find the time. There are a few things I'd like to go through with you.";
    case 'upskill':
      return `This is a practice session: we'll work through ${questions} together, and there are no wrong answers.`;
    case 'brainstorm':
      return `Let's think through some ideas together; I'll guide us with ${questions}.`;
    default:
      return `We'll go through ${questions} together.`;
  }
}

/**
 * A welcome built from the persona and the script: who is speaking, what the session is and how
 * many questions the script holds. Contains no question of the script itself, so the first step
 * is still asked after the participant replies.
 */
export function generateWelcomeMessage(input: WelcomeInput): string {
  const kind = scenarioKind(input.scenarioType);
  const steps = parseScript(input.prompt, input.scenarioType).length;
  const name = input.personaName.trim();
  const title = input.jobTitle?.trim();
  const scenario = input.scenarioName.trim();
  const parts = [
    title ? `Hi, I'm ${name}, ${title}.` : `Hi, I'm ${name}.`,
    scenario ? `Welcome to ${scenario}.` : 'Welcome.',
    body(kind, steps),
    kind === 'roleplay' ? 'Shall we get started?' : 'Shall we begin?',
  ];
  return parts.join(' ');
}
