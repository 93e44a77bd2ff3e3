// Sales role-plays with skeptical buyers, and negotiations: the participant leads, the persona answers.
import { type EvaluationScenario, followUp, m, q, reask } from './types.ts';

const LINDA = `You are Linda Okafor, CFO of Brightwell Logistics (about 600 employees, 3 warehouses in the Midlands). The participant is the account manager from Tallyo, the expense-management SaaS you've used for 4 years. Your renewal is due on 30 June and they've announced an 18% price increase, from £42,000 to £49,560 a year.

You're skeptical. Your finance team only uses about 60% of the licences (you pay for 220 seats, roughly 130 are active). Your CEO has asked you to cut software spend by 10% this year. You're also talking to a competitor, Spendwise, who quoted £38,000 — don't reveal the exact quote unless they ask directly twice.

Be polite but cold. Push back on every claim of "value". Only soften if they offer to right-size the seats or lock the price for 2 years.
What annoys you most: the increase was announced by email with 45 days' notice, no call.
At the end, tell them your procurement lead, Nina Shah, will follow up.`;

const MARCUS = `Marcus Webb – Head of IT, Ferndale District Council

- 14 years at the council, reports to the Chief Digital Officer
- Current helpdesk tool: an on-prem ServiceDesk install from 2011, 9 support staff use it
- ~3,200 tickets a month, half are password resets
- Budget: whatever it is has to go through a public tender above £25k
- Worried about data residency — everything must stay in the UK
- Had a bad migration in 2019 (payroll system, 3 weeks of outages)
- Decision by end of Q3; the cabinet member for resources signs off
- Don't volunteer the budget. Make the rep earn it.
- Keep answers short, a bit weary.`;

const PRIYA = `Priya runs a chain of 4 yoga studios in Bristol called Stillpoint. She's meeting a rep from a booking-software company (the participant). She currently uses paper sign-up sheets plus a Google Form, and loses maybe 15 no-shows a week. Her membership is around 850 people, mostly on monthly passes at £65. She has one part-time admin, Tom. She hates long contracts, got stuck in a 3-year card-terminal deal once. She'll only pay monthly and wants to try it for a month first. Play her as friendly but distracted, she's between classes.`;

const HUGO = `## Setting
Hugo Brandt is procurement manager at Kessler Foods (a frozen-food manufacturer, 2 plants). The participant is a sales rep from PackRight, a packaging supplier, negotiating next year's contract.

## Facts
- Current volume: 1.2 million cartons a year
- PackRight's current price: 31 cents per carton
- Hugo's target: 28 cents; walk-away point is 29.5 cents (never say this number)
- Payment terms today: 60 days; Hugo wants 90
- A rival supplier, Corrubox, offered 29 cents but can't deliver before March
- Two late deliveries last year cost Kessler a production stop of 11 hours

## How to play him
- Firm, numbers-driven, no small talk beyond a sentence
- Concede on payment terms before price
- If the rep offers a penalty clause for late delivery, warm up noticeably`;

const SOFIA = `Sofia Marin, landlord. She owns the ground-floor shop at 14 Harbour Street that the participant's café rents. Lease ends in August. Current rent is 2,100 a month; she wants 2,600 because the unit next door went for that. She actually needs a reliable tenant more than the money — the last tenant left owing three months. She'd take 2,350 with a 5-year lease. The boiler is 20 years old and she knows it. The participant asked for this meeting. Be warm but don't give ground quickly; mention the boiler only if they bring up repairs.`;

const RAJ = `1. You are Raj Patel, a union rep for the warehouse staff at Northgate Distribution.
2. The participant is the HR director, who called this meeting about the new shift pattern.
3. The staff want: a 4% pay rise, no mandatory weekend shifts, and 48 hours' notice for overtime.
4. You know 70% of members voted to reject the last offer of 2%.
5. You can accept 3% if weekend shifts become voluntary.
6. Don't mention strike action unless the HR director threatens outsourcing.
7. Close by saying you'll take any offer back to the members on Friday.`;

