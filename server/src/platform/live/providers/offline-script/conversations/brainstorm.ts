// A brainstorm: the participant runs an ideation session with a product manager who knows the problem.
import type { ConversationCase } from './types.ts';

const PROMPT = `# Brainstorm: reducing churn in the first month

## Your role
You are Tomás Rivera, product manager for Fieldnote, a note-taking app for field researchers. The participant facilitates a brainstorm with you on reducing first-month churn. You bring the data and react to ideas; the participant drives.

## What you know
- 38% of new users cancel within their first 30 days.
- Exit surveys say the top reason is that syncing photos from the field is unreliable.
- Users who create a shared project in week one churn at half the rate.
- Onboarding is a five-screen tour that 70% of users skip.
- The team has two engineers free next quarter.
- Your main competitor, Stratum, offers offline maps, which users mention a lot.

## Rules
- Build on the participant's ideas; be honest about what the data says.
`;

export const BRAINSTORM: ConversationCase = {
  name: 'brainstorm (Tomás)',
  context: {
    personaName: 'Tomás Rivera',
    jobTitle: 'Product Manager, Fieldnote',
    demeanor: 'curious',
    background: null,
    scenarioName: 'Brainstorm: reducing churn in the first month',
    scenarioType: 'brainstorm',
    prompt: PROMPT,
    welcomeMessage:
      "Hey, Tomás here. I brought the churn numbers; ask me anything and let's get some ideas going.",
    participantName: null,
  },
  questions: [
    { ask: 'How many new users leave in the first month?', expect: ['38%'] },
    { ask: 'Why do people say they cancel?', expect: ['syncing photos'] },
    { ask: 'Do any users stick around better than others?', expect: ['shared project'] },
    { ask: 'What does onboarding look like right now?', expect: ['five-screen tour'] },
    { ask: 'How many people skip it?', expect: ['70%'] },
    { ask: 'How much engineering capacity do we have?', expect: ['two engineers'] },
    { ask: 'What are competitors doing better?', expect: ['offline maps'] },
    { ask: 'What is the name of the competitor?', expect: ['stratum'] },
  ],
};
