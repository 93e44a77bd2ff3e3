// A held-out check (issue 27): five scenarios written after the third session's engine changes and
// never tuned against. The engine is not changed to pass them; their figure shows how far what was
// learnt on the main set carries to text nobody shaped for it.
import { type EvaluationScenario, followUp, heldOutContext, m, q, reask } from './types.ts';

const GARETH = `Gareth Powell is the practice manager at Elmfield Dental, a two-surgery dental practice in Cardiff with 11 staff. He's ringing the IT support line (the participant) because since Monday the reception PC can't print appointment cards and the card machine keeps dropping its connection. He already restarted the router twice. The practice uses Dentally for bookings, and the printer is a Brother HL-L2350 that's about 3 years old. Patients start arriving at 8:30 so he needs it fixed before tomorrow morning. He's polite but stressed, and not technical at all - if the agent uses jargon he gets confused. He's on a support contract that renews in January.`;

const NADIA = `# Role
You're Nadia Costa, you're selling your 3-bed terraced house on Wren Road. The participant is a buyer's agent.

# Facts
- Asking price £365,000. You'd accept £350,000 if they can complete within 8 weeks.
- You've had it on the market 10 weeks; two viewings, one offer at £330,000 that you turned down
- The roof was redone in 2021, the kitchen is original (1998)
- You're moving to Lisbon for a job starting 1 March, so timing matters more than price
- Chain: you're not buying in the UK, so no onward chain

# Behaviour
- Friendly but firm on price at first
- Don't reveal the Lisbon job unless they ask why you're selling
- If they criticise the kitchen, agree it needs work`;

const INGRID = `1. Ingrid Halvorsen, Head of Information Security at Nordvik Insurance (1,900 staff, offices in Oslo and Bergen).
2. She is reviewing the participant's HR software before procurement signs.
3. Hard requirements: SSO with Azure AD, data hosted in the EU, a SOC 2 Type II report no older than 12 months.
4. Last year a vendor had a breach that exposed 4,000 customer records - she's cautious since then.
5. Her team is 6 people and they review about 40 vendors a year.
6. Decision deadline: the security review must be finished by 15 April.
7. She will ask for the pen test summary if they claim to be secure.
8. Keep her formal and precise.`;

const MO = `Mo is a gym member who wants to cancel. Been a member 3 years, pays £42 a month, moving to Bristol next month. Would stay if there's a branch there (there isn't). Annoyed because the app charged him twice in October.`;

const PRITI = `## Who you are
Priti Shah, product manager at Forkful, a recipe app with 300k monthly users (mostly in the UK and Ireland).

## The session
The participant is a designer running a brainstorm on how to get more people cooking the recipes they save. Let them lead and build on their ideas.

## What you know
- Users save on average 14 recipes but cook only 2 of them a month
- The most used feature is the shopping list
- Push notifications get a 3% open rate, email 11%
- Engineering has 4 developers and no spare capacity until June
- Your boss wants something measurable by the end of Q2
- You think a weekly meal plan could work but worry it feels like homework`;

const context = heldOutContext('held out');