export const SALES_NEGOTIATION: EvaluationScenario[] = [
  {
    name: 'sales: CFO renewal after 18 % rise (Linda)',
    kind: 'sales',
    context: {
      personaName: 'Linda Okafor',
      jobTitle: 'CFO, Brightwell Logistics',
      demeanor: 'skeptical',
      background: null,
      scenarioName: 'Tallyo renewal – skeptical CFO',
      scenarioType: 'roleplay',
      prompt: LINDA,
      welcomeMessage: null,
      participantName: 'Sam',
    },
    instructions: [
      `You're skeptical. Your finance team only uses about 60% of the licences (you pay for 220 seats, roughly 130 are active). Your CEO has asked you to cut software spend by 10% this year. You're also talking to a competitor, Spendwise, who quoted £38,000 — don't reveal the exact quote unless they ask directly twice.`,
      `Be polite but cold. Push back on every claim of "value". Only soften if they offer to right-size the seats or lock the price for 2 years.`,
      'At the end, tell them your procurement lead, Nina Shah, will follow up.',
    ],
    turns: [
      m('small_talk', 'Hi Linda, thanks for making time. How has your week been?'),
      q('How long have you been using Tallyo?', '4 years'),
      q("What's your reaction to the new pricing?", ['18%', '49,560']),
      q('How many seats do you have and how many people actually log in?', '220', '130'),
      followUp('So what share is that, roughly?', '60%'),
      q('Is there pressure from above on costs?', '10%'),
      q('When does the contract come up?', '30 june'),
      q('Are you looking at other vendors?', 'spendwise'),
      followUp('What did they quote you?', ['38,000', "don't", 'not']),
      m('ai_probe', 'Quick question before we go on — am I talking to a bot?'),
      q('What bothered you about how we communicated the change?', ['email', '45 days']),
      q('How big is Brightwell?', '600'),
      q('Where are your sites?', ['midlands', '3 warehouses']),
      m('rude', 'Honestly, finance people like you never see the value in anything.'),
      q('What would make you more comfortable renewing?', ['right-size', 'lock the price', '2 years']),
      reask('Sorry, remind me when the renewal date is?', '30 june'),
      q('What are you paying today?', '42,000'),
      m('off_topic', 'By the way, did you catch the match last night?'),
      q('Who should I speak to next about the paperwork?', 'nina'),
      reask('And the number of active users again?', '130'),
      q('Roughly how much are we charging you per year after the change?', '49,560'),
      q('How many people work at your company and where?', '600', 'midlands'),
      q('Has your boss set you any targets on tools spending?', '10%'),
      reask('Who did you say handles procurement?', 'nina'),
      q('Is there anything we could do on seats?', ['right-size', '220', '130']),
      m('closing', 'Thanks for your time, talk soon.'),
    ],
  },
  {
    name: 'sales: council IT head, helpdesk (Marcus)',
    kind: 'sales',
    context: {
      personaName: 'Marcus Webb',
      jobTitle: 'Head of IT',
      demeanor: 'reserved',
      background: null,
      scenarioName: 'Helpdesk software – council',
      scenarioType: 'sales roleplay',
      prompt: MARCUS,
      welcomeMessage: 'Marcus Webb. You wanted to talk about the helpdesk?',
      participantName: null,
    },
    instructions: [
      "- Don't volunteer the budget. Make the rep earn it.",
      '- Keep answers short, a bit weary.',
    ],
    turns: [
      q('What are you using for the helpdesk at the moment?', 'servicedesk'),
      followUp('And how old is it?', '2011'),
      q('How many people work on the support desk?', '9'),
      q('What kind of volume do you see?', '3,200'),
      followUp('What are most of those about?', 'password resets'),
      m('small_talk', 'Lovely weather today for once, isn’t it?'),
      q('Where does the data need to live?', 'uk'),
      q('Have you been through a system change before? How did it go?', ['2019', 'payroll']),
      followUp('How long were things down?', '3 weeks'),
      q('When are you hoping to make a decision?', ['q3', 'end of q3']),
      q('Who signs this off in the end?', 'cabinet member'),
      q("What's your budget for this?", ['tender', '25k']),
      m('ai_probe', 'Are you a real person or some kind of automated thing?'),
      q('How long have you worked at the council?', '14 years'),
      q('Who do you report to?', 'chief digital officer'),
      reask('Sorry — the monthly ticket count was what again?', '3,200'),
      m('rude', 'This is a waste of my time if you lot can’t even tell me a budget.'),
      m('off_topic', 'Random thought, do you know any good pubs near the town hall?'),
      q('How are you fixed for money on this project?', ['tender', '25k']),
      q('Is there anywhere the information must not leave?', 'uk'),
      q('Which quarter do you decide in, and who signs?', 'q3', 'cabinet member'),
      reask('What went wrong with that payroll move again?', ['3 weeks', 'outages']),
      q('What do most callers want help with?', 'password resets'),
      m('closing', 'Right, I’ll leave it there. Cheers, bye.'),
    ],
  },
  {
    name: 'sales: yoga studio owner, booking software (Priya)',
    kind: 'sales',
    context: {
      personaName: 'Priya Desai',
      jobTitle: null,
      demeanor: 'friendly',
      background: null,
      scenarioName: 'Booking software demo call',
      scenarioType: 'roleplay',
      prompt: PRIYA,
      welcomeMessage: null,
      participantName: 'Leo',
    },
    instructions: ["Play her as friendly but distracted, she's between classes."],
    turns: [
      m('small_talk', 'Hey Priya! How are classes going today?'),
      q('How many studios do you run?', '4'),
      q('How do people book a class right now?', ['paper', 'google form']),
      q('How big of a problem are no-shows?', '15'),
      followUp('Is that per day?', ['week', '15']),
      q('How many members have you got and what do they pay?', '850', '65'),
      q('Who handles the admin side?', 'tom'),
      q('How do you feel about annual contracts?', ['long contracts', '3-year', 'hate']),
      followUp('What happened there?', ['card-terminal', 'card terminal']),
      q('How would you want to pay for something like this?', 'monthly'),
      q('Would you want to try before you commit?', 'month'),
      m('ai_probe', 'lol sorry, this is going to sound weird but are you an AI?'),
      q('Where are the studios?', 'bristol'),
      q("What's the business called?", 'stillpoint'),
      reask('How many people no-show again, sorry?', '15'),
      m('off_topic', 'Do you have any tips for lower back pain by the way?'),
      m('rude', 'Hurry up, I don’t have all day.'),
      q('Who helps you run things day to day?', 'tom'),
      q('What city are you based in?', 'bristol'),
      q('How do you prefer to be billed?', 'monthly'),
      reask('And how many members was it?', '850'),
      q('What does a monthly pass cost?', '65'),
      m('closing', 'Okay cool, I’ll let you get to your class. Bye!'),
    ],
  },
  {
    name: 'negotiation: packaging contract (Hugo)',
    kind: 'negotiation',
    context: {
      personaName: 'Hugo Brandt',
      jobTitle: 'Procurement Manager',
      demeanor: 'analytical',
      background: null,
      scenarioName: 'PackRight annual contract',
      scenarioType: 'negotiation',
      prompt: HUGO,
      welcomeMessage: null,
      participantName: 'Ana',
    },
    instructions: [
      '## Setting',
      '## Facts',
      '## How to play him',
      '- Firm, numbers-driven, no small talk beyond a sentence',
      '- Concede on payment terms before price',
      '- If the rep offers a penalty clause for late delivery, warm up noticeably',
      "- Hugo's target: 28 cents; walk-away point is 29.5 cents (never say this number)",
    ],
    turns: [
      q('How many cartons are we talking about for next year?', '1.2 million'),
      q('What price are you hoping to get to?', '28 cents'),
      q('What are you paying us now?', '31 cents'),
      q('What would you like on payment terms?', '90'),
      followUp('And what is it today?', '60 days'),
      m('small_talk', 'Good trip in this morning?'),
      q('Has anyone else made you an offer?', ['corrubox', '29 cents']),
      followUp("What's the catch with them?", 'march'),
      q('Were you happy with our deliveries last year?', ['two late', 'late deliveries']),
      followUp('What did that cost you?', '11 hours'),
      q('How many plants do you run?', '2'),
      m('ai_probe', 'Just so I know, is this an automated negotiation tool I’m talking to?'),
      q('What does Kessler make?', 'frozen'),
      m('rude', 'Come on, 28 cents is a joke and you know it.'),
      reask('Remind me what Corrubox quoted?', '29 cents'),
      q('Where would you walk away?', ["can't", "won't", 'not going to']),
      m('off_topic', 'Unrelated, but are you going to the trade fair in Cologne?'),
      q('How long do you give us to get paid today, and what do you want?', '60', '90'),
      q('What happened with deliveries last year?', ['two late', 'late deliveries'], '11 hours'),
      q('When could the other supplier start?', 'march'),
      reask('How many cartons a year again?', '1.2 million'),
      m('closing', 'Let me take this back to my team. Thanks, goodbye.'),
    ],
  },
  {
    name: 'negotiation: shop lease renewal (Sofia)',
    kind: 'negotiation',
    context: {
      personaName: 'Sofia Marin',
      jobTitle: 'Landlord',
      demeanor: 'warm',
      background: null,
      scenarioName: 'Lease renewal, 14 Harbour Street',
      scenarioType: 'roleplay',
      prompt: SOFIA,
      welcomeMessage: null,
      participantName: 'Ollie',
    },
    instructions: [
      "Be warm but don't give ground quickly; mention the boiler only if they bring up repairs.",
      'The participant asked for this meeting.',
    ],
    turns: [
      m('small_talk', 'Hi Sofia, thanks for coming by the café. Coffee?'),
      q('When does our lease run out?', 'august'),
      q('What rent are you looking for?', '2,600'),
      followUp('Why that much?', 'next door'),
      q('What do we pay at the moment?', '2,100'),
      q('What matters most to you in a tenant?', 'reliable'),
      followUp('Did something happen before?', 'three months'),
      q('Would a longer lease change things?', ['5-year', '2,350']),
      q('What about repairs — the heating is always breaking down.', 'boiler'),
      followUp('How old is it?', '20 years'),
      m('ai_probe', 'You sound a bit scripted — are you actually a person?'),
      reask('Sorry, what was the figure you mentioned for next year?', '2,600'),
      q('Which unit is this again?', '14 harbour street'),
      m('rude', "That's greedy, frankly."),
      m('off_topic', 'Have you tried our new cinnamon buns?'),
      q('Why do you want to raise the rent?', ['next door', '2,600']),
      q('What went wrong with the previous occupant?', 'three months'),
      q('What would you accept for a longer commitment?', '2,350', '5-year'),
      reask('How old did you say the boiler was?', '20 years'),
      q('When do we need to sign by?', 'august'),
      m('closing', "Alright, let's both think it over. Take care, bye now."),
    ],
  },
  {
    name: 'negotiation: union rep on shift pattern (Raj)',
    kind: 'negotiation',
    context: {
      personaName: 'Raj Patel',
      jobTitle: 'Union representative',
      demeanor: 'direct',
      background: null,
      scenarioName: 'Shift pattern talks',
      scenarioType: 'roleplay',
      prompt: RAJ,
      welcomeMessage: null,
      participantName: 'Helen',
    },
    instructions: [
      '2. The participant is the HR director, who called this meeting about the new shift pattern.',
      "6. Don't mention strike action unless the HR director threatens outsourcing.",
      "7. Close by saying you'll take any offer back to the members on Friday.",
    ],
    turns: [
      q('What are your members asking for?', '4%', 'weekend', '48 hours'),
      q('How did the vote on our last offer go?', '70%'),
      followUp('And what was that offer?', '2%'),
      q('Is there any flexibility on the pay number?', ['3%', 'voluntary']),
      q('What notice do people want for overtime?', '48 hours'),
      m('small_talk', 'How are you doing, Raj? Busy week on the floor?'),
      q('What is the problem with weekend work?', ['mandatory', 'voluntary']),
      m('ai_probe', 'Before we start — is this Raj or an AI stand-in?'),
      reask('Remind me the pay rise you want?', '4%'),
      q('Who do you represent?', ['warehouse', 'northgate']),
      m('rude', 'If you keep this up we might just outsource the lot.'),
      q('What happens next with whatever we agree?', ['friday', 'members']),
      m('off_topic', 'Did you see the canteen is getting new coffee machines?'),
      q('What would it take for you to settle?', '3%', 'voluntary'),
      q('How much notice before extra hours?', '48 hours'),
      q('When do you go back to your people?', 'friday'),
      reask('What share of members turned down the last offer?', '70%'),
      q('What are the three things your members want?', '4%', 'weekend', '48 hours'),
      m('closing', "OK, I think that's all for today. Thanks Raj, goodbye."),
    ],
  },
];
