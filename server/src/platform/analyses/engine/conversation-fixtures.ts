// Three conversations per direction, shared by the evaluator's ranking tests: a real conversation,
// one that stuffs the goals' keywords into answers without asking anything, and an "ok / dunno" one.
// Discovery: the seeded requirement-gathering scenario (the participant leads, Daniel answers).
// Interview: the backend screen of test-fixtures.ts (the persona leads, the participant answers).

import { INTERVIEW_GOALS, STRONG_INTERVIEW } from './test-fixtures.ts';
import type { GoalDefinition, TranscriptTurn } from './types.ts';

const turn =
  (speaker: 'user' | 'agent') =>
  (startSeconds: number, message: string): TranscriptTurn => ({ speaker, message, startSeconds });
const agent = turn('agent');
const user = turn('user');

/** The goals of the seeded requirement-gathering scenario (scenarios/seeds.ts). */
export const DISCOVERY_GOALS: GoalDefinition[] = [
  {
    id: 'goal-problem',
    name: 'Problem discovery',
    description: 'Did the participant uncover how dispatch works today and why it hurts?',
    instructions:
      'Score 1-10. 9-10: asked open questions that surfaced the spreadsheet process, the two-hour planning time and the impact of last-minute changes. 5-8: surfaced part of the problem. 1-4: jumped to solutions.',
    active: true,
  },
  {
    id: 'goal-users',
    name: 'Users and needs',
    description: 'Did the participant identify the different users and what each needs?',
    instructions:
      'Score 1-10. 9-10: distinguished dispatchers, depot managers and drivers and asked about each one’s needs. 5-8: identified some users. 1-4: treated everyone as one user.',
    active: true,
  },
  {
    id: 'goal-priorities',
    name: 'Priorities and constraints',
    description: 'Did the participant separate must-haves from nice-to-haves and capture the constraints?',
    instructions:
      'Score 1-10. 9-10: separated must-haves from nice-to-haves and captured the deadline, the budget and the EU data requirement. 5-8: captured some of these. 1-4: none.',
    active: true,
  },
  {
    id: 'goal-playback',
    name: 'Playback and next steps',
    description: 'Did the participant summarise what they heard, agree success measures and next steps?',
    instructions:
      'Score 1-10. 9-10: an accurate playback, measurable success criteria and concrete next steps with owners. 5-8: a partial summary or vague next steps. 1-4: no summary.',
    active: true,
  },
];

const DANIEL_OPENS = agent(
  0,
  "Hi, I'm Daniel Okafor, I run operations at Northwind Logistics. Thanks for taking this on. Ask me whatever you need about how we plan deliveries.",
);

export const DISCOVERY_REAL: TranscriptTurn[] = [
  DANIEL_OPENS,
  user(8, 'Thanks, Daniel. To start, how do your dispatchers plan the routes today?'),
  agent(
    14,
    'Every morning they plan tomorrow’s routes in spreadsheets. It takes about two hours per depot, and mistakes cause late deliveries.',
  ),
  user(26, 'Two hours per depot is a lot. What happens when something changes during the day?'),
  agent(
    32,
    'That is the biggest pain. When a driver calls in sick or an urgent order arrives, the plan has to be redone by hand, and customers complain about missed delivery windows.',
  ),
  user(46, 'Who would use the new tool, and what does each of them need from it?'),
  agent(
    52,
    'Six dispatchers would use it daily on desktops. Our three depot managers want weekly reports, and the drivers only need a read-only route on their phones.',
  ),
  user(68, 'What must the first version do, and what would be nice to have later?'),
  agent(
    75,
    'It must import orders from our nightly CSV export, assign orders to drivers, respect time windows and van capacity, and let us reassign stops quickly. Text messages to customers and live driver locations would be nice to have.',
  ),
  user(95, 'Are there constraints I should know about, such as a deadline, the budget or where data lives?'),
  agent(
    102,
    'It has to be live before peak season in four months, the budget covers one phase only, and customer data must stay in the EU.',
  ),
  user(115, 'How would you know the tool worked?'),
  agent(120, 'Planning under 30 minutes per depot, and on-time deliveries rising from 86% to 95%.'),
  user(
    132,
    'Let me play back what I heard. Your six dispatchers spend about two hours per depot on spreadsheets, and last-minute changes break the plan. The must-haves are the CSV import, assignment with time windows and van capacity, and quick reassignment; the deadline is four months, one phase of budget, data in the EU. Success means planning under 30 minutes and 95% on time. Did I get that right?',
  ),
  agent(160, 'Yes, that is it.'),
  user(
    166,
    'Great. As next steps, I will send you a written summary by Friday, and I would like to book a session with two dispatchers next week. Could you name who I should talk to?',
  ),
  agent(
    182,
    'I will ask Sam and Priya from the north depot to join. Send me the summary and we will go from there.',
  ),
  user(192, 'Thank you, Daniel. Talk soon.'),
];

