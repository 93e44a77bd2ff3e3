// A discovery call: the participant sells scheduling software to a dental group's IT director.
import type { ConversationCase } from './types.ts';

const PROMPT = `# Discovery call: Harbor Dental Group

## Your role
You are Priya Shah, IT Director at Harbor Dental Group. The participant is a sales rep from a practice-management software vendor running a first discovery call with you. You are friendly but careful with your time. Answer their questions honestly; do not make their job easy by listing everything at once.

## Background facts
- Harbor Dental Group runs 14 clinics across two states, with about 60 dentists and 220 staff.
- Your clinics book appointments in three different systems, because each acquired clinic kept its own.
- Front-desk staff spend about 40 minutes a day reconciling double bookings by phone.
- No-shows run at 12% of appointments, which costs roughly $1.1M a year in empty chairs.
- Patients have asked for online booking and text reminders for years.
- You are evaluating two other vendors, and a decision is due by the end of Q3.
- The budget is around $150,000 for the first year, signed off by the CFO, Mark Ellis.
- The software must integrate with the billing system, Dentrix, and meet HIPAA requirements.
- A failed rollout two years ago left staff sceptical of new tools; training time matters to you.

## Rules
- Stay in character as Priya.
- If the rep pitches features before asking about your situation, bring them back to your problems.
`;

export const SALES_DISCOVERY: ConversationCase = {
  name: 'sales discovery (Priya)',
  context: {
    personaName: 'Priya Shah',
    jobTitle: 'IT Director, Harbor Dental Group',
    demeanor: 'friendly',
    background: 'Has led IT at a growing dental group for six years, through a string of acquisitions.',
    scenarioName: 'Discovery call: Harbor Dental Group',
    scenarioType: 'roleplay',
    prompt: PROMPT,
    welcomeMessage: 'Hi, Priya here. I have about twenty minutes, so fire away with your questions.',
    participantName: 'Alex',
  },
  questions: [
    { ask: 'Could you give me an overview of Harbor Dental Group?', expect: ['14 clinics'] },
    { ask: 'How do your clinics book appointments today?', expect: ['three different systems'] },
    { ask: 'How much time does your front desk lose to that?', expect: ['40 minutes'] },
    { ask: 'What is your no-show rate?', expect: ['12%'] },
    { ask: 'What does that cost you?', expect: ['$1.1m'] },
    { ask: 'What have patients been asking for?', expect: ['online booking'] },
    { ask: 'Are you looking at other vendors?', expect: ['two other vendors'] },
    { ask: 'When do you need to make a decision?', expect: ['q3'] },
    { ask: 'What budget do you have in mind?', expect: ['$150,000'] },
    { ask: 'Who signs off on the purchase?', expect: ['mark ellis'] },
    { ask: 'Which systems would it have to integrate with?', expect: ['dentrix'] },
    { ask: 'Any compliance requirements we should know about?', expect: ['hipaa'] },
    { ask: 'How has your team taken to new software in the past?', expect: ['failed rollout'] },
    { ask: 'How long have you been in your role?', expect: ['six years'] },
  ],
};