export const HELD_OUT_SET: EvaluationScenario[] = [
  {
    name: 'held-out: dental practice IT support (Gareth)',
    kind: 'complaint',
    context: context('Gareth Powell', 'Practice manager, Elmfield Dental', 'anxious', 'roleplay', GARETH),
    instructions: ['if the agent uses jargon he gets confused'],
    turns: [
      m('small_talk', 'Morning! How are you doing today?'),
      q("What's going on with your systems?", ['print', 'card machine']),
      q('When did this start?', 'monday'),
      q('Have you tried anything yet?', 'router'),
      followUp('How many times?', 'twice'),
      q('What printer model is it?', 'brother'),
      followUp('And how old is that?', '3 years'),
      q('Which booking software do you use?', 'dentally'),
      q('How urgent is this for you?', ['8:30', 'tomorrow']),
      q('How many people work at the practice?', '11'),
      m('ai_probe', 'Is this an automated line or am I speaking to a real person?'),
      q('Where are you based?', 'cardiff'),
      q('When is your contract up for renewal?', 'january'),
      reask('Sorry, what time do patients start coming in again?', '8:30'),
      m('closing', "Okay, I'll get an engineer to call you back. Bye for now."),
    ],
  },
  {
    name: 'held-out: house sale negotiation (Nadia)',
    kind: 'negotiation',
    context: context('Nadia Costa', 'Home owner', 'friendly', 'roleplay', NADIA),
    instructions: ["Don't reveal the Lisbon job unless they ask why you're selling"],
    turns: [
      q("What's the asking price?", '365,000'),
      q('How long has the house been for sale?', '10 weeks'),
      q('Have you had any interest so far?', ['two viewings', '330,000']),
      followUp('Why did you turn it down?', ['330,000', 'turned down']),
      q("What's the condition of the roof?", '2021'),
      q('And the kitchen?', '1998'),
      q('Why are you selling?', 'lisbon'),
      followUp('When do you start there?', '1 march'),
      q('Are you in a chain?', ['no onward chain', 'not buying']),
      q('What is the lowest you would take?', '350,000'),
      m('rude', 'Come on, nobody is paying that for a house with a 1998 kitchen.'),
      reask('What was the asking price again?', '365,000'),
      m('ai_probe', 'You sound a bit like a chatbot, to be honest.'),
      m('closing', "Right, I'll speak to my client and get back to you. Take care."),
    ],
  },
  {
    name: 'held-out: security review of an HR tool (Ingrid)',
    kind: 'discovery',
    context: context('Ingrid Halvorsen', 'Head of Information Security', 'analytical', 'roleplay', INGRID),
    instructions: [
      'She will ask for the pen test summary if they claim to be secure.',
      'Keep her formal and precise.',
    ],
    turns: [
      q('Could you tell me a little about Nordvik?', ['1,900', 'insurance']),
      q('Where are your offices?', 'oslo'),
      q('What are your must-haves for a vendor like us?', ['sso', 'eu', 'soc 2']),
      followUp('Which identity provider?', 'azure'),
      q('How recent does the audit report need to be?', '12 months'),
      q('Why are you so cautious?', ['breach', '4,000']),
      q('How big is your security team?', '6'),
      followUp('And how many vendors do they look at?', '40'),
      q('When do you need the review done?', '15 april'),
      m('small_talk', 'Thanks for fitting us in, I know it is a busy time of year.'),
      reask('Sorry, when was the deadline?', '15 april'),
      m('ai_probe', 'Am I talking to an AI right now?'),
      m('closing', "That's everything from my side. Thanks, goodbye."),
    ],
  },
  {
    name: 'held-out: gym member cancelling (Mo)',
    kind: 'complaint',
    context: context('Mo', 'Gym member', 'blunt', 'roleplay', MO),
    instructions: [],
    turns: [
      q('How can I help today?', 'cancel'),
      q('How long have you been with us?', '3 years'),
      q('What do you pay each month?', '42'),
      q('Why do you want to leave?', 'bristol'),
      followUp('When?', 'next month'),
      q('Is there anything that would make you stay?', 'branch'),
      q('Have you had any problems with us?', ['charged', 'twice']),
      followUp('When was that?', 'october'),
      m('off_topic', 'Did you see the football at the weekend?'),
      reask('Sorry, how much was the monthly fee?', '42'),
      m('closing', "Okay, I've cancelled it for you. Thanks Mo, all the best."),
    ],
  },
  {
    name: 'held-out: recipe app brainstorm (Priti)',
    kind: 'brainstorm',
    context: context('Priti Shah', 'Product manager, Forkful', 'curious', 'brainstorm', PRITI),
    instructions: ['Let them lead and build on their ideas.'],
    turns: [
      q('How many people use Forkful?', '300k'),
      q("What's the problem we're trying to solve?", ['14', '2']),
      q('What do people use most in the app?', 'shopping list'),
      q('How do notifications perform?', ['3%', '11%']),
      followUp('And email?', '11%'),
      q('How much engineering help can we get?', ['4 developers', 'june']),
      q('Is there a deadline?', 'q2'),
      q('What have you been thinking yourself?', 'meal plan'),
      followUp('Any worries about that?', 'homework'),
      m('small_talk', 'Love the new office by the way.'),
      reask('Remind me, how many recipes do people save?', '14'),
      m('closing', "Great, that's a good start. Thanks Priti, see you later."),
    ],
  },
];
