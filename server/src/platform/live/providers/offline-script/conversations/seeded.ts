// The two scenarios every new account starts with, as the seeds define them.
import { DEFAULT_SCENARIO_SEEDS } from '../../../../scenarios/seeds.ts';
import type { OfflineScriptContext } from '../composer.ts';
import type { ConversationCase } from './types.ts';

function seeded(kind: string): OfflineScriptContext {
  const seed = DEFAULT_SCENARIO_SEEDS.find((s) => s.kind === kind);
  if (!seed) throw new Error(`no seed ${kind}`);
  return {
    personaName: seed.persona.name,
    jobTitle: seed.persona.job_title ?? null,
    demeanor: seed.persona.demeanor ?? null,
    background: seed.persona.background ?? null,
    scenarioName: seed.scenario.name,
    scenarioType: seed.scenario.type,
    prompt: seed.scenario.prompt ?? null,
    welcomeMessage: seed.scenario.welcome_message ?? null,
    participantName: 'Sam',
  };
}

export const DANIEL: ConversationCase = {
  name: 'requirement_gathering (Daniel)',
  context: seeded('requirement_gathering'),
  questions: [
    { ask: 'Thanks Daniel. Could you tell me a bit about Northwind?', expect: ['three depots'] },
    { ask: 'How do your dispatchers plan routes today?', expect: ['spreadsheets'] },
    { ask: 'How long does that planning take?', expect: ['two hours'] },
    { ask: "What's the biggest pain in the current process?", expect: ['last-minute change'] },
    { ask: 'What happens when a driver calls in sick?', expect: ['redone by hand'] },
    { ask: 'Who would use the tool?', expect: ['six dispatchers'] },
    { ask: 'What do the depot managers need from it?', expect: ['weekly reports'] },
    { ask: 'And the drivers, how would they use it?', expect: ['phone'] },
    { ask: 'What must the first version do?', expect: ['import orders'] },
    { ask: 'Where do the orders come from today?', expect: ['csv export'] },
    { ask: 'What would be nice to have but is not essential?', expect: ['text messages'] },
    { ask: 'What is your timeline?', expect: ['four months'] },
    { ask: 'Is there a budget for this?', expect: ['one phase'] },
    { ask: 'Are there any rules about where customer data is stored?', expect: ['eu'] },
    { ask: 'How would you know it worked?', expect: ['30 minutes'] },
    { ask: 'What is the on-time delivery rate today?', expect: ['86%'] },
    { ask: 'Can drivers change the order of their own stops?', expect: ['not decided'] },
  ],
};

export const MAYA: ConversationCase = {
  name: 'Plus One (Maya)',
  context: seeded('plus_one'),
  script: [
    {
      say: "I'm preparing for my salary review with my manager, Tom, next Thursday.",
      next: 'What outcome would make that conversation a success',
    },
    {
      say: 'Success would be a raise of about ten percent, or at least a clear path to the senior title by spring.',
      next: 'What does the other person care about most',
    },
    {
      ask: { ask: 'Sorry, before I answer: what is your background, Maya?', expect: ['negotiation trainer'] },
      say: 'Budget, I think.',
      next: null,
    },
    {
      say: 'He cares about keeping the team stable, and he is worried about the budget freeze this year.',
      next: 'How would you open the conversation',
    },
    {
      say: 'I would say: Tom, thanks for the time. I want to talk about my growth here and how my pay reflects it.',
      next: 'What is the hardest thing they could say back',
    },
    {
      ask: { ask: 'How do you prepare your own important conversations?', expect: ['one opening'] },
      say: 'He could say there is no budget. I would ask what I would need to show to get the raise in the next cycle.',
      next: 'Where are you willing to be flexible',
    },
    {
      say: 'I can be flexible on timing, but I will not accept no raise and no plan at all.',
      next: 'How will you close the conversation',
    },
    {
      say: 'I will summarise what we agreed and ask for a follow-up meeting in four weeks.',
      next: 'What is the one thing you want to remember',
    },
    { say: 'To stay calm and ask questions instead of arguing.', next: null },
  ],
};
