// A brainstorm: frame the problem, produce ideas, pick one to test.
import type { GenerationInput } from '../schema.ts';
import type { TextFacts } from './facts.ts';
import { type Plan, scriptFor } from './plan.ts';
import { shorten } from './text.ts';

export function brainstormPlan(facts: TextFacts, input: GenerationInput): Plan {
  const topic =
    facts.topic?.replace(
      /^(?:let's\s+)?brainstorm(?:ing)?\s+(?:ideas?\s+|some ideas?\s+)?(?:to|for|on|about|around|how to)?\s*/i,
      '',
    ) || 'the problem the participant brought';
  const questions = [
    'What problem are we trying to solve today, in one sentence?',
    'Who is most affected by this problem, and how?',
    'What ideas do you already have, even rough ones?',
    'If there were no constraints at all, what would you try?',
    'Which idea is the cheapest to test, and how would you test it?',
    'What could make the best idea fail?',
    'Which idea would you take forward first, and what is the first step?',
  ];
  return {
    personaTitle: 'Innovation Partner',
    demeanor: 'enthusiastic',
    name: shorten(`Brainstorm: ${topic}`, 100),
    description: `A ${input.duration}-minute brainstorming session: ${topic}.`,
    roleLine: `You are a curious, energetic thinking partner helping the participant brainstorm: ${topic}.`,
    context: [`Topic: ${topic}`, ...facts.requirements.slice(0, 3).map((r) => `Constraint: ${r}`)],
    questions: scriptFor(questions, input.duration),
    rules: [
      'Encourage quantity first, judgement later; build on the participant’s ideas.',
      'Ask one question at a time and keep replies short.',
      `Keep the session within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: 'Problem framing',
        description: 'Did the participant define the problem and who it affects?',
        instructions:
          'Score 1-10. 9-10: crisp problem statement with the affected people. 5-8: partial. 1-4: unclear.',
      },
      {
        name: 'Idea generation',
        description: 'How many distinct, relevant ideas did the participant produce?',
        instructions:
          'Score 1-10. 9-10: five or more distinct ideas. 5-8: three or four. 1-4: fewer than three.',
      },
      {
        name: 'Prioritisation',
        description: 'Did the participant choose an idea and a first step to test it?',
        instructions:
          'Score 1-10. 9-10: chose with reasons and a concrete test. 5-8: chose without a test. 1-4: no choice.',
      },
    ],
    background:
      'A product strategist who loves early-stage ideas and asks questions that open up new angles.',
  };
}
