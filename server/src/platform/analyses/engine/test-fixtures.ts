// Hand-written transcripts shared by the analysis tests: one backend-engineer interview answered
// well, one answered poorly, with the same interviewer questions and goals.

import type { GoalDefinition, TranscriptTurn } from './types.ts';

export const INTERVIEW_GOALS: GoalDefinition[] = [
  {
    id: 'goal-clarity',
    name: 'Communicate clearly',
    description: 'Explains ideas in a structured, concise way that a teammate can follow.',
    instructions: 'Score 1-10. High scores for structured answers with a clear point and a concrete example.',
    active: true,
  },
  {
    id: 'goal-depth',
    name: 'Demonstrate technical depth',
    description: 'Shows real backend experience: databases, latency, scaling, trade-offs and incidents.',
    instructions: 'Score 1-10 based on how specific the technical detail and trade-off reasoning are.',
    active: true,
  },
  {
    id: 'goal-questions',
    name: 'Ask thoughtful questions',
    description: 'Asks the interviewer about the team, the system and how success is measured.',
    instructions: 'Rate on a 1–5 scale. Count genuine questions about the team or the role.',
    active: true,
  },
];

const agent = (startSeconds: number, message: string): TranscriptTurn => ({
  speaker: 'agent',
  message,
  startSeconds,
});
const user = (startSeconds: number, message: string): TranscriptTurn => ({
  speaker: 'user',
  message,
  startSeconds,
});

export const STRONG_INTERVIEW: TranscriptTurn[] = [
  agent(0, "Hi, I'm Morgan from the platform team. Could you start by telling me about your background?"),
  user(
    6,
    'Sure. My name is Priya and I work at Finlytics as a backend engineer. I have 6 years of experience building payment APIs in Go and PostgreSQL, and I lead a team of four engineers.',
  ),
  agent(24, 'Tell me about a hard technical problem you solved recently.'),
  user(
    30,
    'Our checkout API had a p99 latency of 900 milliseconds during peak traffic. I traced it to lock contention on the orders table, because every request updated a shared counter row. We moved the counter into Redis and batched the database writes, which cut p99 latency to 120 milliseconds and saved about 30 percent of our database load.',
  ),
  agent(62, 'How did you decide between Redis and fixing it in the database?'),
  user(
    68,
    'The trade-off was consistency versus latency. For example, a lost increment in Redis only skews a dashboard, so we accepted eventual consistency there, but payments stayed in PostgreSQL with strict transactions. I wrote that decision down in a design doc so the team could review the scaling assumptions.',
  ),
  agent(98, 'How do you handle incidents in production?'),
  user(
    104,
    'First I stabilise, then I diagnose. In one incident a bad migration locked a large table for eight minutes. We rolled back within ten minutes, and afterwards I added a migration linter and a staging replay, which reduced failed deploys from five a month to one.',
  ),
  agent(136, 'Do you have any questions for me?'),
  user(
    142,
    'Yes, a few. How is the platform team structured, and who owns on-call? What does success look like for this role in the first six months? And which part of your system is hardest to scale right now?',
  ),
  agent(165, 'Great questions. Thanks, Priya, that covers everything on my side.'),
  user(172, 'Thank you, Morgan. I enjoyed the conversation and I am excited about the role.'),
];

export const WEAK_INTERVIEW: TranscriptTurn[] = [
  agent(0, "Hi, I'm Morgan from the platform team. Could you start by telling me about your background?"),
  user(6, 'Um, yeah, I do, like, backend stuff, I guess.'),
  agent(12, 'Tell me about a hard technical problem you solved recently.'),
  user(
    18,
    'So, um, there was this, you know, slow thing. I think we maybe just kind of fixed it, sort of. It was, uh, basically fine after.',
  ),
  agent(34, 'How did you decide between Redis and fixing it in the database?'),
  user(40, "I don't know, probably we just picked one."),
  agent(46, 'How do you handle incidents in production?'),
  user(52, 'Um, I just, I just try to fix it, I guess.'),
  agent(60, 'Do you have any questions for me?'),
  user(66, 'No, not really.'),
  agent(70, 'Okay. Thanks for your time.'),
  user(74, 'Thanks.'),
];
