// How the engine reads a scenario and a question (issue 27): third-person prompts said in the first
// person, the kind of answer a question asks for, meaning without shared words, follow-ups.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askedTypes, factTypes } from './answer-types.ts';
import { answerFromFacts } from './answering.ts';
import { loadEmbeddings, similarity } from './embeddings.ts';
import { secondToFirstPerson } from './first-person.ts';
import { Said } from './fresh.ts';
import { collectFacts } from './knowledge.ts';
import { rankFacts } from './retrieval.ts';
import { personaPronoun, thirdToFirstPerson } from './third-person.ts';

const facts = (prompt: string, personaName = 'Margaret Doyle') =>
  collectFacts({ personaName, prompt, background: null, noteContext: null, memories: [] }).map((f) => f.text);

describe('a scenario written about the persona', () => {
  const who = { names: ['Margaret Doyle'], pronoun: 'she' as const };

  it('is said in the first person with agreeing verbs and pronouns', () => {
    assert.equal(
      thirdToFirstPerson("She's called twice and it has her upset.", who),
      "I've called twice and it has me upset.",
    );
    assert.equal(
      thirdToFirstPerson('Her insurer, BlueHarbor, should have paid.', who),
      'My insurer, BlueHarbor, should have paid.',
    );
    assert.equal(
      thirdToFirstPerson('Margaret Doyle is a 67-year-old patient.', who),
      "I'm a 67-year-old patient.",
    );
    assert.equal(
      thirdToFirstPerson("She'll only pay monthly and wants a trial.", who),
      "I'll only pay monthly and want a trial.",
    );
    assert.equal(thirdToFirstPerson('She actually needs a tenant.', who), 'I actually need a tenant.');
  });

  it('written to the persona is said with "I" as subject wherever English puts it', () => {
    assert.equal(secondToFirstPerson('How would you measure success?'), 'How would I measure success?');
    assert.equal(secondToFirstPerson('Are you ready to sign?'), 'Am I ready to sign?');
    assert.equal(
      secondToFirstPerson('Seats are unused (you pay for 220).'),
      'Seats are unused (I pay for 220).',
    );
    assert.equal(secondToFirstPerson('One line you will not cross.'), 'One line I will not cross.');
    assert.equal(secondToFirstPerson('They quoted you £38,000.'), 'They quoted me £38,000.');
  });

  it('gives a sentence without a subject the persona as subject when the one before was about it', () => {
    const known = facts(
      'Mo is a gym member. Been a member 3 years, pays £42 a month, moving to Leeds soon. Would stay for a discount. Annoyed because the app charged him twice. The contract is monthly. Renews on the 1st.',
      'Mo',
    );
    assert.ok(
      known.includes("I've been a member 3 years, I pay £42 a month, I'm moving to Leeds soon."),
      known.join('|'),
    );
    assert.ok(known.includes('I would stay for a discount.'));
    assert.ok(known.includes("I'm annoyed because the app charged me twice."));
    // After a sentence about the contract, a subjectless one is about the contract.
    assert.ok(known.includes('Renews on the 1st.'), known.join('|'));
    // A sentence that has its subject keeps it; verbs agree with "I".
    const other = facts(
      'Mo is a member.\n- Has two kids, studies law\n- Parking is a nightmare\n- Main concern is cost\n- May is the busiest month\n- Existing contract runs to June',
      'Mo',
    );
    assert.deepEqual(other.slice(1), [
      'I have two kids, I study law.',
      'Parking is a nightmare.',
      'Main concern is cost.',
      'May is the busiest month.',
      'Existing contract runs to June.',
    ]);
  });

  it('knows when a fact held back elsewhere answers: "don\'t mention X unless…" cues X', () => {
    const known = collectFacts({
      personaName: 'Nadia',
      prompt:
        "- You're moving to Lisbon for a job in March\n- The roof was redone in 2021\n- Don't mention the Lisbon job unless they ask why you're selling",
      background: null,
      noteContext: null,
      memories: [],
    });
    assert.match(rankFacts(known, 'Why are you selling?')[0].fact.text, /Lisbon/);
  });

  it('keeps a figure back that a parenthesis says never to say', () => {
    const known = facts('- Target: 28 cents; walk-away point is 29.5 cents (never say this number)', 'Hugo');
    assert.ok(!known.some((f) => f.includes('29.5')), known.join('|'));
  });

  it('reads a run-on sentence as the facts it holds, and leaves out how the persona behaves', () => {
    const known = facts(
      "Sandra is a mum phoning the school office because she wants a refund for the trip, she paid £285 in three instalments back in March, and then Daniel broke his wrist on 28 May so the doctor said he couldn't go, but the school has only offered her £150 back. She's angry at first and talks over people a bit, but she calms down if someone actually listens, and she shouldn't mention the £225 figure unless the school offers something first.",
      'Sandra',
    );
    assert.ok(known.includes('I paid £285 in three instalments back in March.'), known.join(' | '));
    assert.ok(known.includes('Daniel broke his wrist on 28 May.'), known.join(' | '));
    assert.ok(known.includes('The school has only offered me £150 back.'), known.join(' | '));
    assert.ok(!known.some((f) => /angry|calm|225/.test(f)), known.join(' | '));
    // A short sentence keeps its clauses together; a list is not a run-on.
    assert.deepEqual(facts('She uses Python, dbt and Snowflake and her renewal is due on 30 June.'), [
      'I use Python, dbt and Snowflake and my renewal is due on 30 June.',
    ]);
  });

  it('keeps an order said beside a fact out of it, and the condition a fact comes with in it', () => {
    const known = facts(
      `Hannah Lindqvist - CTO at Parcelwise
- Budget is around $120k a year but don't say a number unless pushed
- Data must stay in the EU (customers are mostly German), mention this as a hard no-go early
- Already had a demo from Datadog, found it too expensive; act mildly sceptical of anyone who bad-mouths competitors
- She would sign for 3 years, but only if the price is fixed
- Currently on a self-hosted Prometheus stack, run by 2 SREs - be honest about this if asked
- Had a 4-hour outage on 3 March; this is the real reason she's looking, but only bring it up once the rep asks
## How to play her
- Enthusiastic, says "yes, and" a lot
Tone: direct, technical, dry humour
Hannah is open and reflective but a bit defensive at first.`,
      'Hannah Lindqvist',
    );
    const all = known.join(' | ');
    // A name set off by a spaced hyphen introduces the persona; conditions of its own behaviour are orders.
    assert.ok(known[0].startsWith("I'm Hannah Lindqvist - CTO at Parcelwise"), all);
    const more = facts(
      `Keisha Brown, tenant at Flat 3. Angry but reasonable; calms down if given a date.
Participant = AE at a leasing company, doing discovery.
He only admits the pricing mistake if the manager asks what he'd do differently.`,
      'Keisha Brown',
    ).join(' | ');
    assert.ok(!/calms|Participant|admits/.test(more), more);
    assert.ok(
      !/mention this|act mildly|unless pushed|yes, and|dry humour|defensive|be honest|bring it up/.test(all),
      all,
    );
    // A figure held back with nothing else to say is declined in the persona's words.
    assert.ok(known.includes("I'd rather not say a number."), all);
    assert.ok(all.includes('Currently on a self-hosted Prometheus stack, run by 2 SREs.'), all);
    assert.ok(all.includes("Had a 4-hour outage on 3 March; this is the real reason I'm looking."), all);
    assert.ok(all.includes('Data must stay in the EU (customers are mostly German).'), all);
    assert.ok(
      all.includes("I'd sign for 3 years, but only if the price is fixed.") ||
        all.includes('I would sign for 3 years, but only if the price is fixed.'),
      all,
    );
  });

  it('reads "she\'s" as "she is" or "she has" by what follows', () => {
    const who = { names: ['Sandra'], pronoun: 'she' as const };
    assert.equal(
      thirdToFirstPerson("She's also annoyed that it took 11 days.", who),
      "I'm also annoyed that it took 11 days.",
    );
    assert.equal(thirdToFirstPerson("She's offered him £150 back.", who), "I've offered him £150 back.");
    assert.equal(thirdToFirstPerson('She now leads 5 engineers.', who), 'I now lead 5 engineers.');
    assert.equal(
      thirdToFirstPerson("She wants to get better but doesn't know how.", who),
      "I want to get better but don't know how.",
    );
    assert.equal(
      thirdToFirstPerson('The school offered her £150 back.', who),
      'The school offered me £150 back.',
    );
  });

  it('finds the pronoun the scenario uses for the persona', () => {
    assert.equal(personaPronoun('Raj is a union rep. He wants 4%. His members voted.'), 'he');
    assert.equal(personaPronoun('No pronouns here.'), null);
  });

  it('spoken to, keeps "she" for someone else; a background about the persona is said as "I"', () => {
    const known = collectFacts({
      personaName: 'Linda Okafor',
      prompt:
        'You are Linda Okafor, CFO of Brightwell. Nina in procurement handles contracts; she signs anything over £10,000.',
      background: 'She has run finance for 12 years and her team is small.',
      noteContext: null,
      memories: [],
    }).map((f) => f.text);
    assert.ok(known.includes('She signs anything over £10,000.'), known.join(' | '));
    assert.ok(
      known.some((f) => /^I have run finance for 12 years and my team is small\.$/.test(f)),
      known.join(' | '),
    );
  });

  it('keeps setup out of what the persona knows; a fact held back until asked is known, never volunteered', () => {
    const known = facts(
      "Margaret Doyle is a patient at Riverside. She's calling the billing office (the participant works there) about a $480 bill. The participant is a billing clerk. Two letters went unanswered — she won't say this unless asked. She calms down if the participant gives a clear date.",
    );
    assert.deepEqual(known, [
      "I'm a patient at Riverside.",
      "I'm calling the billing office about a $480 bill.",
      // The persona only answers questions: "unless asked" is how it always speaks.
      'Two letters went unanswered.',
    ]);
  });

  it('reads "Lease ends in August." as a fact and "Keep it under 10 minutes." as an instruction', () => {
    const known = facts(
      'Sofia Marin, landlord. She owns the shop. Lease ends in August. Keep it under 10 minutes. Contract expires on 30 June.',
      'Sofia Marin',
    );
    assert.ok(known.includes('I own the shop.'), known.join(' | '));
    assert.ok(known.includes('Lease ends in August.'), known.join(' | '));
    assert.ok(known.includes('Contract expires on 30 June.'), known.join(' | '));
    assert.ok(!known.some((f) => /10 minutes/.test(f)), known.join(' | '));
  });

  it('knows what an instruction tells it to say, and holds back a figure it must not reveal', () => {
    const known = facts(
      "You are Linda, a CFO. You're also talking to a competitor, Spendwise, who quoted £38,000 — don't reveal the exact quote. Don't bring up budget; if asked, say it's still being approved by the board. At the end, tell them your procurement lead, Nina Shah, will follow up. Mention that the session will be 10 minutes long if asked. Mention the boiler only if they bring up repairs.",
    );
    assert.deepEqual(known, [
      "I'm Linda, a CFO.",
      "I'm also talking to a competitor, Spendwise.",
      // Asked for the figure, it declines in its own words.
      "I'd rather not reveal the exact quote.",
      "It's still being approved by the board.",
      'My procurement lead, Nina Shah, will follow up.',
      'The session will be 10 minutes long.',
    ]);
  });
});

