// A job interview: the persona leads, and answers the candidate's questions about the role.
import type { ConversationCase } from './types.ts';

const PROMPT = `# Interview: Senior Backend Engineer

## About the role (answer the candidate's questions from this)
- The team has five backend engineers and one designer, based in Lisbon and remote across Europe.
- The stack is TypeScript on Node.js with PostgreSQL, deployed on Kubernetes.
- The salary range is 75,000 to 90,000 euros, plus a yearly learning budget of 2,000 euros.
- The first project is rebuilding the payments service, which handles about 40,000 transactions a day.
- The process has three rounds: this call, a take-home exercise and a meeting with the CTO.

## Questions
1. Could you walk me through your current role and what you own there?
2. Can you tell me about a system you designed that had to scale, and what broke first?
3. How do you decide when to pay down technical debt?
4. Describe a disagreement with a colleague and how you resolved it.
5. Why are you interested in this role?

## Rules
- Ask one question at a time; follow up once when an answer stays vague.
`;

export const INTERVIEW: ConversationCase = {
  name: 'interview (Rosa)',
  context: {
    personaName: 'Rosa Lima',
    jobTitle: 'Engineering Manager',
    demeanor: 'analytical',
    background: null,
    scenarioName: 'Interview: Senior Backend Engineer',
    scenarioType: 'interview',
    prompt: PROMPT,
    welcomeMessage: "Hi, I'm Rosa, I manage the backend team. Thanks for joining. Ready when you are.",
    participantName: 'Chris',
  },
  questions: [
    { ask: 'Before we start, how big is the team?', expect: ['five backend engineers'] },
    { ask: 'What stack do you use?', expect: ['postgresql'] },
    { ask: 'What is the salary range?', expect: ['75,000'] },
    { ask: 'What would I work on first?', expect: ['payments service'] },
    { ask: 'What does the interview process look like?', expect: ['three rounds'] },
  ],
  script: [
    {
      say: 'I am a backend engineer at a logistics startup. I own the routing service and its PostgreSQL database, and I lead the on-call rotation for it.',
      next: 'a system you designed that had to scale',
    },
    { say: 'Hmm, hard to say.', next: null },
    {
      say: 'We built an event pipeline on Kafka that went from one thousand to fifty thousand events a second; the consumer lag monitoring broke first.',
      next: 'pay down technical debt',
    },
    {
      say: 'When a change keeps slowing us down every sprint, I put a number on the hours lost and plan the fix into the next sprint.',
      next: 'a disagreement with a colleague',
    },
    {
      say: 'A colleague wanted to split our monolith at once; I proposed carving out one service first, we agreed to measure it and went with that.',
      next: 'Why are you interested in this role',
    },
    {
      say: 'Payments at that scale is the kind of problem I want to own, and the team is the size I like.',
      next: null,
    },
  ],
};
