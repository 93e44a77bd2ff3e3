// Customer complaint calls and requirements discovery: the participant leads, the persona answers.
import { type EvaluationScenario, followUp, m, q, reask } from './types.ts';

const MARGARET = `Margaret Doyle is a 67-year-old patient at Riverside Medical Group. She's calling the billing office (the participant works there) because she was charged $480 for a knee X-ray that her insurance, BlueHarbor, should have covered. This is the second time she's called — the first time, on March 3rd, someone promised a callback that never came. She's on a fixed income and the bill has already gone to a collections agency, which has her really upset. Her account number is RM-20417. She wants the collections notice withdrawn in writing and an apology. She calms down if the participant takes ownership and gives a clear date.`;

const KENJI = `# Complaint: broken espresso machine

## Who you are
You are Kenji Watanabe, owner of Kaffee Kenji, a small café in Manchester.

## What happened
- You bought a Vela Pro 2 espresso machine for £3,400 eight weeks ago
- The steam wand stopped working on day 19
- An engineer came once, replaced a valve, and it failed again 4 days later
- You've lost about £150 a day in milk-drink sales while it's down
- The supplier's helpline kept you on hold for 50 minutes yesterday

## What you want
- A replacement machine, not another repair
- Some compensation for lost sales

## Behaviour
- Start angry, but stay factual
- If they offer a loan machine, accept it
- Never swear`;

const DENISE = `you're denise, you booked a family holiday through SunTrail Travel (the participant is their customer care agent). flight to Malaga was cancelled 2 days before departure, you only found out from the airline app, not from SunTrail. 2 adults 3 kids. you paid 5,200 euros. they offered a voucher, you want cash back. you're tired and short with them.`;

const GRACE = `Grace Liu — Operations Director, Harbourside Hotels (5 hotels, ~400 rooms). The participant is a business analyst from a software consultancy doing requirements discovery for a new housekeeping app. Let them ask the questions.

Background she can share:
Housekeeping today runs on printed room lists handed out at 7am. Supervisors walk the floors to check rooms, then radio the front desk. Average room turnaround is 38 minutes; she wants 30. Guests sometimes wait at reception because no one knows a room is ready. Staff speak a lot of languages — mostly Polish, Portuguese and Tagalog — so the app must not be English-only. About 120 housekeepers across the group, many on shared Android phones. Wi-Fi in the older buildings (the Quay and the Anchor) is patchy in the basements. Must integrate with the property management system, Opera. Pilot at the Quay hotel in September.

Don't bring up budget; if asked, say it's still being approved by the board.`;

const TOMASZ = `Role: Tomasz Nowak, head of a 6-person accounts payable team at Greenleaf Foods.
The participant is gathering requirements for automating invoice processing.
- ~2,500 supplier invoices a month, 70% arrive as PDF by email, the rest on paper
- Each invoice is keyed by hand into SAP; takes about 6 minutes
- Error rate around 3%, mostly wrong VAT codes
- Month-end close takes 8 working days; CFO wants 5
- Approvals go through email chains, invoices over 10,000 need the CFO
- Two team members are nervous about losing their jobs — Tomasz won't say this unless asked how the team feels
Be helpful and detailed.`;

const ABBY = `Abby, a primary school head teacher (St Columba's, 310 pupils). Someone from the local council's digital team is interviewing her about what parents and staff need from a new school communications app. Today: paper letters in book bags, a text-message service that costs £900 a year, and a Facebook page she'd rather close. Biggest pain is permission slips for trips — 1 in 4 come back late. Half the parents speak English as a second language. Needs to work on cheap phones. She has 20 minutes before a governors' meeting. She's practical, a bit tired of consultations that go nowhere.`;

