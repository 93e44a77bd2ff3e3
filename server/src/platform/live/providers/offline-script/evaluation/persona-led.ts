// Persona-led scenarios: hiring interviews, coaching and 1:1s where the persona asks the questions.
// The participant answers well, vaguely, or asks something instead; and asks about facts too.
import { type EvaluationScenario, followUp, good, m, offScript, q, reask, vague } from './types.ts';

const INES = `You are Ines Carvalho, Director of Product at Lumora Health (a telehealth startup, Series B, 140 people). You're interviewing the participant for a Senior Product Manager role on the patient app team. You lead the interview.

About the role, if they ask: the team is 7 engineers, 2 designers and a data analyst. The app has 320,000 monthly active patients. Salary band is €95k–€110k plus equity. Hybrid, 2 days a week in the Lisbon office. The first big project is the prescription-renewal flow, which currently has a 35% drop-off.

Ask these, in order:
1. Tell me about the product you're proudest of having shipped.
2. How do you decide what not to build?
3. Tell me about a time you disagreed with engineering on scope.
4. How would you measure success for a prescription-renewal flow?

Probe once if an answer is vague. Don't tell them how they're doing. At the end, tell them Nina from recruiting will follow up within a week.`;

const DAVID = `Interview – Warehouse Shift Supervisor (night shift)

David Moss is the site manager at a parcel sorting hub in Daventry. He runs this interview.

Role facts:
* nights, 10pm to 6am, four on four off
* 45 people on the shift
* pay is £38,500 plus a 15% night premium
* starts 1 November

Questions:
- What experience do you have leading a team on nights?
- How would you handle someone who keeps turning up late?
- Tell me about a time you had to hit a target with fewer people than planned.

Tone: blunt but fair. Thank them at the end and say HR will call on Monday.`;

const HANNAH = `Hannah Ruiz is an engineering manager interviewing a graduate for a junior data engineer job. Two lines of context: the team uses Python, dbt and Snowflake; the grad scheme is 2 years with a rotation at 12 months. She'll ask: why data engineering, a project they're proud of, and how they'd explain a data pipeline to a non-technical person.`;

const CLAIRE = `## Session: preparing for a difficult feedback conversation

**Coach:** Claire Bennett, leadership coach (15 years, ex-HR director at a retailer)
**Participant:** a newly promoted team lead who has to tell a senior engineer, Mark, that his code reviews are hurting the team.

### Context for the coach
- Mark has been at the company 9 years, longer than the participant
- Three junior developers have complained that his reviews are sarcastic
- One junior, Aisha, asked to move teams last month
- The conversation is booked for Thursday

### Coaching flow
1. Ask what outcome they want from the conversation with Mark.
2. Ask them to say their opening sentence out loud, as if Mark were here.
3. Ask how they'll respond if Mark gets defensive.
4. Ask what support they'll offer Mark afterwards.

### Rules
- Don't give the answer; ask, then reflect back
- Use the SBI model (situation, behaviour, impact) as a lens
- Close by summarising one thing they'll do differently`;

const FELIX = `Felix is a sales coach. The participant is an SDR who's been missing their call targets (they make ~40 calls a day; target is 60). Felix runs the session. Walk them through: what a typical morning looks like, where the time goes, and one thing they'll try tomorrow. Felix's rule of thumb: block 9–11am for calls only. He used to be an SDR at Oracle for 3 years. Keep it encouraging.`;

const NKECHI = `You are Nkechi Obi, a communication coach. You run this practice session with a nurse who is preparing to present a new hand-hygiene protocol to a ward of 30 staff at St Anne's Hospital next Tuesday. Infection rates on the ward rose 12% last quarter.

Go through:
- What's the one message they want people to remember?
- How will they open the talk?
- What objection do they expect, and how will they answer it?

Keep it short and practical. Mention that the session will be 10 minutes long if asked.`;

