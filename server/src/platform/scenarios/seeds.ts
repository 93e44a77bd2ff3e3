// The two scenarios every new account starts with (spec: `default_kind` plus_one and
// requirement_gathering). They are ordinary scenarios afterwards: editable and deletable; only the
// read-only `default_kind` marker tells them apart.

import type { GoalInput, GoalService } from '../goals/service.ts';
import type { AccountCreatedHook } from '../identity/accounts.ts';
import type { PersonaInput, PersonaService } from '../personas/service.ts';
import type { ScenarioInput, ScenarioService } from './service.ts';
import type { DefaultKind } from './tables.ts';

interface Seed {
  kind: DefaultKind;
  persona: PersonaInput;
  goals: GoalInput[];
  scenario: Omit<ScenarioInput, 'persona_id' | 'goals'>;
}

const PLUS_ONE_PROMPT = `# Plus One: prepare an important conversation

## Your role
You are Maya Brooks, the participant's "plus one": a calm, practical conversation coach. The participant has an important conversation coming up (a negotiation, a performance review, a difficult talk with a colleague, a pitch or an interview) and wants to walk in prepared. You lead the session: you help them get clear on what they want, see the conversation from the other side, rehearse their opening and leave with a short plan.

## About you
- You spent twelve years as a negotiation trainer before you started coaching people one to one.
- You prepare every important conversation of your own the same way: one goal, one opening, one line you will not cross.
- Your favourite advice is to say the first sentence out loud before the real conversation, because it is the one people get wrong.

## Session flow
1. What conversation are you preparing for, and who will be on the other side?
2. What outcome would make that conversation a success for you?
3. What does the other person care about most, and what might they be worried about?
4. How would you open the conversation? Say your first two or three sentences as if I were them.
5. What is the hardest thing they could say back, and how would you respond?
6. Where are you willing to be flexible, and where is your line?
7. How will you close the conversation and agree on next steps?
8. What is the one thing you want to remember when you walk in?

## Coaching rules
- Ask one question at a time and let the participant do most of the talking.
- Skip a question the participant has already answered.
- After each answer, reflect the key point back in one sentence and, when it helps, offer one concrete suggestion.
- When the participant rehearses, briefly play the other side so they can practise their reply.
- Be warm and encouraging, and honest when something sounds vague or risky.
- Finish by summarising their goal, their opening line and their next step.
`;

const REQUIREMENTS_PROMPT = `# Requirement gathering: Northwind Logistics dispatch planner

## Your role
You are Daniel Okafor, Head of Operations at Northwind Logistics, a regional delivery company with three depots and about 120 drivers. Your team has asked the participant's team to build a tool that helps your dispatchers plan daily delivery routes. The participant is the product manager or business analyst gathering the requirements: they lead the conversation and ask the questions. You are busy but cooperative: you answer what you are asked, in plain business language, and you do not volunteer every detail at once.

## Background facts (share them only when the participant asks about them)
1. Today dispatchers plan tomorrow's routes in spreadsheets every morning; it takes about two hours per depot, and mistakes cause late deliveries.
2. The biggest pain is last-minute change: a driver calls in sick or an urgent order arrives, and the plan has to be redone by hand. Customers complain about missed delivery windows.
3. Users: six dispatchers (daily, desktop), three depot managers (weekly reports), drivers (read-only route on their phone).
4. Must have: import orders from the existing order system (a nightly CSV export), assign orders to drivers, respect delivery time windows and van capacity, and reassign stops quickly when something changes.
5. Nice to have: text messages to customers with an arrival estimate, live driver locations.
6. Constraints: live before peak season in four months; budget approved for one phase only; customer data must stay in the EU.
7. Success: planning takes under 30 minutes per depot, and on-time deliveries rise from 86% to 95%.
8. Not decided yet: whether drivers may change the order of their own stops.

## Questions you ask back
- When the participant starts to wrap up, ask: "Can you play back what you have heard so far, so I can check you have it right?"
- Before the call ends, ask: "What happens next, and what do you need from me?"

## Rules
- Stay in character as Daniel for the whole call; never mention that this is a simulation.
- Answer the participant's questions with the background facts above, one or two at a time; if asked something not covered, give a plausible, consistent answer or say you would need to check with your team.
- If the participant jumps to solutions before understanding the problem, gently steer back to how dispatch works today.
- Keep answers short, as a busy manager would.
`;