describe('a question', () => {
  it('asks for a kind of answer, and facts hold kinds', () => {
    assert.deepEqual([...askedTypes('When does the contract come up?')], ['date']);
    assert.ok(askedTypes('What city are you based in?').has('place'));
    assert.deepEqual([...askedTypes('How much time does it take?')], ['duration']);
    assert.ok(factTypes('Renewal is due on 30 June.').has('date'));
    assert.ok(factTypes('We pay £42,000 a year.').has('money'));
    assert.ok(factTypes('I run four studios in Bristol.').has('place'));
  });

  it('is matched by meaning when it shares no word with the fact', async () => {
    await loadEmbeddings();
    assert.ok((similarity('devices', 'phones') ?? 0) > 0.6);
    assert.equal(similarity('devices', 'zzqxv'), null);
    const known = collectFacts({
      personaName: 'Abby',
      prompt:
        'Families mostly use cheap phones. Trips need permission slips. Our text service costs £900 a year.',
      background: null,
      noteContext: null,
      memories: [],
    });
    assert.match(rankFacts(known, 'What devices do parents have?')[0].fact.text, /cheap phones/);
  });

  it('that leans on the last answer gets the part of it asked about', () => {
    const known = collectFacts({
      personaName: 'Marcus',
      prompt:
        '- Current tool: an on-prem ServiceDesk install from 2011, 9 staff use it\n- Decision by end of Q3',
      background: null,
      noteContext: null,
      memories: [],
    });
    const said = new Said([]);
    const first = answerFromFacts(known, 'What do you use for the helpdesk today?', said, 1);
    assert.match(first.text, /ServiceDesk/);
    const next = answerFromFacts(known, 'And how old is it?', said, 1, {
      question: 'What do you use for the helpdesk today?',
      reply: first.text,
    });
    assert.match(next.text, /2011/);
    assert.doesNotMatch(next.text, /Q3/);
  });

  it('that leans back is answered from the last reply: its contrast, its event, its figure, or a fact with its own words', () => {
    const known = collectFacts({
      personaName: 'Ola',
      prompt: [
        '- A courier firm, ShipQuick, quoted 4 euros a parcel but only delivers on weekdays',
        '- You rang support in May; an agent promised a refund that never arrived',
        '- Returns: about 40 a week',
        '- Delivery window today: 3 days; Ola wants 1',
      ].join('\n'),
      background: null,
      noteContext: null,
      memories: [],
    });
    const ask = (previous: string, question: string) => {
      const said = new Said([]);
      const first = answerFromFacts(known, previous, said, 3);
      return answerFromFacts(known, question, said, 3, { question: previous, reply: first.text }).text;
    };
    assert.match(ask('Has anyone quoted you?', "What's the catch?"), /weekdays/);
    assert.match(ask('Have you contacted support?', 'And what happened then?'), /promised a refund/);
    assert.match(ask('How many returns do you get?', 'Is that per day?'), /40 a week/);
    // "Ola wants next day" names nothing of its own: it is about the delivery window.
    assert.match(ask('What delivery window would you like?', 'And what is it today?'), /3 days/);
    // "What's the problem?" names something: not a part of the last reply picked blind.
    assert.match(ask('What delivery window would you like?', "What's the problem?"), /refund|weekdays/);
    // "not yet" and "but also" say nothing against what was said.
    assert.equal(
      answerFromFacts(
        collectFacts({
          personaName: 'Ola',
          prompt: 'The contract is not yet signed by legal.',
          background: null,
          noteContext: null,
          memories: [],
        }),
        "What's the catch?",
        new Said([]),
        3,
        { question: 'Where is the contract?', reply: 'The contract is not yet signed by legal.' },
      ).text.includes('Right: signed by legal'),
      false,
    );
  });

  it('reads ways of wanting as "want", and the words around a fact count less than its own', () => {
    const known = collectFacts({
      personaName: 'Ola',
      prompt:
        '## Delivery\n- Today the window is 3 days\n- Ola would like next-day delivery\n- The van fleet is 12 vans',
      background: null,
      noteContext: null,
      memories: [],
    });
    assert.match(rankFacts(known, 'What are you hoping for?')[0].fact.text, /next-day/);
    assert.match(rankFacts(known, 'What are you after?')[0].fact.text, /next-day/);
    // Liking is not wanting.
    const likes = collectFacts({
      personaName: 'Ola',
      prompt: '- I like that the current system is fast\n- I want a cheaper plan',
      background: null,
      noteContext: null,
      memories: [],
    });
    assert.match(rankFacts(likes, 'What do you like about it?')[0].fact.text, /fast/);
    // The heading cues every fact under it: the fleet is found by its own words, not by "delivery".
    assert.match(rankFacts(known, 'How many vans do you run for delivery?')[0].fact.text, /12 vans/);
    assert.ok(askedTypes('What are the shift hours?').has('date'));
    assert.ok(askedTypes('What was the figure you gave?').has('quantity'));
  });

  it('is read without its request frame, and a label or a superlative names what a fact answers', () => {
    const known = collectFacts({
      personaName: 'Grace Mensah',
      prompt: `You are Grace Mensah, a candidate for the Ward Manager post.
- You qualified as a nurse in 2011
- Weakness: you find it hard to delegate, and you've started using HealthRoster
- Proudest achievement: you cut pressure ulcers from 9 a year to 2
Fleet: 38 vans + 4 rigids
Customers ~300 (indep. grocers, 2 hospital kitchens)`,
      background: null,
      noteContext: null,
      memories: [],
    });
    const first = (question: string) => rankFacts(known, question)[0]?.fact.text ?? '';
    assert.match(first('Could you start by telling us a bit about your nursing career so far?'), /2011/);
    assert.match(first("Tell us about something you're proud of."), /pressure ulcers/);
    // A labelled line is a statement of its own; an abbreviation inside a parenthesis ends nothing.
    assert.ok(
      known.some((f) => f.text === 'Fleet: 38 vans + 4 rigids.'),
      known.map((f) => f.text).join(' | '),
    );
    assert.ok(known.some((f) => /~300 \(indep\. grocers, 2 hospital kitchens\)/.test(f.text)));
  });

  it('in two parts gets both answered', () => {
    const known = collectFacts({
      personaName: 'Kenji',
      prompt:
        '- You bought the machine for £3,400 eight weeks ago\n- The steam wand broke on day 19\n- You want a replacement',
      background: null,
      noteContext: null,
      memories: [],
    });
    const reply = answerFromFacts(
      known,
      'When did it break, and what do you want us to do?',
      new Said([]),
      2,
    );
    assert.match(reply.text, /day 19/);
    assert.match(reply.text, /replacement/);
  });

  it('said again keeps the capital of a name', () => {
    const known = collectFacts({
      personaName: 'Linda',
      prompt: '- Spendwise quoted £38,000\n- Nina signs the contracts\n- My renewal is due on 30 June',
      background: null,
      noteContext: null,
      memories: [],
    });
    const said = new Said([]);
    for (const q of [
      'How much was the quote from the other vendor?',
      'Who signs?',
      'When is the renewal due?',
    ])
      answerFromFacts(known, q, said, 4);
    assert.match(
      answerFromFacts(known, 'Sorry, how much was the quote from that other vendor again?', said, 4).text,
      /Spendwise/,
    );
    assert.match(answerFromFacts(known, 'Who signs again?', said, 4).text, /Nina/);
    assert.match(
      answerFromFacts(known, 'When is the renewal due again?', said, 4).text,
      /, my renewal|30 June/,
    );
  });

  it('that nothing answers gets an honest line, never an unrelated fact or an invented team', () => {
    const known = collectFacts({
      personaName: 'Margaret',
      prompt: 'My account number is RM-20417.',
      background: null,
      noteContext: null,
      memories: [],
    });
    const reply = answerFromFacts(known, 'What do you think of the weather lately?', new Said([]), 3);
    assert.equal(reply.covered, false);
    assert.doesNotMatch(reply.text, /RM-20417|team/);
  });
});
