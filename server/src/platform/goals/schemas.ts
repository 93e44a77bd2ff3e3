import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const GOAL_NAME_MAX = 100;
export const GOAL_DESCRIPTION_MAX = 5000;
export const GOAL_INSTRUCTIONS_MAX = 10_000;
/** Serialised size of `metrics`. */
export const GOAL_METRICS_MAX_BYTES = 10_000;
export const GOAL_BULK_MAX = 100;

const Metrics = Nullable(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'Custom evaluation metrics, passed to the evaluator as given (max 10,000 bytes as JSON).',
    },
  ),
);

const fields = {
  name: Type.String({
    minLength: 1,
    maxLength: GOAL_NAME_MAX,
    description: 'Required; at most 100 characters.',
  }),
  description: Nullable(
    Type.String({ maxLength: GOAL_DESCRIPTION_MAX, description: 'What the goal measures (owner-facing).' }),
  ),
  instructions: Nullable(
    Type.String({
      maxLength: GOAL_INSTRUCTIONS_MAX,
      description: 'Scoring instructions for the evaluator, including the score range (e.g. "Score 1-10").',
    }),
  ),
  metrics: Metrics,
  scenario_id: Nullable(Type.String({ description: 'Direct link to a scenario of this workspace.' })),
  active: Type.Boolean({ description: 'Inactive goals are not scored. Default true.' }),
  scenarios: Type.Array(Type.String(), {
    maxItems: 100,
    description: 'Scenario ids to associate the goal with (legacy).',
  }),
};

const example = {
  name: 'Discovery questions',
  description: 'Did the participant uncover the customer’s current process and pain points?',
  instructions:
    'Score 1-10. 9-10: asked open questions about process, pain and impact and followed up. 5-8: some discovery. 1-4: pitched without asking.',
  metrics: { weight: 2 },
  active: true,
};

export const CreateGoalBody = Type.Object(
  {
    name: fields.name,
    description: Type.Optional(fields.description),
    instructions: Type.Optional(fields.instructions),
    metrics: Type.Optional(fields.metrics),
    scenario_id: Type.Optional(fields.scenario_id),
    active: Type.Optional(fields.active),
    scenarios: Type.Optional(fields.scenarios),
  },
  { additionalProperties: false, examples: [example] },
);

export const UpdateGoalBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    description: Type.Optional(fields.description),
    instructions: Type.Optional(fields.instructions),
    metrics: Type.Optional(fields.metrics),
    scenario_id: Type.Optional(fields.scenario_id),
    active: Type.Optional(fields.active),
    scenarios: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description: 'Replaces the scenarios the goal is associated with.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ active: false }, { instructions: 'Score 1-5 …' }] },
);

export const BulkGoalsBody = Type.Object(
  { goals: Type.Array(CreateGoalBody, { minItems: 1, maxItems: GOAL_BULK_MAX }) },
  {
    additionalProperties: false,
    examples: [
      {
        goals: [
          example,
          { name: 'Next steps', instructions: 'Score 1-10 on whether a concrete next step was agreed.' },
        ],
      },
    ],
  },
);

export const Goal = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    instructions: Nullable(Type.String()),
    metrics: Metrics,
    scenario_id: Nullable(Type.String()),
    active: Type.Boolean(),
    scenarios: Type.Array(Type.String(), { description: 'Ids of the scenarios this goal scores.' }),
    membership_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Goal',
    title: 'Goal',
    examples: [
      {
        id: 'c0ffee00-1234-4abc-9def-000000000001',
        name: 'Discovery questions',
        description: 'Did the participant uncover the customer’s pain points?',
        instructions: 'Score 1-10. 9-10: open questions with follow-ups. 1-4: pitched without asking.',
        metrics: null,
        scenario_id: null,
        active: true,
        scenarios: ['2c0f3be0-cc6b-4c79-9e80-32532e8e0003'],
        membership_id: '9d2c4f1e-7b6a-4c3d-8e2f-1a0b9c8d7e6f',
        created_at: '2026-11-01T12:00:00.000Z',
        updated_at: '2026-11-01T12:00:00.000Z',
      },
    ],
  },
);

export const GoalListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 25).' }),
  ),
  cursor: Type.Optional(Type.String({ description: 'Opaque cursor from a previous page (`next_cursor`).' })),
  starting_after: Type.Optional(Type.String({ description: 'Alias of `cursor`.' })),
  scenario_id: Type.Optional(Type.String({ description: 'Only goals that score this scenario.' })),
});
