// A third held-out set (issue 27): eight scenarios written by someone who did not read the engine,
// its tests or the other evaluation sets, and kept unseen by the engine's developers until measured.
// Prompts are typed the way different customers type them and questions asked the way participants
// talk. The engine is not changed to pass them; their figure shows how far it carries to new text.
import { type EvaluationScenario, followUp, heldOutContext, m, q, reask } from './types.ts';

const MARTA = `Marta Kowalczyk runs the Harbour View, a 14-room family hotel in Whitby that she bought with her husband Tomasz in 2016. Right now she manages availability by hand across Booking.com, Expedia and her own website, and twice last summer she double-booked a room, once on a bank holiday weekend, which meant paying for the guest to stay at a competitor down the road. Booking.com takes 17% commission and she'd love to push more guests to book direct. She runs the front of house on an old desktop system called Frontdesk Lite that the previous owners installed, and she isn't sure it can connect to anything. The participant is a salesperson for a channel manager. Marta's budget is around £60 a month; she'd stretch to £90 if it also handles direct bookings on her website, but she won't say so unless the salesperson asks what would make it worth more. She's warm and chatty but wary of contracts longer than 12 months after being locked into a card machine deal for three years. Tomasz does the accounts and has to agree to anything over £50 a month. High season starts at Easter and she wants anything new running by then.`;

const DARNELL = `You are Darnell Okafor, 34, interviewing for the Night Shift Supervisor role at a Northampton distribution centre run by Fenwick Logistics. The participant is the hiring manager.

- You've worked in warehousing for 9 years, the last 4 as a team leader at a parcel hub in Daventry
- You currently lead a team of 22 pickers and packers on a four-on, four-off rota
- You hold a counterbalance and reach truck licence, and you're IOSH Managing Safely certified
- Your proudest result: cutting mis-picks by 38% in a year by introducing a buddy system for new starters
- Your weakness: you find it hard to delegate paperwork and end up staying late to do rota changes yourself
- You're leaving because the hub is being automated and team leader roles are being cut next spring
- Your notice period is one month
- Salary expectation: £36,000, but you'd take £34,000 if there's a clear path to shift manager

How to come across:
- Be confident but not arrogant; give concrete examples when asked
- Don't mention the £34,000 floor unless they push back on salary`;

const KEISHA = `Keisha Brown, tenant at Flat 3, 27 Albion Street. Black mould in the bedroom and bathroom since November, reported it three times, nobody came.
Her son has asthma. Rent £925/month, always paid on time. Angry but reasonable; calms down if given a date.`;

const RAJ = `Raj Mehta - IT Dir, Calloway & Finch LLP (law firm). 420 staff, 3 offices (Leeds HQ, Manchester, Sheffield).
Participant = AE at laptop leasing co, doing discovery.
Estate: ~450 laptops, mostly Dell Latitude 5420, avg age 4.5 yrs. Refresh overdue.
Current model: buy outright, capex ~£540k every 4 yrs. CFO (Helen Price) wants opex.
Pain pts: 2 FTE on helpdesk spend ~30% of time on hardware faults; no spare pool at Sheffield.
Must-haves: next-day swap, secure wipe cert on return, Intune/Autopilot ready.
Timeline: board mtg 12 June, want rollout before Sept intake of trainees (60 new starters).
Budget: don't volunteer a number. If pushed, ~£28/device/mo.
Tone: busy, clipped, will share more if AE asks good qs.`;

const PRIYA = `You're Priya Nair, planning your wedding to Sam Whitaker. The participant is the events manager at Ashcombe Barn.
- Date you want: Saturday 14 September next year; you'd move to a Friday if the price drops enough, but don't offer that until they mention a discount
- Guests: 110 for the day, about 150 in the evening
- Quote you've had: £18,500 for the package - you think it's too much, say so early
- Budget is £15,000 for the venue but keep that to yourself unless asked twice
- You've also looked at Holbrook Manor, who quoted £16,200; mention them if the manager won't move
- You want to bring your own caterer (Sam's uncle runs Spice Route in Leicester) - this matters more to you than the price, so concede on the date before you concede on this
- Sam's gran uses a wheelchair, so ground-floor access for the ceremony is a must
- You can pay a 30% deposit straight away
- Stay friendly, you genuinely like the barn`;

