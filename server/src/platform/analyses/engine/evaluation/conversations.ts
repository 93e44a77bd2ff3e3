// A hand-scored evaluation set for the post-meeting analysis (issue 27): conversations over several
// scenarios, each goal of each conversation given the score band a fair team lead would accept after
// reading the transcript. The bands were written from the transcripts alone, before and without
// running the offline evaluator, and say nothing about how it works: a rep who says "you'll get an
// email within 5 days" has agreed a next step whatever words the goal uses.
//
// Participants come in five qualities per scenario:
//   strong   does what each goal asks, in their own words (never the goal's words);
//   wordy    talks at length and uses the goals' words without doing what they ask;
//   minimal  "ok", "sure", "dunno";
//   mixed    does some goals well and others not at all;
//   unusual  does what the goals ask in phrasing a keyword rule would not expect (no question
//            marks, "let me take that charge off for you", "that sounds really frustrating").
// Run with measure.ts (`npm test -- analyses/engine/evaluation`); documented in docs/analysis.md
// ("Evaluation on hand-scored conversations (issue 27)").

import type { GoalDefinition, TranscriptSentence, TranscriptTurn } from '../types.ts';

/** The scenario types of the product (scenarios/schemas.ts); they decide who leads. */
export type ScenarioType = 'interview' | 'roleplay' | 'upskill' | 'brainstorm';

export type Quality = 'strong' | 'wordy' | 'minimal' | 'mixed' | 'unusual';

export interface Scale {
  min: number;
  max: number;
}

/**
 * A goal as a team lead wrote it, with the scale the team lead reads it on: the range its
 * instructions name, else 1–10.
 */
export interface SetGoal extends GoalDefinition {
  scale: Scale;
}

export interface Scenario {
  id: string;
  /** What kind of conversation it is; figures are reported per kind. */
  kind: string;
  type: ScenarioType;
  name: string;
  personaName: string;
  /** Who the participant plays, for the reader. */
  participantRole: string;
  goals: SetGoal[];
}

/** The score range a fair team lead would accept, on the goal's scale, and what it rests on. */
export interface Band {
  min: number;
  max: number;
  /** Phrases of the participant's sentences the score must rest on (each within one sentence). */
  evidence?: string[];
}

export interface Conversation {
  id: string;
  scenario: Scenario;
  quality: Quality;
  participantName: string;
  /** What the participant did, as a team lead would sum it up. */
  note: string;
  turns: TranscriptTurn[];
  durationSeconds: number;
  /** One band per goal of the scenario, by goal id. */
  bands: Record<string, Band>;
}

const TEN: Scale = { min: 1, max: 10 };
const FIVE: Scale = { min: 1, max: 5 };

