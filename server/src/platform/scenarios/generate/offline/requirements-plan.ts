// A requirements conversation: the participant leads (a business analyst or product manager
// interviewing a stakeholder), so the persona answers from the situation the brief describes
// instead of pushing back, and the goals score the questions, the facts found and the playback.
import type { GenerationInput } from '../schema.ts';
import type { findCounterpart, TextFacts } from './facts.ts';
import { type Plan, scriptFor } from './plan.ts';
import { shorten } from './text.ts';

/** A brief about gathering requirements or understanding a stakeholder's needs, not selling. */
export const REQUIREMENTS_BRIEF =
  /\brequirements? (?:gathering|elicitation|workshop|interview)|\bgather(?:ing)? (?:the )?requirements|\b(?:user|stakeholder|customer) interview|\bunderstand (?:their|the client'?s?|the customer'?s?) needs\b/i;

export function requirementsPlan(
  facts: TextFacts,
  input: GenerationInput,
  counterpart: ReturnType<typeof findCounterpart>,
): Plan {
  const organisation = counterpart?.organisation ?? facts.company;
  const title = counterpart?.title ?? 'Stakeholder';
  const topic = facts.topic ?? 'gathering the requirements for a new system';
  const questions = [
    'Thanks for making the time. Where would you like to start?',
    'Before we talk about solutions: what would you like to know about how we work today?',
    'That is the part that hurts most for us. What else do you need to understand about it?',
    'Who else on our side should you be talking to, do you think?',
    'What would help you separate what we must have from what would be nice?',
    'Can you play back what you have heard so far, so I can check you have it right?',
    'What happens next, and what do you need from me?',
  ];
  return {
    personaTitle: `${title}${organisation ? `, ${organisation}` : ''}`,
    demeanor: counterpart?.demeanor ?? 'friendly',
    name: shorten(`Requirements conversation with ${organisation ?? `a ${title.toLowerCase()}`}`, 100),
    description: `A ${input.duration}-minute requirements conversation: ${topic}.`,
    roleLine: `The participant is gathering requirements from you. Answer their questions from the background below, one or two facts at a time, in the first person; do not volunteer everything at once.`,
    context: [
      `What the participant wants to practise: ${topic}`,
      ...facts.situation.map((s) => `Background (in the participant’s words): ${s}`),
    ],
    questions: scriptFor(questions, input.duration),
    rules: [
      'Stay in character for the whole call; never mention that this is a simulation.',
      'Answer what you are asked; for something the background does not cover, give a plausible, consistent answer or say you would need to check with your team.',
      'If the participant jumps to solutions before understanding the problem, steer back to how things work today.',
      `Keep answers short, and the conversation within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: 'Open questions',
        description: 'Did the participant lead with open questions and build on the answers?',
        instructions:
          'Score 1-10. 9-10: mostly open questions, each following up on what was said. 5-8: some open questions, partly a checklist. 1-4: few questions, or leading ones.',
      },
      {
        name: 'Facts uncovered',
        description:
          'Did the participant find out the current process, the pain, the users, the constraints and how success is measured?',
        instructions:
          'Score 1-10. 9-10: all five areas covered with specifics. 5-8: three or four areas. 1-4: two or fewer.',
      },
      {
        name: 'Playback',
        description: 'Did the participant summarise what they heard and check it with the stakeholder?',
        instructions:
          'Score 1-10. 9-10: an accurate summary, checked and corrected. 5-8: a partial summary. 1-4: no playback.',
      },
      {
        name: 'Agreed next step',
        description: 'Did the conversation end with a concrete next step?',
        instructions:
          'Score 1-10. 9-10: a specific next step with owner and date was agreed. 5-8: a vague next step. 1-4: no next step.',
      },
    ],
    background: `${title}${organisation ? ` at ${organisation}` : ''}; knows the day-to-day work and its problems well, is busy but cooperative, and answers in plain business language.`,
  };
}
