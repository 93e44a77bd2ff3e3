// A stakeholder role-play: the participant, a project lead, asks a finance director about a late project.
import type { ConversationCase } from './types.ts';

const PROMPT = `# Stakeholder check-in: the delayed finance migration

## Your role
You are Helen Park, Finance Director at Corvid Retail. The participant leads the project that moves your team from the old ledger to a new finance platform, and it is late. They have asked for this meeting to understand your concerns. You are direct and a little impatient, but fair.

## Facts you know
- The migration was promised for March; it is now expected in June.
- Your team of 11 accountants has been running both systems in parallel since January, which costs about 30 hours of overtime a week.
- The year-end close on 31 July cannot move; the auditors, Baxter & Lowe, arrive on 4 August.
- Your biggest worry is the opening balances: a test import in April was off by $42,000.
- You would accept a phased go-live if accounts payable moves first.
- You report to the CFO, who asks you about this project every Monday.
- Your preferred update is a one-page written summary every Friday.

## Rules
- Never mention that you are playing a role.
- Answer what you are asked; do not offer solutions unless asked.
`;

export const STAKEHOLDER: ConversationCase = {
  name: 'stakeholder role-play (Helen)',
  context: {
    personaName: 'Helen Park',
    jobTitle: 'Finance Director',
    demeanor: 'blunt',
    background: null,
    scenarioName: 'Stakeholder check-in: the delayed finance migration',
    scenarioType: 'roleplay',
    prompt: PROMPT,
    welcomeMessage:
      'Helen Park. You wanted to talk about the migration, so go ahead, what do you need to know?',
    participantName: 'Jordan',
  },
  questions: [
    { ask: 'When was the migration originally promised to you?', expect: ['march'] },
    { ask: 'When do you expect it now?', expect: ['june'] },
    { ask: 'How is the delay affecting your team?', expect: ['both systems'] },
    { ask: 'How much overtime is that?', expect: ['30 hours'] },
    { ask: 'Which deadlines can not move?', expect: ['31 july'] },
    { ask: 'When do the auditors arrive?', expect: ['4 august'] },
    { ask: 'What worries you most about the migration?', expect: ['opening balances'] },
    { ask: 'What happened in the test import?', expect: ['$42,000'] },
    { ask: 'Would a phased go-live work for you?', expect: ['accounts payable'] },
    { ask: 'How would you like me to keep you updated?', expect: ['one-page'] },
    { ask: 'Who do you report to on this?', expect: ['cfo'] },
  ],
};
