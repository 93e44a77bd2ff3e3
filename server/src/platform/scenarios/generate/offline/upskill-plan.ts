// A coaching session on one skill: reflect on a real situation, practise, leave with a plan.
import type { GenerationInput } from '../schema.ts';
import type { TextFacts } from './facts.ts';
import { type Plan, scriptFor } from './plan.ts';
import { shorten } from './text.ts';

export function upskillPlan(facts: TextFacts, input: GenerationInput): Plan {
  const focus = facts.topic
    ?.replace(
      /^(?:to\s+)?(?:practi[cs]e|improve(?: my| at)?|work on|get better at|train(?: on)?|learn(?: to| how to)?|coach me on|prepare for)\s+/i,
      '',
    )
    .replace(/^(?:my|our)\s+/i, '');
  // "giving feedback clearly, and agree on a plan" → the skill is the first part.
  const skill =
    focus?.split(/,\s+(?:and|then)\s+/)[0] ||
    facts.skills[0] ||
    'the skill the participant wants to practise';
  const questions = [
    `Which part of ${skill} would you like to get better at in this session?`,
    'Can you describe a recent situation where this really mattered?',
    'What did you do, step by step?',
    'What went well, and what would you do differently next time?',
    'Let us practise it now: how would you handle that moment if it happened again today?',
    'What is one concrete thing you will try the next time it comes up?',
    'How will you know that it is working?',
  ];
  return {
    personaTitle: 'Coach',
    demeanor: 'empathetic',
    name: shorten(`Practice: ${skill}`, 100),
    description: `A ${input.duration}-minute coaching session to practise ${focus || skill}.`,
    roleLine: `You are a supportive coach helping the participant practise ${skill}.`,
    context: [
      `Focus: ${skill}`,
      ...facts.situation.map((s) => `Situation (in the participant’s words): ${s}`),
      ...facts.skills.slice(1, 5).map((s) => `Related skill: ${s}`),
    ],
    questions: scriptFor(questions, input.duration),
    rules: [
      'Ask one question at a time; let the participant do most of the talking.',
      'Reflect back what you heard before moving on, and give one specific, kind suggestion at a time.',
      `Keep the session within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: 'Self-reflection',
        description: 'Did the participant analyse their own behaviour honestly?',
        instructions:
          'Score 1-10. 9-10: specific about what they did and why, names what to change. 5-8: some reflection. 1-4: vague or defensive.',
      },
      {
        name: 'Applying the skill',
        description: `Did the participant apply ${skill} during the practice?`,
        instructions:
          'Score 1-10. 9-10: applied the technique convincingly in the practice. 5-8: partly applied. 1-4: did not apply it.',
      },
      {
        name: 'Action plan',
        description: 'Did the participant leave with a concrete next action and a way to measure it?',
        instructions:
          'Score 1-10. 9-10: a specific action, when they will do it and how they will measure it. 5-8: an action without measure. 1-4: none.',
      },
    ],
    background:
      'An experienced coach who asks good questions, listens closely and gives practical, encouraging feedback.',
  };
}