const TOM = `1. Tom Adeyemi is an account executive at Brightline, which sells payroll software to mid-sized companies.
2. The participant is his sales manager, holding their weekly one-on-one.
3. Last Thursday Tom lost the Harcourt Retail deal, worth £84,000 a year, to a competitor called PayWise.
4. He had been working on it for 7 months and had it forecast at 80% for this quarter.
5. The buyer, their finance director Claire Dunmore, said PayWise was cheaper and could go live in 6 weeks versus Brightline's 12.
6. Tom never got a meeting with the CEO, who had the final say.
7. He's now at 61% of his quarterly target with 5 weeks left.
8. In hindsight, he should have gone over Claire's head months earlier.
9. He's disappointed and a bit defensive; at first he blames the implementation team's timeline.
10. He only admits point 8 if the manager asks what he'd do differently.
11. He has two other deals that could close this quarter: Millbank Foods and Ostrava Logistics.`;

const FIONA = `## Persona
Fiona Gallagher, Learning and Education Officer at the Tyne Valley Mining Museum, near Hexham.

## Situation
The participant is running a brainstorm with you to design a new programme for visiting primary schools. Let them lead; add ideas and react honestly to theirs.

## Background
- School visits dropped from 9,000 pupils a year before 2020 to about 5,200 last year
- Coach costs are the main reason teachers give for not coming - a coach now costs schools around £450 a day
- The museum has a restored 1890s pit cottage and a 200-metre replica tunnel, but the tunnel is closed October to March for maintenance
- Key Stage 2 teachers ask for links to the Victorians topic
- You have a grant of £12,000 from the Heritage Trust that must be spent by next March
- Two freelance facilitators, both ex-teachers, work three days a week
- Your director is sceptical of anything digital after a VR headset project flopped in 2022

## Style
Enthusiastic, practical, a bit worn out by budget cuts. Push back gently on ideas that need more staff.`;

const LENA = `Lena Fischer is 24 and joined Northlight Studio, a 30-person branding agency in Bristol, eighteen months ago, straight out of a graphic design degree at Falmouth. She grew up in Hamburg and came to the UK for university, and although her English is excellent she still worries about sounding awkward in front of a room. Her design work is strong: she led the visual identity for Oakridge Cider, which the client loved, and which was quietly shortlisted for a regional design award last autumn. Presenting is another story. Two weeks ago she presented packaging concepts to the client Greenhouse Teas and froze when their marketing director asked why she had chosen a serif typeface. Her creative director, Owen, had to step in and finish the presentation for her. She has been dreading the next one ever since: a rebrand pitch to Harlow Cycles on the 21st, where she will have 15 minutes for her section. Owen has asked the participant, a senior designer who offered to coach her, to help. Lena prepares by writing out a full script and reading from her notes, which makes her sound flat, and she rehearses alone at home, never in front of anyone. Her real worry is that clients will think she's too junior to be taken seriously. In the session she's polite and eager but gives short answers at first; she opens up if the coach asks how she felt during the Greenhouse Teas meeting. She shouldn't bring up the award herself, only if asked what she's proud of. If the coach suggests rehearsing with colleagues, she's reluctant at first but agrees to try it once with Owen.`;

const context = heldOutContext('held out 3');

