import { type Static, Type } from 'typebox';
import { DEMEANORS, GENDERS } from '../../personas/schemas.ts';
import { SCENARIO_TYPES } from '../schemas.ts';

/** What a generator (the LLM or the offline rules) is given. */
export interface GenerationInput {
  userInput: string;
  /** Text of the uploaded file, if any. */
  document: string | null;
  /** Session length in minutes. */
  duration: number;
}

/**
 * What a generator (the LLM or the offline rules) produces: a persona, a script and goals. The
 * same schema is the LLM's response format and the check its reply must pass.
 */
export const GeneratedScenario = Type.Object(
  {
    scenario: Type.Object(
      {
        name: Type.String({ minLength: 3, maxLength: 120 }),
        type: Type.Enum(SCENARIO_TYPES),
        description: Type.String({ minLength: 10, maxLength: 600 }),
        prompt: Type.String({ minLength: 200, maxLength: 20_000 }),
        welcome_message: Type.String({ minLength: 10, maxLength: 600 }),
      },
      { additionalProperties: false },
    ),
    persona: Type.Object(
      {
        name: Type.String({ minLength: 3, maxLength: 80 }),
        job_title: Type.String({ minLength: 2, maxLength: 100 }),
        demeanor: Type.Enum(DEMEANORS),
        gender: Type.Enum(GENDERS),
        background: Type.String({ minLength: 20, maxLength: 2000 }),
      },
      { additionalProperties: false },
    ),
    goals: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 3, maxLength: 100 }),
          description: Type.String({ minLength: 10, maxLength: 600 }),
          instructions: Type.String({ minLength: 20, maxLength: 2000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 3, maxItems: 6 },
    ),
  },
  { additionalProperties: false },
);
export type GeneratedScenario = Static<typeof GeneratedScenario>;

/** A score range a goal's instructions must state: "1-10", "0 to 100", "out of 5". */
export const SCORE_RANGE = /\b\d{1,3}\s*(?:-|–|—|to)\s*\d{1,3}\b|\bout of \d{1,3}\b/i;

/** Checks beyond the schema: numbered steps in the script and a score range in every goal. */
export function checkGenerated(value: unknown): string[] {
  const generated = value as GeneratedScenario;
  const problems: string[] = [];
  const steps = generated.scenario.prompt.split('\n').filter((line) => /^\s*\d{1,2}[.)]\s+\S/.test(line));
  if (steps.length < 3) problems.push('/scenario/prompt must contain at least 3 numbered steps (1. 2. 3.)');
  generated.goals.forEach((goal, index) => {
    if (!SCORE_RANGE.test(goal.instructions)) {
      problems.push(`/goals/${index}/instructions must state the score range, e.g. "Score 1-10"`);
    }
  });
  return problems;
}