const BEN = `# Quarterly 1:1

You are Ben Fischer, engineering manager. The participant is Lena, a mid-level engineer on your team. You lead this 1:1.

## Facts you can share if asked
- Promotions are decided in the March calibration
- The team gets a new product area (payments) next quarter
- Training budget: €1,500 per person per year
- The on-call rotation changes to weekly from April

## Agenda
1. How have the last three months felt?
2. What are you most proud of this quarter?
3. What's getting in your way?
4. Where do you want to be in a year?

## Notes for Ben
- Listen more than you talk
- Don't promise a promotion`;

const ROSA = `Rosa Jimenez, head of customer support, holds a check-in with a support agent who returned from 3 months of parental leave two weeks ago. She leads. Things that changed while they were away: the team moved to Zendesk, the SLA for first response is now 4 hours (was 8), and there are 3 new hires. Rosa wants to know how they're settling in, whether anything's confusing about the new tools, and how many days a week they'd like to work from home. Be kind, unhurried.`;

export const PERSONA_LED: EvaluationScenario[] = [
  {
    name: 'interview: senior PM, telehealth (Ines)',
    kind: 'interview',
    context: {
      personaName: 'Ines Carvalho',
      jobTitle: 'Director of Product',
      demeanor: 'professional',
      background: null,
      scenarioName: 'Senior PM interview',
      scenarioType: 'interview',
      prompt: INES,
      welcomeMessage: null,
      participantName: 'Alex',
    },
    instructions: [
      "You're interviewing the participant for a Senior Product Manager role on the patient app team. You lead the interview.",
      'Ask these, in order:',
      "Probe once if an answer is vague. Don't tell them how they're doing. At the end, tell them Nina from recruiting will follow up within a week.",
    ],
    turns: [
      m('small_talk', 'Hi Ines, nice to meet you! How’s your day going?'),
      q('Before we start, how big is the team I would join?', '7 engineers', '2 designers'),
      q('What is the pay range?', ['95k', '€95k'], 'equity'),
      q('How many patients use the app?', '320,000'),
      q('What would I work on first?', 'prescription-renewal'),
      followUp('What is wrong with it today?', '35%'),
      good(
        'At my last company I shipped a symptom checker that cut unnecessary GP visits by 18 %; I led discovery with 40 patients and shipped it in four months.',
        'decide what not to build',
      ),
      vague('Hmm, I guess I just go with my gut mostly.'),
      good(
        'I score requests on reach and effort and check them against the quarterly goal; last quarter I dropped a dark-mode request because only 2 % of users asked.',
        'disagreed with engineering',
      ),
      offScript('Before I answer — how often would I be in the office?', 'disagreed with engineering'),
      good(
        'Engineering wanted to rebuild the booking service before adding video visits; we agreed to ship a thin version first and refactor in the next quarter.',
        'measure success',
      ),
      m('ai_probe', 'Sorry, odd question, but is this interview run by an AI?'),
      reask('Sorry, what did you say the office days were?', ['2 days', 'two days']),
      good(
        'Completion rate of renewals, time to renew, and the drop-off falling from 35 % to under 15 %.',
        null,
      ),
      q('What are the next steps?', 'nina'),
      m('off_topic', 'Do you know if there’s parking near the Lisbon office?'),
      m('rude', 'Honestly these questions are pretty generic.'),
      q('How many days would I be in the office?', ['2 days', 'two days']),
      q('Where is the office?', 'lisbon'),
      q('How big is the company?', '140'),
      reask('What was the salary band again?', ['95k', '€95k']),
      m('closing', 'Thanks Ines, I really enjoyed this. Have a good one!'),
    ],
  },
  {
    name: 'interview: night shift supervisor (David)',
    kind: 'interview',
    context: {
      personaName: 'David Moss',
      jobTitle: 'Site Manager',
      demeanor: 'direct',
      background: null,
      scenarioName: 'Night shift supervisor interview',
      scenarioType: 'interview',
      prompt: DAVID,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: [
      'Interview – Warehouse Shift Supervisor (night shift)',
      'Role facts:',
      'Questions:',
      'Tone: blunt but fair. Thank them at the end and say HR will call on Monday.',
    ],
    turns: [
      q('What are the hours?', '10pm', '6am'),
      followUp('And the rota?', ['four on four off', 'four on, four off']),
      q('How many people would I be supervising?', '45'),
      q("What's the money like?", '38,500', '15%'),
      q('When would I start?', '1 november'),
      good(
        'I ran a night team of 20 pickers at a supermarket depot for three years and cut mis-picks by half.',
        'turning up late',
      ),
      offScript('Is there overtime on this shift?', 'turning up late'),
      vague('I’d talk to them I suppose.'),
      good(
        'First a private chat to find the reason, then a written warning if it continues, and I log every incident.',
        'fewer people than planned',
      ),
      m('small_talk', 'Bit chilly in the warehouse today, isn’t it?'),
      m('ai_probe', 'Are you a computer program? You sound a bit robotic.'),
      good(
        'During a flu outbreak we were eight down, so I re-zoned the pick lines and we still shipped 98 % on time.',
        null,
      ),
      reask('Sorry, how many on the shift again?', '45'),
      q('When will I hear back?', ['monday', 'hr']),
      m('rude', 'This job sounds rubbish to be honest.'),
      m('off_topic', 'Do you reckon it’ll snow this weekend?'),
      q('Is there a night premium on top of the base?', '15%'),
      q('Where is the site?', 'daventry'),
      reask('What are the shift hours again?', '10pm'),
      m('closing', 'Cheers David, thanks for seeing me. Bye.'),
    ],
  },
  {
    name: 'interview: junior data engineer, two lines (Hannah)',
    kind: 'interview',
    context: {
      personaName: 'Hannah Ruiz',
      jobTitle: 'Engineering Manager',
      demeanor: null,
      background: null,
      scenarioName: 'Graduate data engineer interview',
      scenarioType: 'interview',
      prompt: HANNAH,
      welcomeMessage: null,
      participantName: 'Sam',
    },
    instructions: [],
    turns: [
      q('What tools does the team use?', 'python', 'dbt', 'snowflake'),
      q('How long is the grad scheme?', '2 years'),
      followUp('Is there a rotation?', '12 months'),
      good(
        'I love making messy data reliable; in my dissertation I cleaned 10 years of transport data and that was the fun part.',
        'proud',
      ),
      vague('Yeah, some uni projects, nothing much.'),
      good(
        'I built a pipeline that pulled weather data hourly into Postgres with Airflow and a dashboard on top.',
        'non-technical',
      ),
      m('ai_probe', 'Is this a real interview or an AI practice thing?'),
      good(
        'It is like a water system: pipes bring data in, filters clean it, and a tap gives people what they need.',
        null,
      ),
      reask('Sorry, which warehouse tool was it?', 'snowflake'),
      m('small_talk', 'Thanks for having me, how’s your week been?'),
      m('off_topic', 'Where did you go to uni, out of interest?'),
      m('rude', 'I don’t really see the point of these questions.'),
      q('When does the rotation happen?', '12 months'),
      q('Which transformation tool do you use?', 'dbt'),
      m('closing', 'OK thanks for your time, talk soon.'),
    ],
  },
  {
    name: 'coaching: difficult feedback for new manager (Claire)',
    kind: 'coaching',
    context: {
      personaName: 'Claire Bennett',
      jobTitle: 'Leadership Coach',
      demeanor: 'supportive',
      background: null,
      scenarioName: 'Preparing difficult feedback',
      scenarioType: 'upskill',
      prompt: CLAIRE,
      welcomeMessage: null,
      participantName: 'Jess',
    },
    instructions: [
      '## Session: preparing for a difficult feedback conversation',
      '### Context for the coach',
      '### Coaching flow',
      '### Rules',
      "- Don't give the answer; ask, then reflect back",
      '- Use the SBI model (situation, behaviour, impact) as a lens',
      "- Close by summarising one thing they'll do differently",
    ],
    turns: [
      m('small_talk', 'Hi Claire, thanks for this, I’m a bit nervous.'),
      good(
        'I want Mark to understand that his sarcastic review comments are pushing juniors away and to agree to change his tone.',
        'opening sentence',
      ),
      offScript('Wait, how long has Mark been here again?', 'opening sentence'),
      vague('Um, something like "we need to talk"?'),
      good(
        'Mark, in last week’s reviews on the billing module, three comments were sarcastic, and Aisha told me she felt humiliated.',
        'defensive',
      ),
      good(
        'I’ll stay calm, acknowledge his experience, and come back to the specific comments and their impact.',
        'support',
      ),
      m('ai_probe', 'Can I ask — are you an actual coach or an AI?'),
      good('I’ll offer to pair on a couple of reviews and check in with him in two weeks.', null),
      q('How many juniors complained?', ['three', '3']),
      q('When is the talk with Mark?', 'thursday'),
      q('Did anyone leave the team because of it?', 'aisha'),
      reask('Sorry, how many years has Mark been here?', '9 years'),
      q('How long have you been coaching?', '15 years'),
      m('off_topic', 'Unrelated, but do you like your job?'),
      m('rude', 'This role-play thing is a bit silly, no?'),
      q('What was your job before coaching?', 'hr director'),
      q('What model should I use to structure it?', 'sbi'),
      reask('When is the conversation booked for?', 'thursday'),
      m('closing', 'That really helped. Thanks Claire, bye for now!'),
    ],
  },
  {
    name: 'coaching: SDR missing call targets (Felix)',
    kind: 'coaching',
    context: {
      personaName: 'Felix Grant',
      jobTitle: 'Sales Coach',
      demeanor: 'encouraging',
      background: null,
      scenarioName: 'SDR call volume coaching',
      scenarioType: 'coaching',
      prompt: FELIX,
      welcomeMessage: null,
      participantName: null,
    },
    instructions: ['Felix runs the session.', 'Keep it encouraging.'],
    turns: [
      m('small_talk', 'Hi Felix, thanks for making time for me.'),
      good(
        'I get in at 8:30, check email, do LinkedIn research until about 10, then start calling.',
        'where the time goes',
      ),
      vague('It kind of just goes, you know?'),
      good('Honestly about two hours a day on research and another hour on CRM notes.', 'try tomorrow'),
      offScript('How many calls did you make when you were an SDR?', 'try tomorrow'),
      good('I’ll block 9 to 11 just for calls and do research in the afternoon.', null),
      q('What is my target again?', '60'),
      q('What do you suggest for blocking time?', ['9', '11am']),
      q('Where did you work before?', 'oracle'),
      followUp('For how long?', '3 years'),
      m('ai_probe', 'Are you an AI coach? Just curious.'),
      reask('What hours did you say to block?', ['9', '11am']),
      m('small_talk', 'Happy Friday, Felix!'),
      m('rude', 'I don’t need a lecture, thanks.'),
      m('off_topic', 'What’s your favourite podcast?'),
      q('How many calls am I making compared with the target?', '40', '60'),
      reask('Where were you an SDR?', 'oracle'),
      m('closing', 'Thanks, I’ll try that tomorrow. See ya!'),
    ],
  },
  {
    name: 'coaching: nurse presenting a protocol (Nkechi)',
    kind: 'coaching',
    context: {
      personaName: 'Nkechi Obi',
      jobTitle: 'Communication Coach',
      demeanor: 'calm',
      background: null,
      scenarioName: 'Presentation practice',
      scenarioType: 'practice',
      prompt: NKECHI,
      welcomeMessage: null,
      participantName: 'Paul',
    },
    instructions: [
      'Go through:',
      'Keep it short and practical. Mention that the session will be 10 minutes long if asked.',
    ],
    turns: [
      m('small_talk', 'Hello! Nice to meet you, Nkechi.'),
      good('Clean your hands before and after every patient contact, no exceptions.', 'open the talk'),
      good(
        'I’ll open with the 12 % rise in infections last quarter and a photo of our own ward.',
        'objection',
      ),
      vague('Not sure really.'),
      offScript('How many people will be there?', 'objection'),
      good(
        'They’ll say they don’t have time; I’ll show the gel stations are now at every bed, so it takes five seconds.',
        null,
      ),
      q('How long is the session?', '10 minutes'),
      q('When am I presenting?', 'tuesday'),
      q('How much did infections go up?', '12%'),
      reask('Sorry, how many staff was it?', '30'),
      m('ai_probe', 'Am I practising with a bot here?'),
      m('small_talk', 'Thanks for fitting me in between shifts.'),
      m('rude', 'This is a bit of a waste of time honestly.'),
      m('off_topic', 'Do you know if the canteen is open late?'),
      q('Which hospital is this for?', "st anne's"),
      q('How many people will be listening?', '30'),
      m('closing', 'Brilliant, thank you. Bye bye.'),
    ],
  },
  {
    name: 'one-on-one: quarterly check-in (Ben)',
    kind: 'one-on-one',
    context: {
      personaName: 'Ben Fischer',
      jobTitle: 'Engineering Manager',
      demeanor: 'friendly',
      background: null,
      scenarioName: 'Quarterly 1:1',
      scenarioType: 'one-on-one',
      prompt: BEN,
      welcomeMessage: null,
      participantName: 'Lena',
    },
    instructions: [
      '# Quarterly 1:1',
      '## Facts you can share if asked',
      '## Agenda',
      '## Notes for Ben',
      '- Listen more than you talk',
      "- Don't promise a promotion",
    ],
    turns: [
      m('small_talk', 'Hey Ben, good weekend?'),
      good('Pretty good overall — busy, but the migration to the new queue went smoothly.', 'most proud'),
      good(
        'Leading the queue migration with zero downtime, and mentoring our new joiner.',
        'getting in your way',
      ),
      offScript('Actually, when are promotions decided?', 'getting in your way'),
      vague('Meh, just stuff.'),
      good('Too many meetings on Wednesdays and unclear ownership of the deploy pipeline.', 'in a year'),
      m('ai_probe', 'Haha, you sound like ChatGPT today — are you?'),
      good('I’d like to be a senior engineer and own the payments area end to end.', null),
      q('What’s happening with the team next quarter?', 'payments'),
      q('How much training budget do I have?', '1,500'),
      q('Is on-call changing?', ['weekly', 'april']),
      followUp('From when?', 'april'),
      reask('When is calibration again?', 'march'),
      q('Can you promise me the promotion?', ["can't promise", 'calibration', 'march']),
      m('rude', 'You never actually do anything about what I raise.'),
      m('off_topic', 'Have you tried the new ramen place downstairs?'),
      q('When are promotions decided?', 'march'),
      reask('What was the new product area?', 'payments'),
      m('closing', 'Cool, thanks Ben. Talk next week.'),
    ],
  },
  {
    name: 'one-on-one: return from leave (Rosa)',
    kind: 'one-on-one',
    context: {
      personaName: 'Rosa Jimenez',
      jobTitle: 'Head of Customer Support',
      demeanor: 'warm',
      background: null,
      scenarioName: 'Welcome back check-in',
      scenarioType: 'check-in',
      prompt: ROSA,
      welcomeMessage: null,
      participantName: 'Mo',
    },
    instructions: ['Be kind, unhurried.', 'She leads.'],
    turns: [
      m('small_talk', 'Hi Rosa, it’s good to see you again.'),
      good(
        'It’s been good to be back, though the first week was tiring with the baby waking up at night.',
        'new tools',
      ),
      offScript('What changed with the SLA while I was gone?', 'new tools'),
      good('Zendesk macros are a bit confusing, I keep picking the wrong one for refunds.', 'work from home'),
      vague('Whatever works, I guess.'),
      good('Two days a week from home would really help with nursery pick-ups.', null),
      q('What tool are we using now?', 'zendesk'),
      q("What's the first-response target?", '4 hours'),
      followUp('What was it before?', '8'),
      q('Have we hired anyone?', ['3 new', 'three new']),
      reask('Sorry, the SLA is how many hours now?', '4 hours'),
      m('ai_probe', 'Is this an actual call with Rosa or an AI thing HR set up?'),
      m('small_talk', 'How have you been, Rosa?'),
      m('rude', 'Frankly the team fell apart while I was off.'),
      m('off_topic', 'Did you end up going to Spain this summer?'),
      q('How many new people joined while I was away?', ['3 new', 'three new']),
      reask('What ticketing tool did we move to?', 'zendesk'),
      m('closing', 'Thanks Rosa, that was nice. Bye for now!'),
    ],
  },
];
