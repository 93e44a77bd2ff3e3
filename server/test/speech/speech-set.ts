// The speech test set (docs/speech.md, "Speech test set"): what a participant says in role-plays,
// grouped into meetings. Each meeting has a scenario, and the scenario's own text (prompt, goals,
// persona, welcome message) is the vocabulary the recogniser is given for that meeting. Two
// meetings use the product's seeded scenarios (seeds.ts, imported so the set follows them); two use
// scenarios the engine was not built around, written here as customers would write them.
//
// Every sentence is tagged: in-domain when it uses its scenario's own terms (names, products,
// jargon, the facts of the case), out-of-domain when it is ordinary meeting talk said in that
// meeting but not drawn from its text. Texts are written as they are spoken (numbers in words);
// the audio is made at test time by speech-voices.ts, never committed.
import type { MeetingContext } from '../../src/platform/live/context.ts';
import { recognitionContext } from '../../src/platform/live/voice/meeting-vocabulary.ts';
import { DEFAULT_SCENARIO_SEEDS } from '../../src/platform/scenarios/seeds.ts';

/** The parts of a scenario the recogniser's vocabulary is made of. */
export interface SetScenario {
  name: string;
  description: string;
  prompt: string;
  persona: { name: string; job_title: string; background: string };
  goals: ReadonlyArray<{ name: string; description: string; instructions: string }>;
  welcome_message: string;
}

export interface SetSentence {
  text: string;
  /** Uses the scenario's own terms (true), or is ordinary talk in that meeting (false). */
  inDomain: boolean;
}

export interface SetMeeting {
  /** Stable id: the bench's meeting id is built from it. */
  id: string;
  /** One of the product's seeded scenarios (true), or one the engine was not built around. */
  seeded: boolean;
  scenario: SetScenario;
  /** The scenario's text as written: what `RecognitionContext.vocabulary` carries for this meeting. */
  vocabulary: string;
  sentences: readonly SetSentence[];
}

/**
 * The scenario's text as the room passes it to the recogniser: the room's own builder
 * (live/voice/meeting-vocabulary.ts), given the parts of a meeting it reads.
 */
export function scenarioVocabulary(scenario: SetScenario): string {
  const meeting = {
    meeting: { id: 'speech-set' },
    scenario: {
      name: scenario.name,
      description: scenario.description,
      prompt: scenario.prompt,
      welcome_message: scenario.welcome_message,
    },
    persona: scenario.persona,
    goals: scenario.goals,
  };
  return recognitionContext(meeting as unknown as MeetingContext).vocabulary;
}

function seeded(kind: 'plus_one' | 'requirement_gathering'): SetScenario {
  const seed = DEFAULT_SCENARIO_SEEDS.find((candidate) => candidate.kind === kind)!;
  return {
    name: seed.scenario.name,
    description: seed.scenario.description ?? '',
    prompt: seed.scenario.prompt ?? '',
    persona: {
      name: seed.persona.name,
      job_title: seed.persona.job_title,
      background: seed.persona.background ?? '',
    },
    goals: seed.goals.map((goal) => ({
      name: goal.name,
      description: goal.description ?? '',
      instructions: goal.instructions ?? '',
    })),
    welcome_message: seed.scenario.welcome_message ?? '',
  };
}

