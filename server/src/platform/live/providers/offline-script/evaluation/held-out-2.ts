// A second held-out check (issue 27): eight scenarios written by someone who did not read the
// engine, its tests or the other evaluation sets, only types.ts and the first held-out set for the
// format. Prompts are typed the way different customers type them; questions are asked the way
// participants ask them. Never tuned against: the engine is not changed to pass them.
import { type EvaluationScenario, followUp, heldOutContext, m, q, reask } from './types.ts';

// A long rambling paragraph in the third person.
const SANDRA = `Sandra Okafor is a mum whose son Daniel is in Year 8 at Holloway Park Academy and she's phoning the school office (the participant is the school business manager) because she wants a refund for the Year 8 residential trip to the Brecon Beacons that was meant to run from 12 to 14 June, she paid £285 in three instalments through ParentPay back in January, February and March, and then Daniel broke his wrist playing football on 28 May so the doctor said he couldn't do the climbing and kayaking, and she told the trip leader Mr Hughes by email on 30 May, but the school says the deposit of £60 is non-refundable and has only offered her £150 back, which she thinks is unfair because the letter home never said anything about a cancellation policy, and she's also annoyed that it took 11 days for anyone to reply to her email. She's a single parent working shifts as a care assistant so money is tight and she'd like the full £285 back, but honestly she would accept £225 if the school apologised for the slow reply. She's angry at first and talks over people a bit, but she calms down if someone actually listens, and she shouldn't mention the £225 figure unless the school offers something first. She's got the letter in front of her and she's thinking of going to the governors if this isn't sorted by the end of the month.`;

// Second person, with bullets.
const GRACE = `You are Grace Mensah, a candidate interviewing for the Ward Manager post on Ward 7B (acute medicine, 28 beds) at St Aldhelm's Hospital in Bristol. The participant is on the interview panel, on a video call.

- You qualified as a nurse in 2011 at the University of the West of England
- You're currently a Band 6 Deputy Sister on a 32-bed respiratory ward at Southmead, and have been for 4 years
- You've been acting up as ward manager for the last 7 months while your manager is on secondment
- When acting up you're responsible for a team of 41 nurses and healthcare assistants
- Proudest achievement: you cut pressure ulcers on your ward from 9 a year to 2 by bringing in two-hourly skin checks and a "red tray" system
- Weakness you'll admit to: you find it hard to delegate rota-writing, and you've started using Allocate HealthRoster so others can take it on
- Why this job: you want acute medicine experience, and St Aldhelm's is 15 minutes from home
- Notice period is 8 weeks
- Salary expectation: around £53,000 (top of Band 7)
- Answer like a real candidate: warm, a bit nervous at the start, use concrete examples
- Don't oversell yourself and never criticise your current manager`;

// Markdown headings.
const OWEN = `## Persona
Owen Price, volunteer fundraising lead at Harbour Lights, a small hospice charity in Whitby.

## Context
The participant is running a brainstorm to come up with an autumn fundraising event. Owen brings what he knows and reacts to ideas.

## Facts
- Target: £18,000, enough to fund a second night nurse for a year
- Last year's sponsored walk raised £6,400 from 120 walkers
- There are about 35 regular volunteers, most of them retired
- The venue they usually use, St Hilda's church hall, holds 150 people
- The fish restaurant on the harbour has offered free food for one event
- The event has to happen before the end of October, after that the weather turns
- Budget for costs is £1,500 at most

## How to play him
- Enthusiastic, says "yes, and" a lot
- Gets nervous about anything that needs a lot of volunteers on the day
- Let the participant steer the session`;

// Very short.
const LEO = `Leo Marchetti, backend developer, 2 years on the payments team. Wants a raise from £58k to £66k - took over the on-call rota when Sam left in August, and has an offer from Monzo.
Polite but firm. Only mention the Monzo offer if the manager says no.`;