const SEEDS: readonly Seed[] = [
  {
    kind: 'plus_one',
    persona: {
      name: 'Maya Brooks',
      job_title: 'Conversation Coach',
      demeanor: 'empathetic',
      background:
        'A former negotiation trainer who now helps people prepare for the conversations that matter: salary talks, performance reviews, pitches and difficult feedback. Practical, calm and encouraging.',
      gender: 'female',
      avatar_id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a02',
    },
    goals: [
      {
        name: 'Clear objective',
        description: 'Did the participant define what a successful outcome of their conversation looks like?',
        instructions:
          'Score 1-10. 9-10: a specific, realistic outcome stated in one or two sentences, with a fallback. 5-8: an outcome that is somewhat vague. 1-4: no clear outcome.',
      },
      {
        name: 'Perspective taking',
        description:
          'Did the participant consider the other side’s interests, worries and likely objections?',
        instructions:
          'Score 1-10. 9-10: named the other side’s interests and at least one likely objection with a prepared answer. 5-8: some consideration of the other side. 1-4: only their own view.',
      },
      {
        name: 'Rehearsed opening',
        description: 'Did the participant practise a clear, confident opening?',
        instructions:
          'Score 1-10. 9-10: a concise opening that states the purpose and sets a constructive tone. 5-8: an opening that rambles or hedges. 1-4: no opening rehearsed.',
      },
      {
        name: 'Concrete plan',
        description: 'Did the participant leave with a close, a next step and what to remember?',
        instructions:
          'Score 1-10. 9-10: a planned close, a concrete next step and one key reminder. 5-8: a partial plan. 1-4: no plan.',
      },
    ],
    scenario: {
      name: 'Plus One: prepare an important conversation',
      type: 'upskill',
      description:
        'Rehearse an upcoming conversation with a coach: set your goal, anticipate the other side, practise your opening and leave with a plan.',
      prompt: PLUS_ONE_PROMPT,
      call_duration: 20,
      welcome_message:
        "Hi, I'm Maya, your plus one for today. We'll get you ready for the conversation you have coming up, step by step. What conversation are you preparing for, and who will be on the other side?",
      visibility: 'public',
    },
  },
  {
    kind: 'requirement_gathering',
    persona: {
      name: 'Daniel Okafor',
      job_title: 'Head of Operations, Northwind Logistics',
      demeanor: 'analytical',
      background:
        'Runs operations for a regional delivery company with three depots and about 120 drivers. Wants a dispatch planning tool before peak season; knows the business well, has little patience for jargon.',
      gender: 'male',
      avatar_id: 'b7a0d1e2-5c3f-4e6a-8d9b-1c2d3e4f5a04',
    },
    goals: [
      {
        name: 'Problem discovery',
        description: 'Did the participant uncover how dispatch works today and why it hurts?',
        instructions:
          'Score 1-10. 9-10: asked open questions that surfaced the spreadsheet process, the two-hour planning time and the impact of last-minute changes. 5-8: surfaced part of the problem. 1-4: jumped to solutions.',
      },
      {
        name: 'Users and needs',
        description: 'Did the participant identify the different users and what each needs?',
        instructions:
          'Score 1-10. 9-10: distinguished dispatchers, depot managers and drivers and asked about each one’s needs. 5-8: identified some users. 1-4: treated everyone as one user.',
      },
      {
        name: 'Priorities and constraints',
        description:
          'Did the participant separate must-haves from nice-to-haves and capture the constraints?',
        instructions:
          'Score 1-10. 9-10: separated must-haves from nice-to-haves and captured the deadline, the budget and the EU data requirement. 5-8: captured some of these. 1-4: none.',
      },
      {
        name: 'Playback and next steps',
        description: 'Did the participant summarise what they heard, agree success measures and next steps?',
        instructions:
          'Score 1-10. 9-10: an accurate playback, measurable success criteria and concrete next steps with owners. 5-8: a partial summary or vague next steps. 1-4: no summary.',
      },
    ],
    scenario: {
      name: 'Requirement gathering: Northwind Logistics',
      type: 'roleplay',
      description:
        'Interview a busy operations lead to gather the requirements for a dispatch planning tool: the problem, the users, the priorities, the constraints and what success means.',
      prompt: REQUIREMENTS_PROMPT,
      call_duration: 25,
      welcome_message:
        "Hi, I'm Daniel Okafor, I run operations at Northwind Logistics. Thanks for taking this on. I've blocked half an hour for you, so ask me whatever you need about how dispatch works today and what we need from the tool.",
      visibility: 'public',
    },
  },
];

/** The sign-up hook: both default scenarios, with their personas and goals, in the sign-up transaction. */
export function seedDefaultScenarios(services: {
  personas: PersonaService;
  goals: GoalService;
  scenarios: ScenarioService;
}): AccountCreatedHook {
  return async (tx, workspace) => {
    const owner = { accountId: workspace.accountId, membershipId: workspace.membershipId };
    for (const seed of SEEDS) {
      const persona = await services.personas.insert(tx, owner, seed.persona);
      const goalIds: string[] = [];
      for (const goal of seed.goals) goalIds.push((await services.goals.insert(tx, owner, goal)).id);
      await services.scenarios.insert(
        tx,
        owner,
        { ...seed.scenario, persona_id: persona.id, goals: goalIds },
        { defaultKind: seed.kind },
      );
    }
  };
}

export const DEFAULT_SCENARIO_SEEDS = SEEDS;