/** A veterinary hospital's client care coordinator returns a call about a surprising invoice. */
const VET_BILLING: SetScenario = {
  name: 'Billing call: Harbor View Veterinary Hospital',
  description:
    'Return the call of a long-standing client who is upset that her dog’s dental invoice came in far above the estimate: listen, explain the charges, and agree on insurance and payment.',
  prompt: `# Billing call: a client questions her invoice

## Your role
You are Linda Kowalski, a long-standing client of Harbor View Veterinary Hospital. Your nine-year-old Cavalier King Charles spaniel, Pickles, had a dental cleaning under anesthesia with Dr. Abernathy last Tuesday. The estimate you signed said $640; the invoice you received says $1,180. The participant is the hospital's client care coordinator, returning your call. You are upset but fair: you love the practice and want to understand the bill.

## Background facts (share them only when the participant asks)
1. The signed estimate covered the dental prophylaxis, the pre-anesthetic bloodwork and anesthesia monitoring: $640.
2. During the procedure Dr. Abernathy found two cracked molars, took dental X-rays and extracted both teeth. The front desk tried to call you for consent and reached your voicemail; the team went ahead under the "treat if needed" box you ticked on the consent form.
3. The extra $540: dental X-rays $165, two surgical extractions $310, a nerve block and the take-home pain medication (Onsior and gabapentin) $65.
4. You have PetGuard pet insurance: accident and illness, a $250 annual deductible, 80% reimbursement. Dental disease is covered only with a record of an annual exam.
5. Pickles is on the Harbor Care Plus wellness plan, which includes the annual exam and the pre-anesthetic bloodwork.
6. You would like to pay over a few months; you did not know the hospital offers PawPay, three interest-free installments.
7. Pickles is eating soft food and seems comfortable; her recheck is in ten days.

## Rules
- Stay in character as Linda for the whole call; never mention that this is a simulation.
- Start frustrated; calm down when the participant listens, apologizes for the surprise and explains the charges line by line.
- If the participant blames you for ticking the box, get more upset.
- Ask whether PetGuard will pay for the extractions, and whether anything on the invoice was charged twice.
- Keep answers short, as on a phone call.
`,
  persona: {
    name: 'Linda Kowalski',
    job_title: 'Client, Harbor View Veterinary Hospital',
    background:
      'A retired schoolteacher whose Cavalier King Charles spaniel, Pickles, has been a patient at Harbor View for years. Upset about a dental invoice that came in almost twice the estimate; fair once she understands it.',
  },
  goals: [
    {
      name: 'De-escalation',
      description: 'Did the participant acknowledge the client’s frustration before explaining the bill?',
      instructions:
        'Score 1-10. 9-10: acknowledged the surprise, apologized for the missed call and let the client finish. 5-8: some acknowledgement. 1-4: argued or blamed the client.',
    },
    {
      name: 'Invoice explained',
      description:
        'Did the participant walk through the invoice line by line: the estimate, the X-rays, the extractions and the medication?',
      instructions:
        'Score 1-10. 9-10: every extra charge explained with the clinical reason from Dr. Abernathy. 5-8: the total explained, not the lines. 1-4: no explanation.',
    },
    {
      name: 'Insurance and payment',
      description:
        'Did the participant cover the PetGuard claim, the deductible, the Harbor Care Plus wellness plan and the PawPay installments?',
      instructions:
        'Score 1-10. 9-10: offered to send the itemized invoice and medical records to PetGuard and explained PawPay. 5-8: mentioned one option. 1-4: none.',
    },
    {
      name: 'Next step agreed',
      description:
        'Did the client leave with a concrete next step: a claim filed, a payment plan, the recheck booked?',
      instructions:
        'Score 1-10. 9-10: a next step with a date and an owner. 5-8: a vague next step. 1-4: none.',
    },
  ],
  welcome_message:
    "Hello, this is Linda Kowalski. I'm calling about the bill for Pickles's dental. I signed an estimate for $640 and now I'm looking at $1,180. Can someone explain this to me?",
};

