// A role-play: the counterpart the participant named (or a sceptical buyer in a sales
// conversation) pushing back, and goals that score how the participant handled it. A brief about
// gathering requirements gets a cooperative stakeholder instead (requirements-plan.ts).
import type { GenerationInput } from '../schema.ts';
import { findCounterpart, type TextFacts } from './facts.ts';
import { type Plan, scriptFor } from './plan.ts';
import { REQUIREMENTS_BRIEF, requirementsPlan } from './requirements-plan.ts';
import { sentenceCase, shorten } from './text.ts';

export function roleplayPlan(facts: TextFacts, input: GenerationInput): Plan {
  const topic = facts.topic ?? 'the conversation the participant asked for';
  const counterpart = findCounterpart(input.userInput);
  const organisation = counterpart?.organisation ?? facts.company;
  const company = organisation ?? 'your company';
  const sales = /\b(?:sell|sales|pitch|prospect|demo|deal|renewal|upsell|purchase|buy)\w*/i.test(
    input.userInput,
  );
  if (!sales && REQUIREMENTS_BRIEF.test(input.userInput)) return requirementsPlan(facts, input, counterpart);
  // "the Head of Operations" but "a CFO": one person holds a "head of" title.
  const article =
    counterpart && /^(?:head|chief|vp|vice president|director|president)\b/i.test(counterpart.title)
      ? 'the'
      : 'a';
  const label = !sales
    ? 'Role-play'
    : /\bdiscovery\b/i.test(input.userInput)
      ? 'Discovery call'
      : 'Sales conversation';
  const questions = sales
    ? [
        'So, what did you want to talk to me about today?',
        'We already have a way of handling this. Why would we change?',
        'How exactly would this help my team day to day?',
        'What does it cost, and what is included?',
        'Honestly, that sounds expensive. How would I justify it to my boss?',
        'What happens if it does not work out the way you describe?',
        'Who else like us is using this, and what results did they see?',
        'What would the next steps be if we wanted to go ahead?',
      ]
    : [
        'So, what did you want to talk to me about?',
        'Can you explain why this matters so much to you?',
        'I see it differently. Why should I accept your view?',
        'What exactly are you asking me to do?',
        'What happens if we cannot agree on this?',
        'What would you be willing to change on your side?',
        'How do we make sure this does not happen again?',
        'So what are we agreeing on as the next step?',
      ];
  return {
    personaTitle: counterpart
      ? `${counterpart.title}${organisation ? `, ${sentenceCase(organisation)}` : ''}`
      : sales
        ? `Operations Director${organisation ? `, ${organisation}` : ''}`
        : 'Counterpart',
    demeanor: counterpart?.demeanor ?? (sales ? 'critical' : 'assertive'),
    name: shorten(
      counterpart
        ? `${label} with ${article} ${counterpart.title}${organisation ? ` (${organisation})` : ''}`
        : sentenceCase(topic),
      100,
    ),
    description: `A ${input.duration}-minute role-play: ${topic}.`,
    roleLine: sales
      ? `${counterpart ? '' : `You are a busy, sceptical buyer at ${company}. `}The participant is selling to you; what they want to practise: ${topic}.`
      : `You are the participant’s counterpart in this conversation: ${topic}. Push back realistically.`,
    context: [
      `Situation: ${topic}`,
      ...facts.situation.map((s) => `Background (in the participant’s words): ${s}`),
      ...facts.requirements.slice(0, 3).map((r) => `Detail: ${r}`),
    ],
    questions: scriptFor(questions, input.duration),
    rules: [
      'Stay in character for the whole call; never mention that this is a simulation.',
      'Raise realistic objections and only soften when the participant addresses them well.',
      'Keep replies short (one to three sentences), as in a real conversation.',
      `Keep the conversation within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: sales ? 'Discovery' : 'Understanding the other side',
        description: sales
          ? 'Did the participant ask about the buyer’s situation, pain points and impact before pitching?'
          : 'Did the participant ask questions to understand the counterpart’s view?',
        instructions:
          'Score 1-10. 9-10: asked several open questions and built on the answers. 5-8: some questions, partly generic. 1-4: talked without asking.',
      },
      {
        name: 'Handling objections',
        description: 'Did the participant acknowledge and address the pushback?',
        instructions:
          'Score 1-10. 9-10: acknowledged each objection and answered it with specifics. 5-8: addressed some objections. 1-4: ignored or argued with objections.',
      },
      {
        name: sales ? 'Value articulation' : 'Clarity of the ask',
        description: sales
          ? 'Did the participant tie the offer to the buyer’s needs in concrete terms?'
          : 'Did the participant state clearly what they want and why?',
        instructions:
          'Score 1-10. 9-10: specific, tailored and concise. 5-8: mostly clear but generic. 1-4: vague or confusing.',
      },
      {
        name: 'Agreed next step',
        description: 'Did the conversation end with a concrete next step?',
        instructions:
          'Score 1-10. 9-10: a specific next step with owner and date was agreed. 5-8: a vague next step. 1-4: no next step.',
      },
    ],
    background: sales
      ? `${counterpart ? `The ${counterpart.title}` : 'Runs operations'} at ${company}; has seen many vendors overpromise and cares about cost, risk and the effort for the team.`
      : 'Has their own priorities and constraints and is not easily persuaded, but fair when given good reasons.',
  };
}