/** Every goal's vocabulary, asserted in statements; not one question asked. */
export const DISCOVERY_STUFFED: TranscriptTurn[] = [
  DANIEL_OPENS,
  user(
    8,
    'Problem discovery: dispatch today, spreadsheet process, two-hour planning time, last-minute changes, impact, open questions, surfaced the problem, solutions.',
  ),
  agent(20, 'Sorry, what would you like to know?'),
  user(
    26,
    'Users and needs: dispatchers, depot managers and drivers, different users, each one’s needs, identified users, distinguished.',
  ),
  agent(36, 'I am not sure what you are asking.'),
  user(
    42,
    'Priorities and constraints: must-haves, nice-to-haves, deadline, budget, EU data requirement, captured constraints, separated priorities.',
  ),
  agent(52, 'Okay.'),
  user(
    56,
    'Playback and next steps: accurate playback, summarise what I heard, measurable success criteria, success measures, concrete next steps with owners, agreed.',
  ),
  agent(68, 'Alright, thanks.'),
];

export const DISCOVERY_DUNNO: TranscriptTurn[] = [
  DANIEL_OPENS,
  user(8, 'ok'),
  agent(14, 'What would you like to know first?'),
  user(20, 'dunno'),
  agent(26, 'Maybe start with how we plan routes today?'),
  user(32, 'ok sure'),
  agent(38, 'Alright. Anything else?'),
  user(44, 'no'),
];

export { INTERVIEW_GOALS };
export const INTERVIEW_REAL: TranscriptTurn[] = STRONG_INTERVIEW;

/** The interview goals' vocabulary, recited as answers; nothing answered, nothing asked. */
export const INTERVIEW_STUFFED: TranscriptTurn[] = [
  agent(0, "Hi, I'm Morgan from the platform team. Could you start by telling me about your background?"),
  user(
    6,
    'Communicate clearly, structured concise ideas, clear point, concrete example, teammate, explains, structured answers.',
  ),
  agent(18, 'Tell me about a hard technical problem you solved recently.'),
  user(
    24,
    'Technical depth, backend experience, databases, latency, scaling, trade-offs, incidents, specific technical detail, trade-off reasoning.',
  ),
  agent(40, 'How do you handle incidents in production?'),
  user(
    46,
    'Thoughtful questions, interviewer, team, system, success measured, genuine questions, role, team structure.',
  ),
  agent(60, 'Do you have any questions for me?'),
  user(66, 'Backend databases latency scaling incidents team system role success.'),
  agent(74, 'Okay. Thanks for your time.'),
];

export const INTERVIEW_DUNNO: TranscriptTurn[] = [
  agent(0, "Hi, I'm Morgan from the platform team. Could you start by telling me about your background?"),
  user(6, 'ok'),
  agent(12, 'Tell me about a hard technical problem you solved recently.'),
  user(18, 'dunno'),
  agent(24, 'How do you handle incidents in production?'),
  user(30, 'ok'),
  agent(36, 'Do you have any questions for me?'),
  user(42, 'no'),
];