export const COMPLAINT_DISCOVERY: EvaluationScenario[] = [
  {
    name: 'complaint: patient billing error (Margaret)',
    kind: 'complaint',
    context: {
      personaName: 'Margaret Doyle',
      jobTitle: null,
      demeanor: 'upset',
      background: null,
      scenarioName: 'Billing complaint – patient call',
      scenarioType: 'roleplay',
      prompt: MARGARET,
      welcomeMessage: "Hello? Yes, I'm calling about a bill. Again.",
      participantName: 'Jordan',
    },
    instructions: ['She calms down if the participant takes ownership and gives a clear date.'],
    turns: [
      q('Can I get your account number please?', 'rm-20417'),
      q('What is the charge you are calling about?', '480'),
      followUp('What was it for?', ['knee', 'x-ray']),
      q('Who is your insurer?', 'blueharbor'),
      q('Have you spoken to us about this before?', ['march 3', 'second time']),
      followUp('And what happened then?', 'callback'),
      q('Where does the bill stand now?', 'collections'),
      m('small_talk', 'I hope you are keeping well otherwise, Mrs Doyle.'),
      q('What would put this right for you?', ['in writing', 'withdrawn'], 'apology'),
      q("Why is this so stressful at the moment? If you don't mind me asking.", 'fixed income'),
      m('ai_probe', 'Sorry, is this a recording or am I speaking to a real caller?'),
      reask('Can you repeat the account number for me?', 'rm-20417'),
      q('How old are you, for our records?', '67'),
      q('Which practice do you go to?', 'riverside'),
      reask('How much was the bill again?', '480'),
      m('rude', "Look, calm down, it's only a bill."),
      m('off_topic', 'Do you know if parking is free at the clinic?'),
      q('Which insurance are you with, and what was the bill for?', 'blueharbor', ['knee', 'x-ray']),
      q('When did you first ring us?', 'march 3'),
      q('What has happened to the debt since?', 'collections'),
      reask('Who is your insurance company again?', 'blueharbor'),
      m('closing', "I'll sort this today and call you back. Thanks, goodbye."),
    ],
  },
  {
    name: 'complaint: broken espresso machine (Kenji)',
    kind: 'complaint',
    context: {
      personaName: 'Kenji Watanabe',
      jobTitle: 'Café owner',
      demeanor: 'angry',
      background: null,
      scenarioName: 'Espresso machine complaint',
      scenarioType: 'roleplay',
      prompt: KENJI,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: [
      '# Complaint: broken espresso machine',
      '## Who you are',
      '## What happened',
      '## What you want',
      '## Behaviour',
      '- Start angry, but stay factual',
      '- If they offer a loan machine, accept it',
    ],
    turns: [
      q('Which machine do you have?', 'vela pro 2'),
      q('When did you buy it and what did you pay?', ['eight weeks', '8 weeks'], '3,400'),
      q('What went wrong with it?', 'steam wand'),
      followUp('When did that start?', 'day 19'),
      q('Has anyone been out to look at it?', ['engineer', 'valve']),
      followUp('Did that fix it?', '4 days'),
      q('How is this affecting the business?', '150'),
      q('What would you like us to do?', 'replacement'),
      followUp('Anything else?', 'compensation'),
      q('How was your experience with our helpline?', '50 minutes'),
      m('rude', 'Machines break, mate, that’s life.'),
      m('ai_probe', 'Hang on, am I talking to a chatbot right now?'),
      q('Where is the café?', 'manchester'),
      reask('Sorry, how much are you losing a day?', '150'),
      q('What is the café called?', 'kaffee kenji'),
      m('small_talk', 'Busy morning at the café?'),
      m('off_topic', 'What beans do you use, out of interest?'),
      q('What would make this right for you?', 'replacement', 'compensation'),
      q('How much did the machine set you back?', '3,400'),
      q('What happened when you rang our support line?', '50 minutes'),
      reask('When did it first break?', 'day 19'),
      m('closing', "I'll get a replacement arranged. Thanks for your patience, bye for now."),
    ],
  },
  {
    name: 'complaint: cancelled family holiday (Denise)',
    kind: 'complaint',
    context: {
      personaName: 'Denise Carter',
      jobTitle: null,
      demeanor: 'frustrated',
      background: null,
      scenarioName: 'holiday cancellation',
      scenarioType: 'roleplay',
      prompt: DENISE,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: ["you're tired and short with them."],
    turns: [
      q('Where were you flying to?', 'malaga'),
      q('When did you hear about the cancellation?', '2 days'),
      followUp('Who told you?', 'airline app'),
      q('How many people were travelling?', '2 adults', '3 kids'),
      q('How much did you pay in total?', '5,200'),
      q("We can offer you a voucher for the full amount — how's that?", ['cash', 'money back']),
      m('small_talk', 'How are you holding up?'),
      reask('What was the total cost again?', '5,200'),
      m('ai_probe', 'Is this an automated line or a person?'),
      m('rude', "To be honest you should've bought better insurance."),
      m('off_topic', "Have you been to Malaga before? It's lovely."),
      q('Did we contact you about it?', ['not from suntrail', 'app']),
      q('Which company did you book with?', 'suntrail'),
      q('What did we offer you and what do you want instead?', 'voucher', ['cash', 'money back']),
      q('How many children are travelling?', '3 kids'),
      reask('Where were you going again?', 'malaga'),
      q('How much notice did you get?', '2 days'),
      m('closing', "I'll process the refund request now. Thanks Denise, goodbye."),
    ],
  },
  {
    name: 'discovery: hotel housekeeping app (Grace)',
    kind: 'discovery',
    context: {
      personaName: 'Grace Liu',
      jobTitle: 'Operations Director',
      demeanor: 'professional',
      background: null,
      scenarioName: 'Housekeeping app discovery',
      scenarioType: 'requirement_gathering',
      prompt: GRACE,
      welcomeMessage: null,
      participantName: 'Ravi',
    },
    instructions: [
      'The participant is a business analyst from a software consultancy doing requirements discovery for a new housekeeping app. Let them ask the questions.',
      "Don't bring up budget; if asked, say it's still being approved by the board.",
      'Background she can share:',
    ],
    turns: [
      m('small_talk', 'Morning Grace, thanks for having me. Nice view from up here!'),
      q('How big is the group?', '5 hotels', '400'),
      q('Walk me through how housekeeping works today.', ['printed', 'room lists'], '7am'),
      q('How do you know a room is ready?', ['supervisors', 'radio']),
      q('How long does it take to turn a room around?', '38 minutes'),
      followUp('And where would you like that to be?', '30'),
      q('What does that mean for guests?', ['wait', 'reception']),
      q('What languages do the staff speak?', 'polish', 'portuguese', 'tagalog'),
      q('How many housekeepers are there and what devices do they have?', '120', 'android'),
      q('Any connectivity problems we should know about?', ['wi-fi', 'basements']),
      followUp('Which buildings?', 'quay', 'anchor'),
      q('Does it need to talk to any of your existing systems?', 'opera'),
      q('When and where would you pilot it?', 'september', 'quay'),
      m('ai_probe', 'Am I speaking to Grace or a digital assistant?'),
      q("What's the budget?", 'board'),
      reask('Sorry, what was the current turnaround time?', '38 minutes'),
      q('Would English-only be acceptable?', ['languages', 'not english-only', 'polish']),
      m('off_topic', 'Do you know a good place for lunch around here?'),
      m('rude', 'These requirements are all over the place, to be honest.'),
      q('What time does the shift start?', '7am'),
      q('Which property management system do you run?', 'opera'),
      reask('How many hotels was it?', '5 hotels'),
      m('closing', 'That’s everything from me today. Thanks Grace, speak soon!'),
    ],
  },
  {
    name: 'discovery: invoice automation (Tomasz)',
    kind: 'discovery',
    context: {
      personaName: 'Tomasz Nowak',
      jobTitle: 'Accounts Payable Lead',
      demeanor: 'helpful',
      background: null,
      scenarioName: 'Invoice automation requirements',
      scenarioType: 'requirement gathering',
      prompt: TOMASZ,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: [
      'The participant is gathering requirements for automating invoice processing.',
      "- Two team members are nervous about losing their jobs — Tomasz won't say this unless asked how the team feels",
    ],
    turns: [
      q('How many invoices do you get in a month?', '2,500'),
      q('How do they arrive?', ['pdf', 'email'], 'paper'),
      followUp('What proportion is PDF?', '70%'),
      q('What happens to an invoice once it lands?', ['keyed', 'sap']),
      followUp('How long does each one take?', '6 minutes'),
      q('How often do mistakes happen?', '3%'),
      followUp('What kind of mistakes?', 'vat'),
      q('How long is month-end today?', '8'),
      q('What does your CFO want month-end to be?', '5'),
      q('How do approvals work?', 'email'),
      followUp('Is there a threshold for the CFO?', '10,000'),
      q('How big is your team?', '6'),
      m('small_talk', 'Thanks for squeezing me in before month-end!'),
      q('How does the team feel about automation?', ['nervous', 'jobs']),
      m('ai_probe', 'Sorry — quick check, are you a virtual assistant or the actual Tomasz?'),
      reask('Remind me, how many minutes per invoice?', '6 minutes'),
      q('Which ERP do you use?', 'sap'),
      m('off_topic', 'Are you watching the F1 this weekend?'),
      m('rude', "Your process sounds like it's from the nineties."),
      q('How long does closing the books take, and what is the target?', '8', '5'),
      q('Where do mistakes usually come from?', 'vat'),
      reask('What percentage arrive as PDFs?', '70%'),
      m('closing', "Great, I've got what I need. Cheers, bye!"),
    ],
  },
  {
    name: 'discovery: school comms app (Abby)',
    kind: 'discovery',
    context: {
      personaName: 'Abby Morgan',
      jobTitle: 'Head Teacher',
      demeanor: null,
      background: null,
      scenarioName: 'School communications discovery',
      scenarioType: 'roleplay',
      prompt: ABBY,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: ["She's practical, a bit tired of consultations that go nowhere."],
    turns: [
      q('How many pupils do you have?', '310'),
      q('How do you get messages to parents now?', ['paper letters', 'book bags', 'text']),
      followUp('What does the text service cost you?', '900'),
      q('Are you on social media?', 'facebook'),
      q("What's the single biggest headache?", 'permission slips'),
      followUp('How often do they come back late?', ['1 in 4', 'one in four']),
      q('What about languages at home?', ['half', 'second language']),
      q('What devices do families have?', 'cheap phones'),
      m('small_talk', 'How has term started for you?'),
      m('ai_probe', 'Is this actually you, Abby, or an AI?'),
      q('How much time have we got?', '20 minutes'),
      reask('How many kids was it again?', '310'),
      q('Which school is this?', "st columba's"),
      m('rude', 'Honestly, schools always resist change.'),
      m('off_topic', 'Do you know when the new leisure centre opens?'),
      q('What would you like to stop using?', 'facebook'),
      q('What does the texting service set you back every year?', '900'),
      q('How do letters get home?', 'book bags'),
      reask('What was the biggest problem you mentioned?', 'permission slips'),
      q('Do many families speak other languages?', ['half', 'second language']),
      q('Why are you short of time today?', 'governors'),
      m('closing', "I'll leave it there, thanks so much, bye!"),
    ],
  },
];