/** A solar installer's consultant on a video call with a homeowner who holds a cheaper quote. */
const SOLAR_SALES: SetScenario = {
  name: 'Sales call: Brightfield Solar home consultation',
  description:
    'Present a residential solar proposal to a price-conscious homeowner who already has a cheaper quote: find out what matters to him, show the value, handle the numbers and book the next step.',
  prompt: `# Sales call: Brightfield Solar home consultation

## Your role
You are Raymond Castillo, a homeowner in Mesa, Arizona, who asked Brightfield Solar for a proposal after his summer electricity bills passed $300 a month. The participant is a Brightfield energy consultant on a video call. You are interested but careful with money, and you already have a cheaper quote from Solarix.

## Background facts (share them only when the participant asks)
1. Your house is a single-story ranch with a south-facing roof, replaced in 2019; one corner is shaded by a mesquite tree in the afternoon.
2. You use about 11,000 kilowatt-hours a year, most of it for air conditioning from May to September. The utility bills you on time-of-use rates, with peak hours from 4 to 7 pm.
3. The Solarix quote: 20 panels, a single string inverter, no battery, $21,500 before incentives.
4. Brightfield's proposal: 22 HelioMax 400-watt panels (8.8 kW) with a microinverter on each panel, an optional SunVault 13.5 kWh battery, $27,900 before the 30% federal tax credit, and a 25-year production guarantee.
5. You worry about net metering changes, about roof leaks, and about what happens if you sell the house in five years.
6. You would finance rather than pay cash; you have not looked at solar loans yet.
7. Your wife, Elena, has to agree before you sign anything.

## Questions you ask
- "Why should I pay six thousand more than the Solarix quote?"
- "What is my payback period, honestly?"
- "Do I really need the battery?"

## Rules
- Stay in character as Raymond for the whole call; never mention that this is a simulation.
- Push back on price until the participant explains what the extra money buys.
- If the participant pressures you to sign today, cool off and say Elena has to see it first.
- Keep answers short and practical.
`,
  persona: {
    name: 'Raymond Castillo',
    job_title: 'Homeowner, Mesa, Arizona',
    background:
      'A retired HVAC technician with summer power bills over $300 a month. Practical and price-conscious; has a cheaper quote from Solarix and wants straight numbers.',
  },
  goals: [
    {
      name: 'Needs discovery',
      description:
        'Did the participant ask about usage, the utility bills, the roof and shade, and how long the customer plans to stay?',
      instructions:
        'Score 1-10. 9-10: covered usage, time-of-use rates, the roof and the plan to stay or sell. 5-8: some of these. 1-4: pitched without asking.',
    },
    {
      name: 'Value over price',
      description:
        'Did the participant explain what the higher price buys: microinverters instead of a string inverter, HelioMax panels, the production guarantee?',
      instructions:
        'Score 1-10. 9-10: compared the two quotes point by point without disparaging Solarix. 5-8: some value explained. 1-4: only discounted.',
    },
    {
      name: 'Financials',
      description:
        'Did the participant cover the federal tax credit, the payback period, financing and net metering honestly?',
      instructions:
        'Score 1-10. 9-10: a realistic payback with its assumptions, the tax credit and a financing option. 5-8: partial. 1-4: vague or overstated savings.',
    },
    {
      name: 'Next step',
      description:
        'Did the participant agree a next step that includes Elena, such as a site survey or a follow-up call?',
      instructions:
        'Score 1-10. 9-10: a booked site survey or call with both decision makers. 5-8: a loose follow-up. 1-4: none.',
    },
  ],
  welcome_message:
    "Hi, Raymond here. I've got your proposal open next to the one from Solarix, and yours is a good bit higher. Walk me through it?",
};

const said = (text: string): SetSentence => ({ text, inDomain: true });
const chat = (text: string): SetSentence => ({ text, inDomain: false });

function meeting(id: string, isSeeded: boolean, scenario: SetScenario, sentences: SetSentence[]): SetMeeting {
  return { id, seeded: isSeeded, scenario, vocabulary: scenarioVocabulary(scenario), sentences };
}