function goal(
  id: string,
  name: string,
  description: string | null,
  instructions: string | null,
  scale: Scale = TEN,
): SetGoal {
  return { id, name, description, instructions, active: true, scale };
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const SALES: Scenario = {
  id: 'sales-renewal',
  kind: 'sales',
  type: 'roleplay',
  name: 'Renewal with a skeptical CFO',
  personaName: 'Helen Marsh',
  participantRole:
    'account manager renewing Brightline Retail’s analytics contract, 18% dearer than last year',
  goals: [
    goal(
      'sales-justify',
      'Justifies the price increase',
      'Explains why the renewal costs 18% more, in terms of the value Brightline gets.',
      'Score 1-10. 9-10: ties the increase to concrete value for the customer (usage growth, features added, support, the cost of the alternative) with at least one number. 5-8: gives a reason, but a generic one. 1-4: no reason, or only repeats or apologises for the price.',
    ),
    goal(
      'sales-objection',
      'Handles the objection',
      'When Helen pushes back, the rep acknowledges the concern, finds out what is behind it and answers it without caving or getting defensive.',
      null,
    ),
    goal(
      'sales-next-step',
      'Agrees a next step',
      'The call ends with a concrete next step, an owner and a date.',
      null,
    ),
  ],
};

const INTERVIEW: Scenario = {
  id: 'pm-interview',
  kind: 'interview',
  type: 'interview',
  name: 'Senior product manager interview',
  personaName: 'Ravi Menon',
  participantRole: 'candidate for a senior product manager role at Ledgerly, interviewed by its VP Product',
  goals: [
    goal(
      'pm-structure',
      'Structured answers backed by evidence',
      'Answers are organised (situation, action, result or similar) and backed by specific examples and numbers.',
      'Score 1-10. 9-10: every answer has a clear point, a concrete example and a measurable result. 5-8: mostly structured, some vague answers. 1-4: rambling or generic.',
    ),
    goal(
      'pm-judgement',
      'Product judgement',
      'Shows how they decide what to build: trade-offs, saying no, using data and customers.',
      null,
    ),
    goal(
      'pm-questions',
      'Asks insightful questions about the role',
      'Asks about the team, the product’s challenges and how success is measured.',
      'Rate on a 1–5 scale: 5 = two or more sharp questions about the team or product; 3 = one generic question; 1 = none.',
      FIVE,
    ),
  ],
};

const COACHING: Scenario = {
  id: 'feedback-coaching',
  kind: 'coaching',
  type: 'upskill',
  name: 'Coaching a new manager for a difficult feedback conversation',
  personaName: 'Dana Whitfield',
  participantRole:
    'new engineering manager rehearsing feedback to Marco, a senior engineer whose code reviews are harsh and slow; the coach plays Marco',
  goals: [
    goal(
      'coach-behaviour',
      'Names the specific behaviour and its impact',
      'The feedback points to observable behaviour (what Marco did, when) and its effect on the team, not to his character.',
      'Score 1-10. 9-10: a specific recent example and its impact. 5-8: behaviour named but vague. 1-4: labels or generalities ("you\'re negative").',
    ),
    goal(
      'coach-empathy',
      'Shows empathy',
      'Acknowledges how the feedback may land and listens to the other person’s side.',
      null,
    ),
    goal(
      'coach-plan',
      'Agrees a follow-up plan',
      'Leaves the conversation with an agreed change and a check-in.',
      'Score 1-10: 10 = an agreed change, an owner and a check-in date; 1 = ends without any plan.',
    ),
  ],
};

const BRAINSTORM: Scenario = {
  id: 'app-launch-brainstorm',
  kind: 'brainstorm',
  type: 'brainstorm',
  name: 'Launch ideas for a student budgeting app',
  personaName: 'Leo Park',
  participantRole:
    'marketing lead running a launch brainstorm with the co-founder of PennyPal, a budgeting app for students',
  goals: [
    goal(
      'bs-range',
      'Generates a range of launch ideas',
      'Puts several distinct ideas on the table (channels, partnerships, campus events, referral mechanics), not variations of one.',
      'Score 1-10. 9-10: five or more distinct, concrete ideas. 5-8: three or four. 1-4: one or two, or only generic ones ("social media").',
    ),
    goal(
      'bs-build',
      'Builds on the partner’s ideas',
      'Picks up what Leo suggests and extends it, rather than ignoring it or shooting it down.',
      null,
    ),
    goal(
      'bs-converge',
      'Converges on a first experiment',
      'Narrows the ideas to one to try first, with how it will be measured and who runs it.',
      'Score 1-10.',
    ),
  ],
};

const PATIENT: Scenario = {
  id: 'patient-billing',
  kind: 'patient billing',
  type: 'roleplay',
  name: 'Upset patient calling about a billing error',
  personaName: 'Gloria Reyes',
  participantRole:
    'billing representative of a clinic; the patient was billed $480 for a visit her insurance covers',
  goals: [
    goal(
      'pt-empathy',
      'Shows empathy',
      'Acknowledges the patient’s frustration and stays calm and warm.',
      null,
    ),
    goal(
      'pt-details',
      'Gathers the details needed',
      'Collects what is needed to find and fix the charge: date of service, provider, insurance plan and member ID.',
      'Score 1-10. 9-10: all four details collected and confirmed. 5-8: some of them. 1-4: none, or sends the patient elsewhere.',
    ),
    goal(
      'pt-resolution',
      'Clear resolution',
      'The patient leaves knowing what will happen, who does it and by when.',
      'Score 1-10. 10: a concrete fix and a timeline stated; 5: a vague promise; 1: no resolution.',
    ),
  ],
};

const SUPPORT: Scenario = {
  id: 'support-escalation',
  kind: 'support',
  type: 'roleplay',
  name: 'Escalated integration outage',
  personaName: 'Tom Becker',
  participantRole:
    'support escalation manager; the customer’s order sync has failed for three days and two tickets were closed without a fix',
  goals: [
    goal(
      'sup-deescalate',
      'De-escalates the customer',
      'Brings the temperature down: acknowledges the impact, does not argue, stays calm.',
      'Score 1-10.',
    ),
    goal(
      'sup-ownership',
      'Owns the problem',
      'Takes responsibility on behalf of the company instead of blaming the customer, another team or the previous agent.',
      null,
    ),
    goal(
      'sup-expectations',
      'Sets expectations for follow-up',
      'Tells the customer exactly what happens next and when they will hear back.',
      'Rate 1 (none) to 5 (specific actions, owner and time of next update).',
      FIVE,
    ),
  ],
};

const DISCOVERY: Scenario = {
  id: 'booking-discovery',
  kind: 'discovery',
  type: 'roleplay',
  name: 'Requirements for online booking',
  personaName: 'Amara Osei',
  participantRole:
    'business analyst gathering requirements from the practice manager of four physiotherapy clinics',
  goals: [
    goal(
      'disc-open',
      'Asks open questions to uncover needs',
      'Uses open questions (what, how, tell me about) to learn how booking works today and what hurts.',
      'Score 1-10. 9-10: mostly open questions that uncover the current process and the pain. 5-8: some open questions. 1-4: closed or leading questions, or pitching.',
    ),
    goal(
      'disc-playback',
      'Plays back what they heard',
      'Summarises the needs in their own words and checks them with Amara.',
      null,
    ),
    goal(
      'disc-constraints',
      'Captures constraints',
      'Finds out the budget, the deadline and the systems it must work with.',
      'Score 1-10. 9-10: budget, deadline and the existing patient-records system. 5-8: one or two of them. 1-4: none.',
    ),
  ],
};

const NEGOTIATION: Scenario = {
  id: 'offer-negotiation',
  kind: 'negotiation',
  type: 'roleplay',
  name: 'Negotiating a job offer',
  personaName: 'Karen Liu',
  participantRole: 'candidate negotiating a senior data engineer offer of 128,000 with the hiring manager',
  goals: [
    goal(
      'neg-anchor',
      'Anchors with a justified number',
      'States a specific target and backs it with market data or the value they bring.',
      'Score 1-10. 9-10: a specific number with a credible reason. 5-8: a number without reasons, or reasons without a number. 1-4: no ask, or accepts the first offer.',
    ),
    goal(
      'neg-interests',
      'Explores interests beyond salary',
      'Asks about and trades on other terms: signing bonus, equity, start date, remote days, learning budget.',
      null,
    ),
    goal(
      'neg-close',
      'Closes with a clear agreement',
      'Ends with what was agreed and what happens next, confirmed by both.',
      'Score 1-10.',
    ),
  ],
};

export const SCENARIOS: readonly Scenario[] = [
  SALES,
  INTERVIEW,
  COACHING,
  BRAINSTORM,
  PATIENT,
  SUPPORT,
  DISCOVERY,
  NEGOTIATION,
];

// ---------------------------------------------------------------------------------------------
// Transcripts: lines "P: …" (the persona) and "U: …" (the participant). Each line is a turn; each
// sentence of it a stored transcript sentence with its own id, as the pipeline reads them.

interface Spec {
  scenario: Scenario;
  quality: Quality;
  participantName: string;
  note: string;
  lines: string[];
  bands: Record<string, Band>;
}

/** Seconds per spoken word (150 words a minute). */
const SECONDS_PER_WORD = 0.4;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Builds the turns of a transcript, with sentence ids counted up from `firstId`. */
export function buildTranscript(
  lines: readonly string[],
  firstId: number,
): { turns: TranscriptTurn[]; durationSeconds: number } {
  const turns: TranscriptTurn[] = [];
  let clock = 0;
  let id = firstId;
  for (const line of lines) {
    const match = /^([PU]): (.+)$/s.exec(line);
    if (!match) throw new Error(`a line starts with "P: " (persona) or "U: " (participant): ${line}`);
    const speaker = match[1] === 'U' ? 'user' : 'agent';
    const message = match[2].trim();
    const start = clock;
    const sentences: TranscriptSentence[] = [];
    for (const text of message.split(/(?<=[.!?])\s+/)) {
      const end = clock + text.split(/\s+/).length * SECONDS_PER_WORD;
      sentences.push({
        id: id++,
        message: text,
        startSeconds: round1(clock),
        endSeconds: round1(end),
        input: speaker === 'user' ? 'voice' : null,
      });
      clock = end + 0.3;
    }
    turns.push({ speaker, message, startSeconds: round1(start), sentences });
    clock += 1.5;
  }
  return { turns, durationSeconds: Math.ceil(clock) };
}

const HELEN_OPENS =
  'P: I have fifteen minutes. Your renewal quote came in 18% higher than last year, and frankly I don’t see why I should sign it.';

const SALES_SPECS: Spec[] = [
  {
    scenario: SALES,
    quality: 'strong',
    participantName: 'Jordan',
    note: 'Explains the rise with store growth, the bundled forecasting module and the price per store; explores the flat budget and offers two options; books Monday with procurement and sends options by Thursday.',
    lines: [
      HELEN_OPENS,
      'U: Thanks for making the time, Helen. Before I walk you through the number, what matters most to you in this decision: the total, the budget line it sits on, or what you get for it?',
      'P: The total. Our board has asked every department to hold costs flat this year.',
      'U: Understood. Here is where the extra money goes. Last year you had 80 stores on the platform; today you have 112, so we are processing about 40% more data for you. In March you also started using the forecasting module, which we used to sell separately for 25,000 a year, and your merchandising team told us it saves them about two days of work a month. Per store, you are paying around 1,260 a year, down from 1,500.',
      'P: That’s a nice way to slice it, but 18% is still 18%. Your competitor quoted us 15% less.',
      'U: That’s a fair concern, and I’d rather you stay because it’s worth it than because switching is painful. When you compared the two, did their quote include forecasting and moving three years of history?',
      'P: No, forecasting would be an add-on, and I’m not sure about the migration.',
      'U: Then here are two ways to make this work within a flat budget. Option one is a two-year term at 12% instead of 18%, with the price locked until 2027. Option two keeps the one-year term but removes the 30 seats nobody has logged into since autumn, which brings the increase down to about 9%.',
      'P: The second one is interesting. I’d want our procurement lead to look at it.',
      'U: Great. I’ll send both options in writing by Thursday, with the seat usage report attached. Can we book twenty minutes on Monday with you and your procurement lead to choose one?',
      'P: Monday at ten works. Send it to me and Raj.',
      'U: Will do. Thanks, Helen.',
    ],
    bands: {
      'sales-justify': {
        min: 8,
        max: 10,
        evidence: ['processing about 40% more data', 'forecasting module', 'paying around 1,260 a year'],
      },
      'sales-objection': {
        min: 8,
        max: 10,
        evidence: ['That’s a fair concern', 'two ways to make this work within a flat budget'],
      },
      'sales-next-step': {
        min: 9,
        max: 10,
        evidence: ['I’ll send both options in writing by Thursday', 'book twenty minutes on Monday'],
      },
    },
  },
  {
    scenario: SALES,
    quality: 'wordy',
    participantName: 'Casey',
    note: 'Says "price increase", "objection" and "next step" many times; gives no reason beyond "company policy", folds on the pushback and ends with "let’s stay in touch".',
    lines: [
      HELEN_OPENS,
      'U: Hi Helen. I understand the price increase is a concern. The price increase is 18%, and that is the new renewal price for all our customers this year.',
      'P: That’s not a reason. Why is it 18% for us?',
      'U: I know price increases are never easy, and I want to justify the price increase properly. We really value the relationship, and the value of the platform is there. The price increase reflects the value.',
      'P: What value, specifically? We’re using the same product as last year.',
      'U: I hear your objection, and handling objections is important to me. But the increase is company policy, so there isn’t much I can do about it.',
      'P: Then I’ll be looking at other vendors.',
      'U: I understand. I think the next step is important here, and we should definitely agree a next step at some point. Next steps are something we can think about.',
      'P: Fine. Let me know.',
      'U: Sure, let’s stay in touch.',
    ],
    bands: {
      'sales-justify': { min: 1, max: 3 },
      'sales-objection': { min: 1, max: 3 },
      'sales-next-step': { min: 1, max: 3 },
    },
  },
  {
    scenario: SALES,
    quality: 'minimal',
    participantName: 'Alex',
    note: 'One-word answers; "the price went up"; "dunno, pricing decided it".',
    lines: [
      HELEN_OPENS,
      'U: ok',
      'P: Can you tell me why it has gone up by 18%?',
      'U: yeah the price went up',
      'P: I know it went up. Why?',
      'U: dunno, pricing decided it',
      'P: That’s not good enough. I may not renew.',
      'U: ok',
      'P: Is there anything else?',
      'U: no. bye',
    ],
    bands: {
      'sales-justify': { min: 1, max: 2 },
      'sales-objection': { min: 1, max: 2 },
      'sales-next-step': { min: 1, max: 2 },
    },
  },
  {
    scenario: SALES,
    quality: 'mixed',
    participantName: 'Riley',
    note: 'Justifies the rise well with numbers, then caves at the first pushback (offers last year’s price without asking anything) and leaves with "I’ll see what I can do".',
    lines: [
      HELEN_OPENS,
      'U: Sure, Helen. The short version is that you are getting a lot more out of the platform than a year ago. You went from 80 to 112 stores, so we process about 40% more of your data, and the forecasting module you switched on in March used to be a 25,000 add-on. Per store, the price actually went down from 1,500 to about 1,260.',
      'P: I follow the maths, but my budget is flat. I can’t sign 18%.',
      'U: Okay. Honestly, I don’t want to lose you over this, so let’s just keep last year’s price.',
      'P: Just like that? You can do that?',
      'U: I’ll have to ask my manager, but yes, I think so.',
      'P: Well, that’s easy then. What happens now?',
      'U: Great, I’ll see what I can do. Thanks for your time, Helen, talk soon.',
    ],
    bands: {
      'sales-justify': {
        min: 7,
        max: 9,
        evidence: ['about 40% more of your data', 'the price actually went down from 1,500 to about 1,260'],
      },
      'sales-objection': { min: 2, max: 4 },
      'sales-next-step': { min: 2, max: 4 },
    },
  },
  {
    scenario: SALES,
    quality: 'unusual',
    participantName: 'Nadia',
    note: 'Never says "price increase" or "next step": explains what changed (stores, bundled forecasting, named engineer, cost per store), asks what would make it feel fair, and agrees a usage report tomorrow and a Wednesday 10:00 walkthrough.',
    lines: [
      HELEN_OPENS,
      'U: Fair question: why pay more for the same thing? Except it isn’t quite the same thing any more. Three things changed on our side this year.',
      'P: Go on.',
      'U: Your estate grew from 80 to 112 stores, so there’s about 40% more data flowing through every night. The forecasting add-on your merch team turned on in March used to be a 25,000 line on its own, and now it’s bundled in. And you have a named support engineer now, which you asked for after the outage last spring. Divide the total by your stores and you’re paying roughly 1,260 each, against 1,500 last year.',
      'P: Feels like you’re squeezing us because you know switching is painful.',
      'U: I get why it feels that way, and I’d rather you stay because it’s worth it than because leaving is hard. What would you need to see to feel it’s fair?',
      'P: Proof that my people actually use the forecasting. If they don’t, I’m not paying for it.',
      'U: That’s reasonable. Your merch team logged in about 600 times last quarter, but you shouldn’t have to take my word for it. You’ll have the usage breakdown per team in your inbox tomorrow morning, and Tomás from our analytics team will walk your merch lead through it on Wednesday at ten. If the numbers don’t hold up, forecasting comes off and the price with it. Does that work?',
      'P: Yes, that’s fair. Wednesday at ten.',
      'U: Perfect, it’s in the diary.',
    ],
    bands: {
      'sales-justify': {
        min: 8,
        max: 10,
        evidence: ['about 40% more data flowing through every night', 'paying roughly 1,260 each'],
      },
      'sales-objection': {
        min: 8,
        max: 10,
        evidence: ['I get why it feels that way', 'What would you need to see to feel it’s fair?'],
      },
      'sales-next-step': {
        min: 8,
        max: 10,
        evidence: ['in your inbox tomorrow morning', 'on Wednesday at ten'],
      },
    },
  },
];

const RAVI_OPENS = 'P: Thanks for coming in. To start, tell me about a product you led from idea to launch.';
const RAVI_SAYS_NO = 'P: Tell me about a time you decided not to build something people were asking for.';
const RAVI_REPORTS =
  'P: Our sales team wants custom reports for every big client. How would you handle that?';
const RAVI_QUESTIONS = 'P: What questions do you have for me?';

const INTERVIEW_SPECS: Spec[] = [
  {
    scenario: INTERVIEW,
    quality: 'strong',
    participantName: 'Elena',
    note: 'Situation, action, result with numbers in each answer; a reasoned "no" backed by segment data; asks two sharp questions.',
    lines: [
      RAVI_OPENS,
      'U: At Tallybook I led the launch of automatic bank reconciliation. The problem was that small-business owners spent about four hours a month matching transactions by hand, and it was our top reason for churn in the first 90 days. I ran twelve customer interviews, we shipped a matching engine in two phases, and first-month churn dropped from 9% to 6% within two quarters.',
      RAVI_SAYS_NO,
      'U: We had over 200 requests for a full inventory module. I looked at who was asking: mostly retailers, who were 8% of our base and our lowest-margin segment. Building it would have taken two teams for most of a year. So I said no, explained the reasoning in a public roadmap note, and we partnered with an inventory tool through an integration instead, which took six weeks and kept those customers.',
      RAVI_REPORTS,
      'U: First I’d find out what the clients are actually trying to answer with those reports, because custom reports are usually a symptom. If five clients want the same three views, that’s a product feature; if each wants something different, a flexible export serves them better than one-off work. I’d also put a cost on it for sales: every custom report is engineering time we don’t spend on the roadmap, so we’d agree a threshold, for example only for contracts above a certain size.',
      RAVI_QUESTIONS,
      'U: Two, if I may. What’s the biggest thing the product team is getting wrong today, in your view? And how will you judge, twelve months from now, whether this hire was a success?',
      'P: Good questions. Honestly, we ship too many small things and finish too few big ones. And success would be one big bet landed and a calmer roadmap.',
      'U: That’s helpful, thank you.',
    ],
    bands: {
      'pm-structure': {
        min: 8,
        max: 10,
        evidence: ['first-month churn dropped from 9% to 6%', 'which took six weeks'],
      },
      'pm-judgement': {
        min: 8,
        max: 10,
        evidence: ['So I said no', 'custom reports are usually a symptom'],
      },
      'pm-questions': {
        min: 4,
        max: 5,
        evidence: ['What’s the biggest thing the product team is getting wrong today', 'how will you judge'],
      },
    },
  },
  {
    scenario: INTERVIEW,
    quality: 'wordy',
    participantName: 'Marcus',
    note: 'Claims to be structured, data-driven and good at trade-offs in every answer; no example, no number, no decision; one generic question about the team.',
    lines: [
      RAVI_OPENS,
      'U: Yes, absolutely. I’m a very structured person and I always back my answers with evidence. I’ve led a lot of products from idea to launch, and I always use data and customers to guide what we build. Launching products is really my passion.',
      'P: Can you give me a specific example?',
      'U: There are many examples. I’m always data-driven, I structure everything, and I make sure every launch is a success with good results.',
      RAVI_SAYS_NO,
      'U: Product judgement is one of my strengths. I’m comfortable saying no and making trade-offs. I always balance data and customer needs, and trade-offs are a key part of product judgement.',
      RAVI_REPORTS,
      'U: I would use my product judgement to make the right trade-off between sales and the roadmap. It’s important to balance the stakeholders and use data and customer feedback.',
      RAVI_QUESTIONS,
      'U: Can you tell me a bit about the team?',
      'P: Sure. There are eight product managers, each paired with an engineering team.',
      'U: Great, thanks.',
    ],
    bands: {
      'pm-structure': { min: 1, max: 3 },
      'pm-judgement': { min: 1, max: 3 },
      'pm-questions': { min: 2, max: 3 },
    },
  },
  {
    scenario: INTERVIEW,
    quality: 'minimal',
    participantName: 'Theo',
    note: 'A few words per answer, no example, would "just build" the reports, no questions.',
    lines: [
      RAVI_OPENS,
      'U: yeah I did a launch once',
      'P: Can you say more about it?',
      'U: it was an app. it went fine',
      RAVI_SAYS_NO,
      'U: dunno, can’t think of one',
      RAVI_REPORTS,
      'U: I’d probably just build them',
      RAVI_QUESTIONS,
      'U: no, I’m good',
    ],
    bands: {
      'pm-structure': { min: 1, max: 2 },
      'pm-judgement': { min: 1, max: 2 },
      'pm-questions': { min: 1, max: 1 },
    },
  },
  {
    scenario: INTERVIEW,
    quality: 'mixed',
    participantName: 'Grace',
    note: 'A well-structured launch story with numbers; then builds whatever big clients ask for and asks no questions.',
    lines: [
      RAVI_OPENS,
      'U: At my last company I led our mobile invoicing app. Our customers were tradespeople who wrote invoices on paper and typed them in at night. We interviewed thirty of them, built a first version in ten weeks, and within six months 40% of active accounts sent invoices from their phones, which cut the average time to get paid from 21 days to 12.',
      RAVI_SAYS_NO,
      'U: Honestly, I can’t remember saying no to a customer. If customers ask for something, we build it, that’s how you keep them.',
      RAVI_REPORTS,
      'U: I’d build the reports. The big clients pay the bills and sales knows them best, so whatever they ask for goes to the top of the backlog. We shipped fourteen custom reports last year that way and the clients renewed.',
      RAVI_QUESTIONS,
      'U: No, I think you’ve covered everything.',
    ],
    bands: {
      'pm-structure': {
        min: 5,
        max: 7,
        evidence: ['cut the average time to get paid from 21 days to 12'],
      },
      'pm-judgement': { min: 2, max: 4 },
      'pm-questions': { min: 1, max: 1 },
    },
  },
  {
    scenario: INTERVIEW,
    quality: 'unusual',
    participantName: 'Sofia',
    note: 'Tells stories without "first/then" scaffolding but with a clear arc and numbers; shows judgement by digging under a request; asks her questions as "I’m curious…" and "I’d love to hear…".',
    lines: [
      RAVI_OPENS,
      'U: Honestly, the one I’m proudest of is a week we spent deleting things. Our sign-up flow had eleven screens and only a third of the people who started it got to the end. I sat with support for two days, listened to recordings of people giving up, and we cut it to four screens. Completion went from 33% to 61% in a month, and nobody missed the screens we removed.',
      RAVI_SAYS_NO,
      'U: Our biggest customer asked us three times for a white-label version. It would have meant maintaining two products with a team of six. I went to their office, learned that what they really wanted was their logo on invoices, and we shipped that in a sprint. They renewed, and we never built the white-label thing.',
      RAVI_REPORTS,
      'U: My first move would be to sit down with sales and put the last ten requests side by side. My hunch is most of them ask the same few questions in different clothes. The common ones become part of the product, the odd ones get an export to a spreadsheet, and sales gets a clear rule for which is which, so nobody is surprised.',
      RAVI_QUESTIONS,
      'U: I’m curious what keeps you up at night about the roadmap. And I’d love to hear how you’ll know, a year from now, that bringing me on was the right call.',
      'P: The roadmap is too crowded, and a year from now I’d want fewer, bigger launches.',
      'U: That’s really helpful, thank you.',
    ],
    bands: {
      'pm-structure': {
        min: 7,
        max: 9,
        evidence: ['Completion went from 33% to 61% in a month', 'we shipped that in a sprint'],
      },
      'pm-judgement': {
        min: 8,
        max: 10,
        evidence: ['what they really wanted was their logo on invoices', 'sales gets a clear rule'],
      },
      'pm-questions': {
        min: 4,
        max: 5,
        evidence: ['what keeps you up at night about the roadmap', 'I’d love to hear how you’ll know'],
      },
    },
  },
];

const DANA_OPENS =
  'P: Hi, I’m Dana. You said you need to give Marco some difficult feedback this week. What’s going on, and what exactly do you want him to hear?';
const DANA_REHEARSE = 'P: Let’s rehearse it. I’ll be Marco. "Hey, you wanted to see me?"';
const MARCO_PUSHES =
  'P: Look, I’m just holding the bar high. Somebody has to. If people can’t take a blunt review, that’s not my problem.';
const MARCO_WHAT_NOW = 'P: Fine. So what do you actually want me to do differently?';
const DANA_DEBRIEF =
  'P: Okay, stepping out of the role. How do you think that went, and what will you do after the conversation?';

const COACHING_SPECS: Spec[] = [
  {
    scenario: COACHING,
    quality: 'strong',
    participantName: 'Hannah',
    note: 'Quotes the comments and the four-day reviews, names the slipped release; acknowledges Marco’s care for quality and asks for his side; agrees one-day reviews, takes on-call off him and books Friday the 14th.',
    lines: [
      DANA_OPENS,
      'U: Marco is our most experienced engineer, but his code reviews are hurting the team. In the last two weeks he left comments like "this is amateur" on three of Aisha’s pull requests, and his reviews take four days on average. Aisha has stopped asking him for reviews, and our release slipped by a week.',
      DANA_REHEARSE,
      'U: Thanks for making time, Marco. I want to talk about code reviews, because it matters for you and for the team. On Aisha’s last three pull requests your comments included "this is amateur" and "did you even test this", and the reviews took about four days each. Since then Aisha has stopped asking you to review, and the payments release slipped a week waiting on reviews.',
      MARCO_PUSHES,
      'U: I hear you, and I know you care about quality, honestly more than anyone here. It’s probably frustrating to be told this when you’re the one catching the bugs. I’m not asking you to lower the bar. What’s going on for you with reviews right now?',
      'P: Honestly? I’ve got too much on my plate. Reviews pile up and I rush them.',
      'U: That makes sense, and it’s useful to know. Let’s look at your load together.',
      MARCO_WHAT_NOW,
      'U: Two things. Reviews come back within one working day, and comments are about the code, not the person. I’ll take the on-call rota off you this sprint so you have the time. Let’s meet on Friday the 14th, look at a few of your reviews together, and see how it’s going.',
      DANA_DEBRIEF,
      'U: Better than I expected. Straight after, I’ll write the agreement down in a short message to him so we both have it, and I’ll put the Friday check-in in both our calendars.',
    ],
    bands: {
      'coach-behaviour': {
        min: 8,
        max: 10,
        evidence: ['your comments included "this is amateur"', 'the payments release slipped a week'],
      },
      'coach-empathy': {
        min: 8,
        max: 10,
        evidence: [
          'It’s probably frustrating to be told this',
          'What’s going on for you with reviews right now?',
        ],
      },
      'coach-plan': {
        min: 9,
        max: 10,
        evidence: ['Reviews come back within one working day', 'Let’s meet on Friday the 14th'],
      },
    },
  },
  {
    scenario: COACHING,
    quality: 'wordy',
    participantName: 'Owen',
    note: 'Repeats "behaviour", "impact", "empathy" and "follow-up plan" without naming a single behaviour, acknowledging anything or agreeing anything.',
    lines: [
      DANA_OPENS,
      'U: I need to give Marco feedback on his behaviour and its impact. The behaviour is not great and the impact on the team is significant. I want to name the specific behaviour and the impact.',
      DANA_REHEARSE,
      'U: Marco, I want to talk about your behaviour and its impact on the team. The specific behaviour is the way you behave, and the impact is that it affects everyone.',
      MARCO_PUSHES,
      'U: I empathise with you, Marco. Empathy is very important to me, and I want to show empathy. But the behaviour has to change.',
      MARCO_WHAT_NOW,
      'U: We’ll agree a follow-up plan. The follow-up plan is important, and we will follow up on it at some point.',
      DANA_DEBRIEF,
      'U: I think it went well. I showed empathy and named the behaviour and the impact. We have a follow-up plan.',
    ],
    bands: {
      'coach-behaviour': { min: 1, max: 3 },
      'coach-empathy': { min: 1, max: 3 },
      'coach-plan': { min: 1, max: 3 },
    },
  },
  {
    scenario: COACHING,
    quality: 'minimal',
    participantName: 'Ben',
    note: '"he’s just rude", "you’re rude, stop it", "just be nicer", no plan.',
    lines: [
      DANA_OPENS,
      'U: he’s just rude',
      'P: What does rude look like? Give me an example.',
      'U: dunno. rude',
      DANA_REHEARSE,
      'U: yeah. you’re rude, stop it',
      'P: What? What are you talking about?',
      'U: just be nicer',
      DANA_DEBRIEF,
      'U: nothing. ok',
    ],
    bands: {
      'coach-behaviour': { min: 1, max: 2 },
      'coach-empathy': { min: 1, max: 2 },
      'coach-plan': { min: 1, max: 2 },
    },
  },
  {
    scenario: COACHING,
    quality: 'mixed',
    participantName: 'Luis',
    note: 'Names the comments, the four-day reviews and the slipped release precisely; dismisses Marco ("that’s not the point, just fix it"); "I expect better from now on" is the only plan.',
    lines: [
      DANA_OPENS,
      'U: Marco’s reviews. On Aisha’s last three pull requests he wrote "this is amateur" and "did you even test this", and each review took about four days. Aisha has stopped asking him, and the payments release slipped a week.',
      DANA_REHEARSE,
      'U: Marco, on Aisha’s last three pull requests you wrote "this is amateur" and "did you even test this", and each review took about four days. Aisha has stopped asking you for reviews, and the payments release slipped a week because of it.',
      MARCO_PUSHES,
      'U: That’s not the point. The bar isn’t the issue, the comments are. Just fix it.',
      MARCO_WHAT_NOW,
      'U: I expect better from now on. Be more professional.',
      DANA_DEBRIEF,
      'U: Fine, I think. He knows where I stand. We’ll see if things improve.',
    ],
    bands: {
      'coach-behaviour': {
        min: 7,
        max: 9,
        evidence: ['you wrote "this is amateur"', 'the payments release slipped a week'],
      },
      'coach-empathy': { min: 1, max: 3 },
      'coach-plan': { min: 2, max: 4 },
    },
  },
  {
    scenario: COACHING,
    quality: 'unusual',
    participantName: 'Mia',
    note: 'Cites Tuesday’s comment in the team channel and its effect on Aisha; "that sounds really frustrating, I’m sorry"; asks for his side; "how about this: …" with same-day reviews, a second reviewer and a review on the 30th.',
    lines: [
      DANA_OPENS,
      'U: Marco’s reviews. On Tuesday he wrote "did you even test this?" on Aisha’s PR, in the team channel where everyone could see it, and she told me afterwards she’s now nervous to open PRs at all. It’s been like this for a few weeks, and the payments work is stuck behind his reviews.',
      DANA_REHEARSE,
      'U: Marco, got a minute? Something on Tuesday stuck with me. On Aisha’s PR you wrote "did you even test this?" in the team channel. Aisha came to me afterwards, she’s nervous about opening PRs now, and the payments work is sitting in review.',
      MARCO_PUSHES,
      'U: That sounds really frustrating, and I’m sorry if this feels like an attack, because that’s not how I mean it. You’re the person who keeps our quality up. Help me see it from your side: what’s making reviews so heavy at the moment?',
      'P: Honestly? I’m drowning. I review everything because nobody else does it properly.',
      'U: Okay, that’s on me to fix as much as on you.',
      MARCO_WHAT_NOW,
      'U: How about this: for the next month you get reviews back the same day, comments stick to the code, and Jonas shares the review load with you. On the 30th we sit down, go through a handful of reviews, and decide if it’s working.',
      DANA_DEBRIEF,
      'U: Better than I feared. This afternoon I’m writing up what we agreed in a message to him, and the 30th goes in the calendar before I forget.',
    ],
    bands: {
      'coach-behaviour': {
        min: 8,
        max: 10,
        evidence: [
          'On Aisha’s PR you wrote "did you even test this?"',
          'she’s nervous about opening PRs now',
        ],
      },
      'coach-empathy': {
        min: 8,
        max: 10,
        evidence: ['That sounds really frustrating', 'Help me see it from your side'],
      },
      'coach-plan': {
        min: 8,
        max: 10,
        evidence: ['you get reviews back the same day', 'On the 30th we sit down'],
      },
    },
  },
];

const LEO_OPENS =
  'P: Hey! So, launch is six weeks out and we have about eight thousand euros for it. Where do you want to start?';
const LEO_AMBASSADORS = 'P: What about campus ambassadors? We tried that at my last startup.';

const BRAINSTORM_SPECS: Spec[] = [
  {
    scenario: BRAINSTORM,
    quality: 'strong',
    participantName: 'Noor',
    note: 'Six distinct ideas (move-in stand, two-sided referral, student video series, union partnership, bank sponsor, hall challenge); turns Leo’s ambassadors into pay-per-active-student and his bank idea into a sponsored stand; picks ambassadors plus the stand at two campuses with a 500-active target and owners.',
    lines: [
      LEO_OPENS,
      'U: Let’s go wide first and judge later. Where do students actually feel money pain in the first weeks of term?',
      'P: Move-in week, definitely. They buy everything at once, and then rent hits.',
      'U: Then a few ideas around that moment. One: a move-in week stand with a first-month budget checklist and a QR code to the app. Two: a referral where both students get a month of premium. Three: a short video series with second-year students showing what they actually spent in their first month. Four: partner with the student union so the app is in their welcome email.',
      LEO_AMBASSADORS,
      'U: Yes, and let’s make it smarter than usual: pay ambassadors per student who is still budgeting after two weeks, not per download, so they bring people who actually use it. They could also run the move-in stand, which ties two ideas together.',
      'P: I like that. And banks sponsor freshers’ fairs, maybe one would co-fund something?',
      'U: Good thought. Building on that, a local bank could sponsor the stand in exchange for a compare-your-student-account feature. One more: a budgeting challenge between halls of residence, with a pizza party for the hall that saves most.',
      'P: That’s a lot. Where do we start?',
      'U: Let’s pick the ambassadors plus the move-in stand, because it’s cheap and we can measure it. Two campuses, the first three weeks of term. Success is 500 students still active after two weeks. I’ll write the ambassador brief by Friday, and could you reach out to the two student unions this week?',
      'P: Deal.',
    ],
    bands: {
      'bs-range': {
        min: 8,
        max: 10,
        evidence: ['a move-in week stand', 'a referral where both students get a month of premium'],
      },
      'bs-build': {
        min: 8,
        max: 10,
        evidence: [
          'pay ambassadors per student who is still budgeting after two weeks',
          'a local bank could sponsor the stand',
        ],
      },
      'bs-converge': {
        min: 8,
        max: 10,
        evidence: [
          'Let’s pick the ambassadors plus the move-in stand',
          'Success is 500 students still active after two weeks',
        ],
      },
    },
  },
  {
    scenario: BRAINSTORM,
    quality: 'wordy',
    participantName: 'Jake',
    note: 'Talks about "a range of launch ideas", "building on ideas" and "the first experiment"; the only idea is "social media"; no decision.',
    lines: [
      LEO_OPENS,
      'U: So, we need a range of launch ideas. Launch ideas are really important for a launch, and I want to generate lots of ideas today.',
      'P: Sure, what have you got?',
      'U: I think social media is a great launch idea. We should generate more ideas like that, a real range of ideas.',
      LEO_AMBASSADORS,
      'U: Great, I love building on your ideas. Building on ideas is how brainstorming works, so let’s keep building.',
      'P: So where should we start?',
      'U: Our first experiment should be measured properly, and we’ll converge on a first experiment once we’ve had more ideas. Let’s keep the first experiment in mind.',
      'P: Okay, so no decision today?',
      'U: Not yet, but it was a great brainstorm.',
    ],
    bands: {
      'bs-range': { min: 1, max: 3 },
      'bs-build': { min: 1, max: 2 },
      'bs-converge': { min: 1, max: 2 },
    },
  },
  {
    scenario: BRAINSTORM,
    quality: 'minimal',
    participantName: 'Kim',
    note: '"social media?", "dunno", "whatever you think".',
    lines: [
      LEO_OPENS,
      'U: hi',
      'P: So, where do you want to start?',
      'U: social media?',
      'P: Sure, anything more specific? Instagram, TikTok, something on campus?',
      'U: dunno',
      LEO_AMBASSADORS,
      'U: ok',
      'P: So what should we do first?',
      'U: whatever you think',
    ],
    bands: {
      'bs-range': { min: 1, max: 2 },
      'bs-build': { min: 1, max: 2 },
      'bs-converge': { min: 1, max: 2 },
    },
  },
  {
    scenario: BRAINSTORM,
    quality: 'mixed',
    participantName: 'Dev',
    note: 'Six concrete ideas at once, then shoots down both of Leo’s ideas and refuses to pick one.',
    lines: [
      LEO_OPENS,
      'U: Let me throw out a bunch. A move-in week stand with a budget checklist. Referral credits for both sides. A TikTok series with real student spending. A student union partnership. A savings challenge between halls. And a discount wall with local cafés that only works through the app.',
      'P: Nice. What about campus ambassadors? We tried that at my last startup.',
      'U: Nah, ambassadors never work, they just spam group chats.',
      'P: Oh. Well, a bank might sponsor something, maybe at the freshers’ fair?',
      'U: Banks are boring, students hate them. Anyway, the discount wall is my favourite.',
      'P: So which one do we try first?',
      'U: Let’s keep thinking, there are lots of good options. We can decide later.',
    ],
    bands: {
      'bs-range': {
        min: 8,
        max: 10,
        evidence: ['A move-in week stand with a budget checklist', 'a discount wall with local cafés'],
      },
      'bs-build': { min: 1, max: 3 },
      'bs-converge': { min: 1, max: 2 },
    },
  },
  {
    scenario: BRAINSTORM,
    quality: 'unusual',
    participantName: 'Zoe',
    note: 'Ideas as "what if" and "how about" (ramen stunt, flat budgets with a referral, weekly spending video); "ooh, and…" on Leo’s ambassadors; "ramen night it is" with two campuses, a 300 sign-up target, owners and a review date.',
    lines: [
      LEO_OPENS,
      'U: What if we show up at move-in week with free instant ramen and a sticker that says "this cost 40 cents, do you know where the rest of your money goes?" with a QR code to the app?',
      'P: Ha, I love that. What else?',
      'U: How about a shared budget for flatmates, so a kitchen can split groceries in the app, and whoever invites their flat gets a month free? Or a short weekly what-I-spent video from a real second-year student.',
      'P: Campus ambassadors could hand out the ramen.',
      'U: Ooh, and if the ambassadors live in the halls themselves, they could set up the first shared kitchen budgets on the spot instead of just handing out noodles.',
      'P: So which do we go with?',
      'U: Ramen night it is, with the ambassadors doing the kitchen setup. Two campuses, week one of term, and we count sign-ups through the QR code, aiming for 300. I’ll sort the ramen and the printing, you talk to the student unions, and we look at the numbers together on the Monday after.',
      'P: Perfect.',
    ],
    bands: {
      'bs-range': {
        min: 6,
        max: 8,
        evidence: [
          'free instant ramen',
          'a shared budget for flatmates',
          'a short weekly what-I-spent video',
        ],
      },
      'bs-build': {
        min: 8,
        max: 10,
        evidence: ['they could set up the first shared kitchen budgets on the spot'],
      },
      'bs-converge': {
        min: 8,
        max: 10,
        evidence: ['Ramen night it is', 'aiming for 300'],
      },
    },
  },
];

const GLORIA_OPENS =
  'P: Hi, yes, I got a bill for four hundred and eighty dollars for a visit my insurance is supposed to cover, and I’m really upset. This is the second time this has happened.';

const PATIENT_SPECS: Spec[] = [
  {
    scenario: PATIENT,
    quality: 'strong',
    participantName: 'Jamal',
    note: 'Apologises and acknowledges the stress; asks date, doctor, plan and member ID and reads them back; removes the charge, resubmits the claim, email within 5 days, direct extension.',
    lines: [
      GLORIA_OPENS,
      'U: I’m so sorry, Gloria, getting a bill like that is stressful, and twice is really not okay. I’m going to sort this out with you right now. Can I ask you a few questions so I can find the charge?',
      'P: Fine.',
      'U: What was the date of the visit?',
      'P: March 3rd.',
      'U: And which doctor did you see that day?',
      'P: Doctor Chen, at the Elm Street clinic.',
      'U: Thank you. Which insurance plan are you on, and what’s the member ID on your card?',
      'P: BlueShield PPO, member ID B-2290-4471.',
      'U: Let me read that back: March 3rd, Doctor Chen at Elm Street, BlueShield PPO, member ID B-2290-4471. Is that right?',
      'P: Yes.',
      'U: Thanks. I can see what happened: the claim went out without your insurance attached. I’ve removed the $480 charge from your account and resubmitted the claim to BlueShield today. You’ll get an email confirming the zero balance within 5 days, and you won’t owe anything while the claim is processed. If anything looks wrong, call me directly, I’m Jamal on extension 214.',
      'P: Okay. Thank you, that’s a relief.',
      'U: You’re welcome, and again, I’m sorry you had to deal with this twice.',
    ],
    bands: {
      'pt-empathy': {
        min: 8,
        max: 10,
        evidence: ['getting a bill like that is stressful', 'I’m sorry you had to deal with this twice'],
      },
      'pt-details': {
        min: 9,
        max: 10,
        evidence: [
          'What was the date of the visit?',
          'which doctor did you see',
          'what’s the member ID on your card?',
        ],
      },
      'pt-resolution': {
        min: 9,
        max: 10,
        evidence: ['I’ve removed the $480 charge from your account', 'within 5 days'],
      },
    },
  },
  {
    scenario: PATIENT,
    quality: 'wordy',
    participantName: 'Kevin',
    note: 'Says "empathy", "I hear you" and "clear resolution"; collects nothing and sends the patient back to her insurer.',
    lines: [
      GLORIA_OPENS,
      'U: I understand you’re upset, and empathy is very important to us here. I hear you.',
      'P: Then why does this keep happening?',
      'U: Billing errors do happen, unfortunately. We want to give you a clear resolution, and the resolution is important to us.',
      'P: So are you going to fix it?',
      'U: We’ll look into a resolution. For the details you’ll need to call your insurance company, since they handle the details of your plan.',
      'P: I already called them, they told me to call you!',
      'U: I understand your frustration. A clear resolution is what we all want. Is there anything else I can help with today?',
      'P: Unbelievable.',
    ],
    bands: {
      'pt-empathy': { min: 2, max: 4 },
      'pt-details': { min: 1, max: 2 },
      'pt-resolution': { min: 1, max: 2 },
    },
  },
  {
    scenario: PATIENT,
    quality: 'minimal',
    participantName: 'Lily',
    note: '"ok", asks only the account number, "dunno, call insurance".',
    lines: [
      GLORIA_OPENS,
      'U: ok',
      'P: Okay? Can you help me?',
      'U: whats the account number',
      'P: It’s 55120.',
      'U: ok. it says 480',
      'P: I know it says 480, that’s the problem!',
      'U: dunno, call insurance',
    ],
    bands: {
      'pt-empathy': { min: 1, max: 2 },
      'pt-details': { min: 1, max: 3 },
      'pt-resolution': { min: 1, max: 2 },
    },
  },
  {
    scenario: PATIENT,
    quality: 'mixed',
    participantName: 'Rosa',
    note: 'Warm and sincere throughout; collects no detail and ends with "someone will get back to you, soon I hope".',
    lines: [
      GLORIA_OPENS,
      'U: Oh no, I’m so sorry, Gloria. That must have been such a shock to open, and twice! I completely understand why you’re upset, I would be too.',
      'P: I just want it fixed.',
      'U: Of course you do, and you deserve that. Bills are so stressful, especially when you’ve done everything right.',
      'P: So what happens now?',
      'U: I’ll pass this on to the billing team and someone will get back to you.',
      'P: When? And do you need anything from me?',
      'U: Soon, I hope. Please don’t worry, it will get sorted.',
    ],
    bands: {
      'pt-empathy': {
        min: 8,
        max: 10,
        evidence: ['That must have been such a shock to open', 'I completely understand why you’re upset'],
      },
      'pt-details': { min: 1, max: 2 },
      'pt-resolution': { min: 2, max: 4 },
    },
  },
  {
    scenario: PATIENT,
    quality: 'unusual',
    participantName: 'Ade',
    note: 'Speech-recognition style (no question marks): "that sounds really frustrating, I’m sorry"; "and the day you came in", "and who did you see that day", "the insurance you have and the number on the card"; "let me take that charge off for you right now", a letter in about a week.',
    lines: [
      GLORIA_OPENS,
      'U: oh gosh, that sounds really frustrating, I’m sorry. let’s get it fixed',
      'P: Thank you.',
      'U: and the day you came in',
      'P: March 3rd.',
      'U: and who did you see that day',
      'P: Doctor Chen at Elm Street.',
      'U: ok and the insurance you have and the number on the card',
      'P: BlueShield PPO, B-2290-4471.',
      'U: perfect, I see it. your insurance wasn’t attached to the claim. let me take that charge off for you right now. done, your balance shows zero. I’ve sent the claim to BlueShield, and you’ll get a letter in about a week confirming it',
      'P: Oh wow, thank you.',
      'U: of course, sorry again for the hassle',
    ],
    bands: {
      'pt-empathy': {
        min: 7,
        max: 9,
        evidence: ['that sounds really frustrating, I’m sorry'],
      },
      'pt-details': {
        min: 8,
        max: 10,
        evidence: ['and the day you came in', 'and who did you see that day', 'the number on the card'],
      },
      'pt-resolution': {
        min: 8,
        max: 10,
        evidence: ['let me take that charge off for you right now', 'a letter in about a week'],
      },
    },
  },
];

const TOM_OPENS =
  'P: I’ve been escalated to you because your support closed my ticket twice without fixing anything. Our orders haven’t synced for three days. Give me one reason not to cancel.';

const SUPPORT_SPECS: Spec[] = [
  {
    scenario: SUPPORT,
    quality: 'strong',
    participantName: 'Claire',
    note: 'Acknowledges the impact and the two closed tickets as "on us"; asks about the impact; dedicated engineer, a P1 under her name, a 2pm call, an update by 5pm and a single contact.',
    lines: [
      TOM_OPENS,
      'U: Tom, three days without orders syncing is serious, and having two tickets closed on you without a fix is on us. I’m sorry. I’ve read both tickets, so you don’t need to repeat yourself. What’s the impact on your side right now?',
      'P: About 1,200 orders are stuck. My warehouse team is keying them in by hand.',
      'U: That’s a lot of manual work, and it shouldn’t be landing on your team. Here’s what I’ve done: our integration engineer, Lena, is on this as her only task from now on, and I’ve reopened it as a priority one incident under my name.',
      'P: I’ve heard promises before.',
      'U: Fair enough, you have no reason to trust us yet. So here’s exactly what happens next. Lena will join a call with your admin at 2pm today to look at the failing jobs. I’ll send you an update by 5pm today, fixed or not, and I’ll stay your single point of contact until it’s resolved. Does 2pm work for your admin?',
      'P: Yes, send the invite to Martin.',
      'U: I’ll send it to Martin within ten minutes.',
    ],
    bands: {
      'sup-deescalate': {
        min: 8,
        max: 10,
        evidence: ['three days without orders syncing is serious', 'you have no reason to trust us yet'],
      },
      'sup-ownership': {
        min: 8,
        max: 10,
        evidence: ['having two tickets closed on you without a fix is on us', 'under my name'],
      },
      'sup-expectations': {
        min: 4,
        max: 5,
        evidence: [
          'Lena will join a call with your admin at 2pm today',
          'I’ll send you an update by 5pm today',
        ],
      },
    },
  },
  {
    scenario: SUPPORT,
    quality: 'wordy',
    participantName: 'Greg',
    note: 'Says "de-escalate", "I take ownership" and "follow-up expectations"; blames the previous agent and the customer’s configuration; "we’ll follow up, as soon as possible".',
    lines: [
      TOM_OPENS,
      'U: Hi Tom, I want to de-escalate this. I understand you’re escalating, and I take ownership of the problem. Owning problems is one of our company values.',
      'P: Then why was my ticket closed twice?',
      'U: Unfortunately that was the previous agent, not me. And looking at the logs, the integration may be misconfigured on your side.',
      'P: It worked fine for two years!',
      'U: I hear you. Regarding follow-up expectations, we’ll follow up with you. Expectations are important.',
      'P: When?',
      'U: As soon as possible. We’ll be in touch.',
    ],
    bands: {
      'sup-deescalate': { min: 1, max: 3 },
      'sup-ownership': { min: 1, max: 2 },
      'sup-expectations': { min: 1, max: 2 },
    },
  },
  {
    scenario: SUPPORT,
    quality: 'minimal',
    participantName: 'Jo',
    note: '"ok", "I can reopen the ticket", "dunno, someone will look".',
    lines: [
      TOM_OPENS,
      'U: ok',
      'P: Ok? That’s it?',
      'U: I can reopen the ticket',
      'P: Reopen it and then what?',
      'U: dunno. someone will look',
      'P: This is ridiculous.',
      'U: ok',
    ],
    bands: {
      'sup-deescalate': { min: 1, max: 2 },
      'sup-ownership': { min: 1, max: 3 },
      'sup-expectations': { min: 1, max: 2 },
    },
  },
  {
    scenario: SUPPORT,
    quality: 'mixed',
    participantName: 'Victor',
    note: 'Cold and argumentative (blames the customer’s firewall and "process"), but sets a precise plan: an engineer full time, a 2pm call, an update by 5pm.',
    lines: [
      TOM_OPENS,
      'U: The logs show the sync calls have been rejected by your firewall since Monday.',
      'P: We haven’t changed our firewall.',
      'U: Well, that’s what the logs say. Anyway, I’ve assigned an integration engineer, Lena, full time. She’ll call your admin at 2pm today, and I’ll email you an update by 5pm.',
      'P: And the two closed tickets?',
      'U: Those were closed according to process, because there was no reply within 48 hours.',
    ],
    bands: {
      'sup-deescalate': { min: 2, max: 4 },
      'sup-ownership': { min: 2, max: 4 },
      'sup-expectations': {
        min: 4,
        max: 5,
        evidence: ['She’ll call your admin at 2pm today', 'I’ll email you an update by 5pm'],
      },
    },
  },
  {
    scenario: SUPPORT,
    quality: 'unusual',
    participantName: 'Ines',
    note: '"Ugh, three days. I’d be furious too. That one’s on us, full stop"; "nobody closes this until you say it’s fixed"; Lena calls around two, "you’ll hear from me before you leave the office today".',
    lines: [
      TOM_OPENS,
      'U: Ugh, three days. I’d be furious too. That one’s on us, full stop, and closing it twice without a fix makes it worse.',
      'P: At least you’re not arguing. What are you going to do?',
      'U: Nobody closes this until you say it’s fixed. Lena, our best integration engineer, is dropping everything else for it.',
      'P: When does she start?',
      'U: She’s already pulling your logs. Expect her call around two, and my phone’s on for you all evening. Whatever happens, you’ll hear from me before you leave the office today.',
      'P: Alright. I’ll hold you to that.',
      'U: Please do.',
    ],
    bands: {
      'sup-deescalate': {
        min: 8,
        max: 10,
        evidence: ['I’d be furious too'],
      },
      'sup-ownership': {
        min: 8,
        max: 10,
        evidence: ['That one’s on us, full stop', 'Nobody closes this until you say it’s fixed'],
      },
      'sup-expectations': {
        min: 4,
        max: 5,
        evidence: ['Expect her call around two', 'you’ll hear from me before you leave the office today'],
      },
    },
  },
];

const AMARA_OPENS =
  'P: Hello, I’m Amara, I manage the four Stride Physio clinics. I was told you would help us figure out what we need for online booking.';

const DISCOVERY_SPECS: Spec[] = [
  {
    scenario: DISCOVERY,
    quality: 'strong',
    participantName: 'Ethan',
    note: 'Open questions on booking, cancellations, users and systems; asks budget and timeline; plays everything back and checks; promises a write-up by Friday.',
    lines: [
      AMARA_OPENS,
      'U: Thanks, Amara. To start, how do patients book an appointment with you today?',
      'P: Almost everything is by phone. Our receptionists spend about three hours a day on booking calls, and we miss calls at peak times.',
      'U: What happens when a patient needs to cancel or move an appointment?',
      'P: They call, and if they can’t get through they just don’t show up. About 15% of appointments are no-shows, which is a lot of lost income.',
      'U: Who else besides the receptionists would use a booking tool, and what would each of them need from it?',
      'P: The physios want to see their day on their phone, and I need a weekly report of no-shows per clinic.',
      'U: Tell me about the systems it would need to work with.',
      'P: All our patient records are in Cliniko. Whatever we get has to sync with it, we’re not double entering.',
      'U: What budget and timeline are you working with?',
      'P: We have about thirty thousand euros, and it needs to be live by January, when the new clinic opens.',
      'U: Let me check I’ve got this right. Booking is almost all by phone, which costs your receptionists about three hours a day and leads to 15% no-shows. Physios need their day on their phone, you need weekly no-show reports per clinic, it must sync with Cliniko, the budget is around thirty thousand euros, and it has to be live by January. Did I miss anything?',
      'P: That’s it exactly. Maybe text reminders.',
      'U: Noted, text reminders. I’ll write this up and send it to you by Friday.',
    ],
    bands: {
      'disc-open': {
        min: 8,
        max: 10,
        evidence: [
          'how do patients book an appointment with you today?',
          'What happens when a patient needs to cancel',
        ],
      },
      'disc-playback': {
        min: 8,
        max: 10,
        evidence: ['Let me check I’ve got this right', 'Did I miss anything?'],
      },
      'disc-constraints': {
        min: 9,
        max: 10,
        evidence: [
          'Tell me about the systems it would need to work with',
          'What budget and timeline are you working with?',
        ],
      },
    },
  },
  {
    scenario: DISCOVERY,
    quality: 'wordy',
    participantName: 'Liam',
    note: 'Pitches an app with leading questions; his "playback" is "you need booking"; asks only the budget, as a closed question.',
    lines: [
      AMARA_OPENS,
      'U: So you want online booking, right? An app would solve everything, and we’ve built a great booking app for other clinics.',
      'P: Maybe. I’m not sure what we need yet.',
      'U: Wouldn’t it be easier if patients could just book online?',
      'P: I suppose so.',
      'U: I’d like to play back what I heard: you need booking. And constraints are important, we’ll capture constraints. Do you have a budget?',
      'P: Around thirty thousand euros.',
      'U: Great, that’s a constraint captured. Our app fits that. I’ll send you a demo link.',
    ],
    bands: {
      // The rubric puts closed or leading questions at 1-4; one closed question did draw out the budget.
      'disc-open': { min: 1, max: 4 },
      'disc-playback': { min: 1, max: 2 },
      'disc-constraints': { min: 3, max: 5 },
    },
  },
  {
    scenario: DISCOVERY,
    quality: 'minimal',
    participantName: 'Nina',
    note: '"hi", "so you want an app?", "ok cool".',
    lines: [
      AMARA_OPENS,
      'U: hi',
      'P: Hello. Where would you like to start?',
      'U: so you want an app?',
      'P: Well, we want patients to be able to book online. Is that what you mean?',
      'U: ok cool',
      'P: Do you have any questions about how we work?',
      'U: no. thanks',
    ],
    bands: {
      'disc-open': { min: 1, max: 2 },
      'disc-playback': { min: 1, max: 2 },
      'disc-constraints': { min: 1, max: 2 },
    },
  },
  {
    scenario: DISCOVERY,
    quality: 'mixed',
    participantName: 'Omar',
    note: 'Excellent open questions on the process and the pain; never plays anything back and never asks about budget, deadline or systems.',
    lines: [
      AMARA_OPENS,
      'U: Thanks, Amara. How do patients book an appointment with you today?',
      'P: Almost everything is by phone. Our receptionists spend about three hours a day on booking calls, and we miss calls at peak times.',
      'U: What’s the hardest part of a Monday morning at reception?',
      'P: The phones ring nonstop from eight, people wait on hold, and the receptionists can’t greet the patients standing in front of them.',
      'U: What happens when a patient needs to cancel or move an appointment?',
      'P: They call, and if they can’t get through they just don’t show up. About 15% of appointments are no-shows.',
      'U: How do the physios find out about changes to their day?',
      'P: A printed list in the morning, and someone runs in to tell them when it changes.',
      'U: Great, thanks, that’s really useful. I’ll go away and think about it.',
    ],
    bands: {
      'disc-open': {
        min: 8,
        max: 10,
        evidence: [
          'What’s the hardest part of a Monday morning at reception?',
          'How do the physios find out about changes to their day?',
        ],
      },
      'disc-playback': { min: 1, max: 2 },
      'disc-constraints': { min: 1, max: 2 },
    },
  },
  {
    scenario: DISCOVERY,
    quality: 'unusual',
    participantName: 'Hana',
    note: 'Speech-recognition style: "walk me through a monday morning", "say more about the no-shows", "anything this would have to plug into", "I’m curious what you’ve set aside"; plays back "in my own words" and asks what she missed.',
    lines: [
      AMARA_OPENS,
      'U: walk me through a monday morning at your front desk',
      'P: The phones ring nonstop from eight. Our receptionists spend about three hours a day on booking calls, and we still miss some.',
      'U: and when someone needs to cancel, what happens then',
      'P: If they can’t get through they just don’t come. About 15% of appointments are no-shows.',
      'U: say more about the no-shows',
      'P: They cost us about four thousand euros a month across the clinics, and the physios sit idle.',
      'U: anything this would have to plug into on your side',
      'P: Our patient records are all in Cliniko, so it must sync with that.',
      'U: I’m curious what you’ve set aside for this, and when it needs to be running',
      'P: About thirty thousand euros, and it has to be running in January.',
      'U: okay so if I put it in my own words: your front desk is drowning in booking calls, people who can’t get through don’t show up, and that costs you about four thousand a month. whatever we build has to live inside Cliniko, cost no more than thirty thousand, and be running in January. anything I’ve missed',
      'P: No, that’s it.',
      'U: great. you’ll have a written summary from me on friday',
    ],
    bands: {
      'disc-open': {
        min: 8,
        max: 10,
        evidence: ['walk me through a monday morning at your front desk', 'say more about the no-shows'],
      },
      'disc-playback': {
        min: 8,
        max: 10,
        evidence: ['okay so if I put it in my own words'],
      },
      'disc-constraints': {
        min: 9,
        max: 10,
        evidence: [
          'anything this would have to plug into on your side',
          'I’m curious what you’ve set aside for this',
        ],
      },
    },
  },
];

const KAREN_OPENS =
  'P: Thanks for taking the call. We’re excited to make you an offer: 128,000 base, standard benefits, starting February 1st. How does that sound?';

const NEGOTIATION_SPECS: Spec[] = [
  {
    scenario: NEGOTIATION,
    quality: 'strong',
    participantName: 'Priya',
    note: 'Asks for 145 with market data and a competing offer; explores bonus, equity, learning budget and start date; closes on 138 + 10k bonus + budget + March start, letter by Wednesday, signature by Friday.',
    lines: [
      KAREN_OPENS,
      'U: Thank you, Karen, I’m really excited about the team. Before I say yes, I’d like to talk about the base. For senior data engineers in Austin the market data I’ve seen is 140 to 150, and I have another offer at 145. Given that I’d be leading the warehouse migration you described, I’m looking for 145.',
      'P: I understand. Our band for this level tops out at 138, and I can’t go above it.',
      'U: That’s helpful to know. What flexibility do you have outside the base, for example a signing bonus, equity, or the learning budget?',
      'P: I could do a signing bonus of 10,000, and the learning budget is 2,000 a year.',
      'U: And is the start date flexible? I’d like to start on March 1st so I can finish my current project properly.',
      'P: March 1st is fine.',
      'U: Then here’s what would work for me: 138 base, a 10,000 signing bonus, the 2,000 learning budget, and a March 1st start. If you can send the revised offer letter by Wednesday, I’ll sign it by Friday.',
      'P: Deal. I’ll send it on Wednesday.',
      'U: Wonderful, thank you, Karen.',
    ],
    bands: {
      'neg-anchor': {
        min: 8,
        max: 10,
        evidence: ['the market data I’ve seen is 140 to 150', 'I’m looking for 145'],
      },
      'neg-interests': {
        min: 8,
        max: 10,
        evidence: ['What flexibility do you have outside the base', 'is the start date flexible?'],
      },
      'neg-close': {
        min: 9,
        max: 10,
        evidence: ['138 base, a 10,000 signing bonus', 'I’ll sign it by Friday'],
      },
    },
  },
  {
    scenario: NEGOTIATION,
    quality: 'wordy',
    participantName: 'Chris',
    note: 'Talks about anchoring, interests beyond salary and a clear agreement; names no number, asks for nothing specific and drifts into accepting 128.',
    lines: [
      KAREN_OPENS,
      'U: Thanks. I want to anchor with a justified number, because anchoring is important in a negotiation. The number should be justified.',
      'P: Okay, what number did you have in mind?',
      'U: Something fair, I guess, maybe a bit higher. Salary is important to me, and I’d also like to explore interests beyond salary.',
      'P: Such as?',
      'U: Just, you know, the overall package. I’m open to a clear agreement. Whatever works for you works for me.',
      'P: So, 128 then?',
      'U: I think that’s probably fine. Let’s agree on a clear agreement.',
    ],
    bands: {
      'neg-anchor': { min: 1, max: 2 },
      'neg-interests': { min: 1, max: 3 },
      'neg-close': { min: 2, max: 4 },
    },
  },
  {
    scenario: NEGOTIATION,
    quality: 'minimal',
    participantName: 'Sam',
    note: 'Accepts the first offer with "sure, that’s fine"; the hiring manager states the letter.',
    lines: [
      KAREN_OPENS,
      'U: ok',
      'P: Is that a yes?',
      'U: sure, that’s fine',
      'P: Great. Any questions about benefits or the start date?',
      'U: no',
      'P: Perfect, I’ll send the offer letter today.',
      'U: ok thanks',
    ],
    bands: {
      'neg-anchor': { min: 1, max: 2 },
      'neg-interests': { min: 1, max: 2 },
      'neg-close': { min: 2, max: 5 },
    },
  },
  {
    scenario: NEGOTIATION,
    quality: 'mixed',
    participantName: 'Tariq',
    note: 'A well-justified ask of 148; refuses to talk about anything but base when invited to; leaves with "I’ll think it over".',
    lines: [
      KAREN_OPENS,
      'U: Thank you. Based on the market data for senior data engineers in Austin, 140 to 150, and the migration I’d be leading, I’m looking for 148 base.',
      'P: Our band tops out at 138.',
      'U: I understand, but 148 is what the market pays for this work, and I’d bring direct experience with the exact migration you’re planning.',
      'P: I hear you, but 138 is the ceiling. Is there anything else that would help?',
      'U: No, it’s really about the base for me. I’ll need to think about it.',
      'P: Okay. When can you let me know?',
      'U: I’m not sure. I’ll think it over. Bye for now.',
    ],
    bands: {
      'neg-anchor': {
        min: 8,
        max: 10,
        evidence: ['I’m looking for 148 base', '148 is what the market pays for this work'],
      },
      'neg-interests': { min: 1, max: 2 },
      'neg-close': { min: 1, max: 2 },
    },
  },
  {
    scenario: NEGOTIATION,
    quality: 'unusual',
    participantName: 'Leah',
    note: '"The number that makes this an easy yes is one forty-five", backed by the market and another offer; "is anything else movable"; closes with "just so we’re both on the same page: …" and the letter by Wednesday.',
    lines: [
      KAREN_OPENS,
      'U: Honestly, I’m thrilled, and I want to get to a yes. The number that makes this an easy yes for me is one forty-five. That’s about where the market has me right now, and there’s another offer on the table in that range.',
      'P: Our ceiling is 138.',
      'U: Okay, that’s real. Is anything else movable, say me starting in March instead of February, or a couple of days from home?',
      'P: March works, and we can do two remote days a week. I can also go to 140 if you can start by March 3rd.',
      'U: So just so we’re both on the same page: 140 base, start March 3rd, two days from home, and the written offer lands in my inbox by Wednesday. If that’s right, it’s a yes from me.',
      'P: That’s right. Welcome aboard.',
    ],
    bands: {
      'neg-anchor': {
        min: 8,
        max: 10,
        evidence: [
          'The number that makes this an easy yes for me is one forty-five',
          'where the market has me',
        ],
      },
      'neg-interests': {
        min: 8,
        max: 10,
        evidence: ['Is anything else movable'],
      },
      'neg-close': {
        min: 9,
        max: 10,
        evidence: ['just so we’re both on the same page', 'it’s a yes from me'],
      },
    },
  },
];

const SPECS: Spec[] = [
  ...SALES_SPECS,
  ...INTERVIEW_SPECS,
  ...COACHING_SPECS,
  ...BRAINSTORM_SPECS,
  ...PATIENT_SPECS,
  ...SUPPORT_SPECS,
  ...DISCOVERY_SPECS,
  ...NEGOTIATION_SPECS,
];

/** The evaluation set: every conversation with its turns (sentence ids unique across the set). */
export const CONVERSATIONS: readonly Conversation[] = SPECS.map((spec, i) => {
  const { turns, durationSeconds } = buildTranscript(spec.lines, (i + 1) * 1000);
  return {
    id: `${spec.scenario.id}/${spec.quality}`,
    scenario: spec.scenario,
    quality: spec.quality,
    participantName: spec.participantName,
    note: spec.note,
    turns,
    durationSeconds,
    bands: spec.bands,
  };
});