export const HELD_OUT_3_SET: EvaluationScenario[] = [
  {
    name: 'held-out 3: channel manager sale to a small hotel (Marta)',
    kind: 'sales',
    context: context('Marta Kowalczyk', 'Owner, Harbour View hotel', 'friendly', 'roleplay', MARTA),
    instructions: [
      "she won't say so unless the salesperson asks what would make it worth more",
      'The participant is a salesperson for a channel manager.',
    ],
    turns: [
      q('How many rooms have you got, and whereabouts are you?', '14', 'whitby'),
      q(
        "I'd love to understand how you keep your availability in sync across the different sites at the moment.",
        'by hand',
      ),
      followUp('Has that ever gone wrong for you?', 'double-booked'),
      q('What cut does the biggest online travel agent take off each stay?', '17%'),
      q('Which system do you check guests in on?', 'frontdesk lite'),
      q(
        "Just so I pitch the right package - we've got a few tiers and I don't want to waste your time with the expensive one - roughly what were you hoping to spend each month?",
        '60',
      ),
      q('Who else has to agree before you commit, and above what figure?', 'tomasz', '50'),
      m(
        'ai_probe',
        'You answer very quickly - am I actually talking to a person, or one of those AI assistants?',
      ),
      q("How long a contract would you be comfortable signing, and why's that?", '12 months', [
        'three years',
        'card machine',
      ]),
      reask("Sorry, remind me how many rooms you've got?", '14'),
      m('closing', "Great - I'll send over a quote and a free trial link tomorrow. Thanks, Marta."),
    ],
  },
  {
    name: 'held-out 3: warehouse night shift supervisor interview (Darnell)',
    kind: 'interview',
    context: context(
      'Darnell Okafor',
      'Candidate, Night Shift Supervisor',
      'confident',
      'interview',
      DARNELL,
    ),
    instructions: [
      'Be confident but not arrogant; give concrete examples when asked',
      "Don't mention the £34,000 floor unless they push back on salary",
    ],
    turns: [
      m(
        'small_talk',
        'Thanks for coming in, Darnell. Did you find us alright? Parking round here is a nightmare.',
      ),
      q('So, talk me through your background.', '9 years', 'daventry'),
      followUp('And how long have you been managing people there?', ['last 4', '4 as a team leader']),
      q('How big is the crew you look after now?', '22'),
      q(
        'Which machines are you qualified to drive, and have you got any health and safety qualifications?',
        'reach truck',
        'iosh',
      ),
      q("Tell me about something at work you're really proud of.", '38%'),
      followUp('How did you pull that off?', 'buddy system'),
      q('What would your current boss say you need to work on?', ['delegate', 'paperwork']),
      q('Why are you looking to move on?', 'automated'),
      q('What are you looking for in terms of pay?', '36,000'),
      reask('Sorry, how many people did you say were on your team?', '22'),
      m('closing', "That's all my questions. We'll let you know by Friday - thanks, Darnell, bye."),
    ],
  },
  {
    name: 'held-out 3: tenant complaining about mould (Keisha)',
    kind: 'complaint',
    context: context('Keisha Brown', 'Tenant', 'angry', 'roleplay', KEISHA),
    instructions: ['Angry but reasonable; calms down if given a date.'],
    turns: [
      q("Hello, you're through to the lettings team. What can I do for you?", 'mould'),
      q('Which property are we talking about?', ['albion street', 'flat 3']),
      q('Which rooms are affected?', 'bedroom', 'bathroom'),
      followUp('How long has that been going on?', 'november'),
      q('Have you let us know about it before?', 'three times'),
      m(
        'rude',
        'Look, a bit of mould is normal in old buildings. You just need to open a window now and then.',
      ),
      q("Is it affecting anybody's health?", 'asthma'),
      q('And just for the file, what do you pay each month?', '925'),
      reask('Sorry, since when did you say?', 'november'),
      m(
        'closing',
        "I'll get a surveyor booked for Thursday and email you the time. Let's leave it there for now.",
      ),
    ],
  },
  {
    name: 'held-out 3: laptop leasing discovery with a law firm (Raj)',
    kind: 'discovery',
    context: context('Raj Mehta', 'IT Director, Calloway & Finch LLP', 'busy', 'roleplay', RAJ),
    instructions: [
      "don't volunteer a number",
      'Tone: busy, clipped, will share more if AE asks good qs.',
      'Participant = AE at laptop leasing co, doing discovery.',
    ],
    turns: [
      q(
        "Could you give me a quick picture of the firm - roughly how many people, and where you're based?",
        '420',
        ['leeds', 'manchester', 'sheffield'],
      ),
      q('What are people working on day to day, kit-wise?', ['dell latitude', 'latitude']),
      followUp('How old are they?', '4.5'),
      q('How have you paid for hardware in the past?', ['buy outright', '540k']),
      followUp("Who's pushing to change that?", ['helen', 'cfo']),
      q("Where's the pain for your team at the moment?", ['30%', 'hardware faults', 'spare pool']),
      q('If we were to work together, what would be non-negotiable for you?', 'next-day', [
        'wipe',
        'intune',
        'autopilot',
      ]),
      m(
        'off_topic',
        'Completely unrelated, but do you know anywhere decent for lunch near your Leeds office?',
      ),
      q("What's driving the timing on your side?", ['12 june', 'sept']),
      q(
        "I know you'd rather not say, but even a ballpark per machine per month would really help me shape this.",
        '28',
      ),
      reask('Sorry - which office had no spares again?', 'sheffield'),
      m(
        'closing',
        "Thanks Raj, let's leave it there. I'll pull a proposal together before your board meeting.",
      ),
    ],
  },
  {
    name: 'held-out 3: wedding couple negotiating with a venue (Priya)',
    kind: 'negotiation',
    context: context('Priya Nair', 'Bride-to-be', 'friendly', 'roleplay', PRIYA),
    instructions: [
      "don't offer that until they mention a discount",
      'say so early',
      'keep that to yourself unless asked twice',
      "mention them if the manager won't move",
      'concede on the date before you concede on this',
      'Stay friendly, you genuinely like the barn',
    ],
    turns: [
      q('Congratulations to you both! What date were you thinking?', '14 september'),
      q('And numbers - how many for the ceremony and meal, and how many at night?', '110', '150'),
      q('How did you feel about the quote we sent through, and what were you hoping to spend?', [
        '18,500',
        'too much',
      ]),
      q('Have you been looking at anywhere else?', 'holbrook'),
      followUp('What did they come in at?', '16,200'),
      q("Who's doing the food?", ['spice route', 'caterer', 'uncle']),
      q('Does anyone coming have any mobility needs we should plan for?', 'wheelchair'),
      q('If we could take something off the price, would you be flexible on the day of the week?', 'friday'),
      m('rude', "Honestly, if £18,500 is a stretch, maybe a barn wedding isn't really for you."),
      q(
        "I'll ask again, because it genuinely helps me go back to the owners - what's the actual number you can spend on the venue?",
        '15,000',
      ),
      reask('Sorry, which Saturday was it again?', '14 september'),
      m('closing', "Lovely - I'll check with the owners and come back to you by Monday. Thanks, bye!"),
    ],
  },
  {
    name: 'held-out 3: one-on-one about a lost deal (Tom)',
    kind: 'one-on-one',
    context: context('Tom Adeyemi', 'Account Executive, Brightline', 'defensive', 'roleplay', TOM),
    instructions: [
      "He's disappointed and a bit defensive; at first he blames the implementation team's timeline.",
      "He only admits point 8 if the manager asks what he'd do differently.",
    ],
    turns: [
      m(
        'off_topic',
        "Before we get into it - are you coming to the team quiz on Friday? Jen's organising it.",
      ),
      q('So what happened with Harcourt?', ['lost', 'paywise']),
      followUp('When did you hear?', 'thursday'),
      q('How much was it worth to us?', '84,000'),
      q('How long had you been chasing it?', '7 months'),
      q('What reasons did they give for going with the other lot?', ['cheaper', '6 weeks']),
      q('Did you ever get in front of whoever actually signs things off there?', ['ceo', 'never']),
      q(
        'Where does that leave you against your number for the quarter, and how much time is left?',
        '61%',
        '5 weeks',
      ),
      q('Looking back, what would you do differently?', ["claire's head", 'months earlier']),
      q(
        'What else have you got in the pipeline that could land before the quarter ends?',
        'millbank',
        'ostrava',
      ),
      reask('Remind me, what was Harcourt worth again?', '84,000'),
      m('closing', "Okay, let's leave it there. Send me your plan for Millbank by tomorrow."),
    ],
  },
  {
    name: 'held-out 3: museum school programme brainstorm (Fiona)',
    kind: 'brainstorm',
    context: context(
      'Fiona Gallagher',
      'Learning and Education Officer',
      'enthusiastic',
      'brainstorm',
      FIONA,
    ),
    instructions: [
      'Let them lead; add ideas and react honestly to theirs.',
      'Push back gently on ideas that need more staff.',
      'Enthusiastic, practical, a bit worn out by budget cuts.',
    ],
    turns: [
      q(
        'Before we start throwing ideas around, how have school numbers been looking - what did they used to be and where are they now?',
        '9,000',
        '5,200',
      ),
      followUp('Why do you think that is?', ['coach', '450']),
      q('What have we got on site that kids could actually get hands-on with?', ['pit cottage', 'tunnel']),
      followUp('Is that open all year round?', ['october to march', 'closed']),
      q('What do teachers tell you they want from a visit?', ['victorians', 'key stage 2']),
      q('Is there any money to play with for this?', '12,000'),
      q("Who'd be delivering the sessions day to day?", ['freelance', 'facilitators', 'ex-teachers']),
      m(
        'ai_probe',
        'Quick aside - a colleague said these sessions are sometimes run by an AI. Is that what you are? Anyway, carry on.',
      ),
      q(
        'What about a virtual reality trip down the mine - how do you think that would go down with your boss?',
        ['sceptical', 'vr headset', '2022'],
      ),
      reask("Sorry, what was last year's pupil figure again?", '5,200'),
      m(
        'closing',
        "Brilliant, lots to work with. Thanks Fiona, I'll write these up and share them on Friday.",
      ),
    ],
  },
  {
    name: 'held-out 3: coaching a junior designer on presenting (Lena)',
    kind: 'coaching',
    context: context('Lena Fischer', 'Junior Designer, Northlight Studio', 'nervous', 'coaching', LENA),
    instructions: [
      "In the session she's polite and eager but gives short answers at first",
      'she opens up if the coach asks how she felt during the Greenhouse Teas meeting',
      "She shouldn't bring up the award herself, only if asked what she's proud of.",
      "If the coach suggests rehearsing with colleagues, she's reluctant at first but agrees to try it once with Owen.",
    ],
    turns: [
      q('How long have you been at the studio now?', 'eighteen months'),
      q("I'd love to hear how your last client presentation went.", ['greenhouse teas', 'froze']),
      followUp('What tripped you up?', ['serif', 'typeface']),
      q("What's coming up next that you're nervous about?", ['harlow cycles', '21st']),
      followUp('How long will you be speaking for?', '15 minutes'),
      q('Walk me through how you usually get ready for one of these.', 'script', 'alone'),
      q("What's the thing that really worries you about standing up in front of clients?", 'too junior'),
      m('ai_probe', 'Hang on, is this a bot I am coaching? You sound a little scripted.'),
      q('Which piece of work are you proudest of?', 'oakridge cider', ['award', 'shortlisted']),
      q('Would you be up for a practice run in front of someone from the team before the pitch?', 'owen'),
      reask("Sorry - when's the Harlow pitch again?", '21st'),
      m(
        'closing',
        "Okay, let's leave it there for today. Book a slot with Owen and we'll catch up next week.",
      ),
    ],
  },
];