export const SPEECH_SET: readonly SetMeeting[] = [
  // The participant rehearses a salary talk with the coach.
  meeting('plus-one', true, seeded('plus_one'), [
    said('Maya, I have a salary negotiation with my manager next Thursday.'),
    said('The outcome I want is a raise of eight percent and the senior title.'),
    said('Can you play my manager while I rehearse my opening?'),
    said('My first two sentences would be about the projects I delivered this year.'),
    said('What is the hardest objection she could come back with?'),
    said("I'm willing to be flexible on the start date, but not on the title."),
    said('This is a performance review, not a pitch, so I want to stay calm.'),
    said('How do I close the conversation and agree on next steps?'),
    said('Maya, the one thing I want to remember when I walk in is to pause after my opening.'),
    said('Could you give me honest feedback on whether that sounded vague?'),
    chat('Sorry, my camera froze for a second. Can you hear me now?'),
    chat("Let me grab a glass of water, I'll be right back."),
    chat('It has been a long week with three deadlines on Friday.'),
    chat('What time is it where you are?'),
    chat('I think we have about ten minutes left.'),
    chat('My daughter starts school on Monday, so mornings are busy.'),
  ]),
  // The participant gathers requirements from Northwind's head of operations.
  meeting('northwind', true, seeded('requirement_gathering'), [
    said("Daniel, how do your dispatchers plan tomorrow's routes today?"),
    said('So each depot spends about two hours in spreadsheets every morning?'),
    said('What happens when a driver calls in sick at six in the morning?'),
    said('Besides the six dispatchers, who else uses the plan?'),
    said('Do the depot managers need weekly reports, or something every day?'),
    said('The tool has to respect delivery time windows and van capacity.'),
    said('How do you import orders from the order system today?'),
    said('On-time deliveries should rise from eighty-six to ninety-five percent.'),
    said('Should drivers be allowed to change the order of their own stops?'),
    said('The depots need this live before peak season, which is four months away, right?'),
    said('Let me play back what I heard about Northwind so far.'),
    chat('Thanks for making time for this today.'),
    chat('Could you repeat the last part? The line cut out.'),
    chat('Let me write that down before I forget it.'),
    chat("I'll send you my notes by email this afternoon."),
    chat('Does Friday at ten work for a follow-up call?'),
  ]),
  // The participant, the hospital's client care coordinator, returns Linda's call.
  meeting('vet-billing', false, VET_BILLING, [
    said('Hi Linda, this is Sam from Harbor View Veterinary Hospital, returning your call.'),
    said('I have the invoice for Pickles from Tuesday open in front of me.'),
    said('The estimate you signed was six hundred and forty dollars.'),
    said('Doctor Abernathy found two cracked molars once Pickles was under anesthesia.'),
    said('The dental X-rays and the two extractions were not on the original estimate.'),
    said('The X-rays were one hundred and sixty-five dollars, and the extractions three hundred and ten.'),
    said('Would you like me to send the itemized invoice to PetGuard for your claim?'),
    said('Your PetGuard deductible is two hundred and fifty dollars a year.'),
    said('The pre-anesthetic bloodwork is already covered by your Harbor Care Plus wellness plan.'),
    said('We can split the balance into three payments with PawPay, with no interest.'),
    said('Is Pickles still on the gabapentin, and is she eating soft food?'),
    said('Her recheck with Doctor Abernathy is booked for the twenty-first at nine thirty.'),
    chat('I completely understand why that would be frustrating.'),
    chat('Can I put you on hold for just a minute while I look into it?'),
    chat('What is the best number to reach you at this afternoon?'),
    chat('Thank you for your patience, I know this took a while.'),
    chat("I'll call you back before five o'clock today."),
  ]),
  // The participant, a Brightfield energy consultant, presents the proposal to Raymond.
  meeting('solar-sales', false, SOLAR_SALES, [
    said('Raymond, based on your utility bills you use about eleven thousand kilowatt hours a year.'),
    said('We would put twenty-two HelioMax panels on the south-facing roof.'),
    said('That comes to an eight point eight kilowatt system.'),
    said('Each panel has its own microinverter, so the shade from the mesquite tree only affects one panel.'),
    said('With net metering, the utility credits you for what you send back to the grid.'),
    said('The SunVault battery would carry you through the peak hours from four to seven.'),
    said('With the federal tax credit, the Brightfield system costs thirty percent less.'),
    said('Honestly, your payback period comes out at about eight and a half years.'),
    said('How does our quote compare with the one you got from Solarix?'),
    said('Everything is backed by a twenty-five year production guarantee.'),
    said('Would Elena like to join us when we do the site survey?'),
    chat('Do you mind if I share my screen for a moment?'),
    chat('What questions do you have for me so far?'),
    chat('I can email you everything tonight so you can look it over.'),
    chat("Sorry, there's a truck outside, let me close the window."),
    chat('How was your weekend, did you get out of the heat at all?'),
    chat('Would Tuesday or Wednesday be better for you?'),
  ]),
];