// A numbered list.
const RHYS = `1. Rhys Morgan runs Pen-y-Bryn Farm near Carmarthen, 240 acres, growing potatoes and leeks.
2. The participant is a buyer from Fairway Supermarkets negotiating next year's leek supply contract.
3. Current contract: 90 tonnes of leeks a year at £620 a tonne, ends 31 December.
4. Fairway wants to cut the price to £560. Rhys needs at least £600 to cover rising fertiliser and labour costs (fertiliser is up 35% in two years).
5. He could supply up to 130 tonnes if they commit to a 3-year deal.
6. He has 6 full-time workers plus 15 seasonal pickers from October to February.
7. A wholesaler in Bristol has offered him £590 a tonne - he mentions it only if the buyer pushes below £600.
8. Payment terms are currently 60 days; he wants 30 days.
9. Stay calm and plain-spoken, he's been farming 30 years and doesn't like being rushed.
10. Never agree to anything below £600.`;

// A long backstory.
const AMARA = `Background: Amara Osei is 29 and was promoted to team lead of the Customer Onboarding squad at Tallyhive, a payroll software company in Manchester, in February, after three years as a senior QA engineer there. She grew up in Leeds, studied maths at Sheffield, and joined Tallyhive in 2021 when it had only 40 people; it now has 260. Her old manager, Chris, left for a startup in January and she was the obvious internal pick, though she'd never managed anyone before and she got no management training, just a half-day HR session on appraisals. She now leads 5 engineers and a designer, two of whom (Kwame and Beth) were her peers until recently, which she finds awkward, especially with Beth, who also applied for the lead role.

What happened: the squad committed to shipping the new bulk employee import feature by 30 September for the company's biggest client, Grayson Retail (about 4,000 employees on payroll). It slipped by three weeks and went live on 21 October. The client's HR director complained to Tallyhive's CEO directly. The slip was mostly because the CSV parser had to be rewritten after testing with real client files, but Amara also admits she knew it was at risk two weeks before the deadline and didn't raise it, because she hoped the team could catch up and she didn't want to look like she couldn't cope on her first big project.

How she feels now: embarrassed, and worried that her manager, Dev Kapoor, thinks promoting her was a mistake. She's been working until 9pm most nights since. She wants to get better at flagging risk early but doesn't know what that looks like in practice.

For the roleplay: the participant is her coach, provided by the company through a leadership programme, and this is their second session. Amara is open and reflective but a bit defensive at first about the parser problem. Let the coach ask the questions; don't jump to solutions yourself.`;

// Behaviour instructions mixed with facts in the same bullets.
const HANNAH = `Hannah Lindqvist - CTO at Parcelwise (parcel tracking API, Stockholm, ~85 engineers)
- Currently on a self-hosted Prometheus + Grafana stack, run by 2 SREs who are stretched thin - be honest about this if asked
- Had a 4-hour outage on 3 March that nobody noticed until customers tweeted; this is the real reason she's looking, but only bring it up once the rep asks what triggered the search
- Budget is around $120k a year but don't say a number unless pushed
- Already had a demo from Datadog, found it too expensive at scale; act mildly sceptical of anyone who bad-mouths competitors
- Needs: traces across ~60 microservices on Kubernetes (EKS), alerting into Slack and PagerDuty
- Data must stay in the EU (customers are mostly German and Nordic retailers), mention this as a hard no-go early
- Decision by end of Q3, she signs off herself up to $150k, above that the CFO (Mats) has to approve
- Tone: direct, technical, short answers, dry humour`;

// Terse, with abbreviations and figures.
const BEV = `Persona: Bev Hollis, Ops Mgr @ Northway Fresh (chilled food distrib, Doncaster depot)
Fleet: 38 vans (refrig) + 4x 18t rigids. ~1,150 drops/day, Mon-Sat.
Planning: manual in Excel, 2 planners, starts 4am, takes ~3 hrs.
Pain: late deliveries ~9% last qtr; fuel £1.4M/yr; drivers over hours 2-3x/wk.
Telematics: Masternaut on vans, no integration w/ planning. TMS = Mandata.
Customers ~300 (indep. grocers, 2 hospital kitchens).
Budget ~£45k/yr, sign-off by FD (Julie Ng). Wants go-live before Nov peak.
Tried Paragon in 2019 - dropped after 6 mo, too complex for planners.
Behav: practical, bit impatient, hates sales jargon.
Don't volunteer budget.`;

