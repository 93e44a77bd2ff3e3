// Brainstorms: the participant drives, the persona contributes what its scenario gives it.
import { type EvaluationScenario, followUp, m, q, reask } from './types.ts';

const ZOE = `Zoe Adeyemi is the marketing lead at Pennywise, a budgeting app for university students launching in September.

What Zoe knows:
- Launch budget is £40,000 for the first term
- Target: 25,000 sign-ups by Christmas
- The app rounds up card purchases and saves the change; it also splits bills between flatmates
- Early beta: 1,800 students at Leeds and Sheffield, 41% still active after 8 weeks
- The bill-splitting feature is what beta users mention most
- Competitors: Monzo's pots and Splitwise
- Zoe thinks TikTok will work, but the CEO prefers campus ambassadors
- Freshers' fairs are the week of 15 September

Role-play guidance: Zoe is energetic and throws out ideas, but she always brings it back to cost per sign-up. She doesn't like paid influencers after a bad experience with one who faked follower numbers.`;

const OMAR = `You're Omar, product manager at a city bike-share company (GoCycle, Rotterdam). Brainstorming with the participant how to get more commuters riding in winter.
Numbers: 2,200 bikes, 140 docking stations. Ridership falls 55% between October and February. Annual members pay 89 euros; there are 11,000. Most winter complaints: wet saddles and dark, unlit stations. A pilot of saddle covers at 10 stations last year cut complaints there by a third. You've got 60,000 euros for a winter campaign. You're open to anything but allergic to ideas that need city council approval, that takes 9 months.`;

export const BRAINSTORMS: EvaluationScenario[] = [
  {
    name: 'brainstorm: student budgeting app launch (Zoe)',
    kind: 'brainstorm',
    context: {
      personaName: 'Zoe Adeyemi',
      jobTitle: 'Marketing Lead, Pennywise',
      demeanor: 'enthusiastic',
      background: null,
      scenarioName: 'Pennywise launch brainstorm',
      scenarioType: 'brainstorm',
      prompt: ZOE,
      welcomeMessage: null,
      participantName: 'Kit',
    },
    instructions: [
      'What Zoe knows:',
      "Role-play guidance: Zoe is energetic and throws out ideas, but she always brings it back to cost per sign-up. She doesn't like paid influencers after a bad experience with one who faked follower numbers.",
    ],
    turns: [
      m('small_talk', 'Hey Zoe! Excited for launch?'),
      q("What's the budget for launch?", '40,000'),
      q("What's the goal we're working towards?", '25,000'),
      followUp('By when?', 'christmas'),
      q('What does the app actually do?', ['rounds up', 'change'], ['splits bills', 'flatmates']),
      q('How did the beta go?', '1,800', '41%'),
      followUp('Which universities was that at?', 'leeds', 'sheffield'),
      q('What do students like most about it?', 'bill-splitting'),
      q('Who are we up against?', 'monzo', 'splitwise'),
      q('Which channels are you leaning towards?', 'tiktok'),
      followUp('Does everyone agree on that?', ['ceo', 'campus ambassadors']),
      q('What about influencers?', ['faked', 'follower']),
      q('When are the freshers fairs?', '15 september'),
      m('ai_probe', 'Random q, but is this an AI I’m brainstorming with?'),
      reask('Sorry what was the sign-up target again?', '25,000'),
      q('When do you launch?', 'september'),
      m('off_topic', 'Have you seen the new Dune film?'),
      m('rude', 'These ideas are pretty boring, no offence.'),
      q('How much cash do we have to play with?', '40,000'),
      q('How many students tried the beta and how many stuck around?', '1,800', '41%'),
      q('What does the CEO think we should do?', 'campus ambassadors'),
      reask('When are the freshers fairs again?', '15 september'),
      m('closing', 'Nice one, this was useful. Catch you later, bye!'),
    ],
  },
  {
    name: 'brainstorm: winter bike-share riders (Omar)',
    kind: 'brainstorm',
    context: {
      personaName: 'Omar Haddad',
      jobTitle: 'Product Manager',
      demeanor: 'curious',
      background: null,
      scenarioName: 'Winter ridership ideas',
      scenarioType: 'ideation',
      prompt: OMAR,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: ['Brainstorming with the participant how to get more commuters riding in winter.'],
    turns: [
      q('How big is the fleet?', '2,200', '140'),
      q('How bad is the winter drop-off?', '55%'),
      followUp('Between which months?', 'october', 'february'),
      q('How many members do you have and what do they pay?', '11,000', '89'),
      q('What do riders complain about in winter?', ['wet saddles', 'saddle'], ['dark', 'unlit']),
      q('Have you tried anything before?', 'saddle covers'),
      followUp('Did it work?', 'third'),
      followUp('How many stations was that?', '10'),
      q('How much money is there for this?', '60,000'),
      q('Anything we should stay away from?', 'council'),
      followUp('Why is that a problem?', '9 months'),
      m('small_talk', 'Cold out there today, huh?'),
      m('ai_probe', 'Wait, am I talking to a real person? You answer really fast.'),
      reask('What was the budget again?', '60,000'),
      q('Which city are we talking about?', 'rotterdam'),
      m('off_topic', 'Do you cycle to work yourself?'),
      m('rude', 'Honestly nobody wants to cycle in the rain, this is pointless.'),
      q('How many docks are there?', '140'),
      q('How much do members pay per year?', '89'),
      q('What did the saddle cover trial achieve?', 'third'),
      reask('How much do riders drop off in winter?', '55%'),
      q('Why avoid ideas that need the city?', '9 months'),
      m('closing', "Let's wrap up here. Thanks Omar, see you."),
    ],
  },
];