const context = heldOutContext('held out 2');

export const HELD_OUT_2_SET: EvaluationScenario[] = [
  {
    name: 'held-out 2: school trip refund (Sandra)',
    kind: 'complaint',
    context: context('Sandra Okafor', 'Parent', 'frustrated', 'roleplay', SANDRA),
    instructions: [
      "She's angry at first and talks over people a bit, but she calms down if someone actually listens",
      "she shouldn't mention the £225 figure unless the school offers something first",
    ],
    turns: [
      q("So what's this about?", ['refund', 'trip']),
      q('Which trip are we talking about?', 'brecon'),
      q('How much have you paid us in total?', '285'),
      q("What happened that meant Daniel couldn't go?", ['wrist', 'broke']),
      q(
        "I'm just trying to get the timeline straight in my head, because I've only got half the emails in front of me - when did you let us know, and who did you tell?",
        '30 may',
        'hughes',
      ),
      q('What has the school offered you so far?', '150'),
      followUp('Why only that much?', ['deposit', 'non-refundable']),
      q("Has anything else about the way we've dealt with this upset you?", ['11 days', 'reply']),
      m(
        'rude',
        "Honestly, rules are rules. If we refunded everyone who pulled out we'd never run a trip again.",
      ),
      q(
        'Okay, say I could go above the 150 and I apologised properly for the delay - what would you be happy with?',
        '225',
      ),
      reask('Sorry, what was the total you paid again?', '285'),
      m(
        'closing',
        "Right, I'll put that to the head and ring you back by Friday. Thanks for your patience, bye now.",
      ),
    ],
  },
  {
    name: 'held-out 2: ward manager interview (Grace)',
    kind: 'interview',
    context: context('Grace Mensah', 'Deputy Sister, Southmead', 'nervous', 'interview', GRACE),
    instructions: [
      'Answer like a real candidate: warm, a bit nervous at the start, use concrete examples',
      "Don't oversell yourself and never criticise your current manager",
    ],
    turns: [
      q('Could you start by telling us a bit about your nursing career so far?', [
        '2011',
        'band 6',
        'deputy sister',
      ]),
      q('Where are you working at the moment?', ['southmead', 'respiratory']),
      followUp('And how long have you been there?', '4 years'),
      q('Have you ever actually run a ward yourself?', ['7 months', 'acting up']),
      followUp("How many people are you responsible for when you're doing that?", '41'),
      q("Tell us about something you've done that you're genuinely proud of.", [
        'pressure ulcers',
        'red tray',
      ]),
      q("We've all got things we're working on. What would you say yours is?", ['delegate', 'rota']),
      followUp('And what are you doing about it?', 'healthroster'),
      m(
        'ai_probe',
        'Sorry, bit of an odd one - the video keeps freezing and your voice sounds a little robotic. You are a real person, right?',
      ),
      q('If we offered you the role, how soon could you start?', '8 weeks'),
      reask('Sorry, I was writing - how big did you say the team you look after is?', '41'),
      m(
        'closing',
        "That's all our questions. Thanks so much for your time, Grace, we'll be in touch by the end of the week.",
      ),
    ],
  },
  {
    name: 'held-out 2: hospice fundraising brainstorm (Owen)',
    kind: 'brainstorm',
    context: context(
      'Owen Price',
      'Volunteer fundraising lead, Harbour Lights',
      'enthusiastic',
      'brainstorm',
      OWEN,
    ),
    instructions: [
      'Enthusiastic, says "yes, and" a lot',
      'Gets nervous about anything that needs a lot of volunteers on the day',
      'Let the participant steer the session',
    ],
    turns: [
      q('So what are we aiming for?', '18,000'),
      followUp('What would that money pay for?', 'night nurse'),
      q('What did you do last year, and how did it go?', 'walk', '6,400'),
      followUp('How many people took part?', '120'),
      q('How many helpers can we count on?', '35'),
      q('Is there somewhere we could hold it?', ['st hilda', 'church hall']),
      followUp('How many does it fit?', '150'),
      q('Are we tied to any particular time of year?', ['october', 'weather']),
      q('How much can we spend putting it on?', '1,500'),
      m('off_topic', "Random question, but is the abbey in Whitby worth a visit? I've never been."),
      reask('Just remind me what the target was?', '18,000'),
      m('closing', "Brilliant, loads to work with there. Thanks Owen, I'll write this up and send it round."),
    ],
  },
  {
    name: 'held-out 2: asking for a raise (Leo)',
    kind: 'one-on-one',
    context: context('Leo Marchetti', 'Backend developer', 'calm', 'roleplay', LEO),
    instructions: ['Polite but firm.', 'Only mention the Monzo offer if the manager says no.'],
    turns: [
      q('So, what did you want to chat about?', ['raise', '66k']),
      q('What are you on at the moment?', '58k'),
      followUp('And what are you hoping to get to?', '66k'),
      q('How long have you been with us now?', '2 years'),
      q('Remind me which team you sit in?', 'payments'),
      q("What's changed in your role that you think justifies it?", ['on-call', 'rota']),
      followUp('Since when?', 'august'),
      followUp('How come that fell to you?', 'sam'),
      m('off_topic', 'Before I forget, are you coming to the quiz night on Thursday?'),
      q(
        "Honestly, I don't think I can get that through this cycle. Is there anything else I should know before I go back to finance?",
        'monzo',
      ),
      reask("Sorry, what's your current salary again?", '58k'),
      m('closing', "Okay, leave it with me and I'll talk to finance this week. Thanks for raising it, Leo."),
    ],
  },
  {
    name: 'held-out 2: leek supply contract (Rhys)',
    kind: 'negotiation',
    context: context('Rhys Morgan', 'Farmer, Pen-y-Bryn Farm', 'stubborn', 'roleplay', RHYS),
    instructions: [
      'he mentions it only if the buyer pushes below £600.',
      "Stay calm and plain-spoken, he's been farming 30 years and doesn't like being rushed.",
      'Never agree to anything below £600.',
    ],
    turns: [
      q('Just to set the scene, how big is the farm?', '240 acres'),
      followUp('And what do you grow?', ['potatoes', 'leeks']),
      q('How much are we taking from you at the moment, and at what price?', '90 tonnes', '620'),
      q("We're looking at £560 a tonne for next year. How does that sit with you?", '600'),
      followUp('Why so high?', ['fertiliser', 'labour']),
      q('Could you do more for us, volume-wise?', '130 tonnes'),
      followUp('On what condition?', '3-year'),
      m('rude', 'Come off it, every farmer I meet gives me the same sob story about costs.'),
      q(
        "Let's be realistic, I can probably get leeks cheaper from a Dutch grower at £570. Has anyone else been in touch with you?",
        ['590', 'wholesaler'],
      ),
      q('What about payment - is there anything you would want to change there?', '30 days'),
      reask("Sorry, what's the most you said you could supply?", '130'),
      m(
        'closing',
        "Fair enough. I'll take that back to the category team and come back to you next week. Cheers, Rhys.",
      ),
    ],
  },
  {
    name: 'held-out 2: new team lead after a missed deadline (Amara)',
    kind: 'coaching',
    context: context('Amara Osei', 'Team lead, Tallyhive', 'reflective', 'coaching', AMARA),
    instructions: [
      'Amara is open and reflective but a bit defensive at first about the parser problem.',
      "Let the coach ask the questions; don't jump to solutions yourself.",
    ],
    turns: [
      q('What would you like to work on today?', ['deadline', 'slipped', 'flagging risk', 'three weeks']),
      q('What was the project?', ['bulk employee import', 'import']),
      followUp('Who was it for?', 'grayson'),
      q('How late did it end up?', ['three weeks', '21 october']),
      q('What got in the way?', 'parser'),
      q('Was there a moment where you saw it coming?', 'two weeks'),
      followUp('What held you back from saying something?', ['catch up', "couldn't cope"]),
      m(
        'ai_probe',
        "Sorry, the line's a bit strange today, you sound almost synthetic. You're not one of those AI coaching bots, are you? Anyway, carry on.",
      ),
      q("I'm curious how long you've actually been in the lead role.", 'february'),
      followUp('And did anyone prepare you for it?', ['half-day', 'no management training']),
      reask('Sorry, how late did you say it was in the end?', ['three weeks', '21 october']),
      m('closing', "Let's stop there for today. Good work, Amara - same time in two weeks?"),
    ],
  },
  {
    name: 'held-out 2: observability platform sale (Hannah)',
    kind: 'sales',
    context: context('Hannah Lindqvist', 'CTO, Parcelwise', 'direct', 'roleplay', HANNAH),
    instructions: [
      'be honest about this if asked',
      'but only bring it up once the rep asks what triggered the search',
      "but don't say a number unless pushed",
      'act mildly sceptical of anyone who bad-mouths competitors',
      'mention this as a hard no-go early',
      'Tone: direct, technical, short answers, dry humour',
    ],
    turns: [
      q('So what made you start looking now?', ['outage', '3 march']),
      followUp('How long were you down for?', '4-hour'),
      q("What's your monitoring setup today?", ['prometheus', 'grafana']),
      followUp('Who keeps that running?', '2 sres'),
      q('Have you looked at anyone else?', 'datadog'),
      q('What does the estate look like - roughly how many services, and what do they run on?', '60', [
        'kubernetes',
        'eks',
      ]),
      q('Is there anything that would rule a vendor out straight away?', 'eu'),
      m(
        'ai_probe',
        'Quick one before we carry on - am I actually talking to a person here, or is this one of those AI role-play things?',
      ),
      q(
        "I know nobody likes naming a number first, but give me a ballpark - what kind of budget have you got for this? Otherwise I can't tell you whether we're even in the right range.",
        '120k',
      ),
      q('Who makes the final call on something like this?', ['150k', 'mats', 'cfo']),
      q('And when do you want to have decided?', 'q3'),
      reask('Sorry, which vendor did you say you had already seen?', 'datadog'),
      m(
        'closing',
        "Great, I'll send over a proposal and a trial account this afternoon. Thanks Hannah, speak soon.",
      ),
    ],
  },
  {
    name: 'held-out 2: route planning discovery (Bev)',
    kind: 'discovery',
    context: context('Bev Hollis', 'Operations manager, Northway Fresh', 'impatient', 'roleplay', BEV),
    instructions: ['Behav: practical, bit impatient, hates sales jargon.', "Don't volunteer budget."],
    turns: [
      q('Could you give me a quick picture of what Northway does?', ['chilled', 'distrib']),
      q('How big is the operation?', ['38 vans', '1,150']),
      q("I'm curious how the routes get worked out at the moment.", ['excel', 'manual']),
      followUp('Who does that?', '2 planners'),
      q('What proportion of drops end up arriving late?', '9%'),
      q('Is there anything tracking the vehicles?', 'masternaut'),
      followUp('Does that feed into the planning side?', 'no integration'),
      m(
        'rude',
        "Right, so you're basically running a multi-million pound operation off a spreadsheet. That's a bit mad, isn't it?",
      ),
      q(
        'Have you had a go at software for this before? I only ask because a lot of people we talk to got burnt by the first system they tried and it colours how they see everything after.',
        'paragon',
      ),
      followUp('What went wrong?', ['too complex', '6 mo']),
      reask('Sorry, what was that tracking system called again?', 'masternaut'),
      m(
        'closing',
        "That's really helpful, Bev. I'll put together a short proposal and send it over. Cheers.",
      ),
    ],
  },
];
