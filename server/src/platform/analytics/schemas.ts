import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

const Percent = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 100, description }));

const WindowProperties = {
  since: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Only meetings from this moment on: a date (`2026-11-01`, UTC midnight) or a date-time (`2026-11-01T09:00:00Z`).',
      examples: ['2026-11-01'],
    }),
  ),
  until: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Only meetings before this moment: a date (the whole day is included) or a date-time (excluded).',
      examples: ['2026-11-30'],
    }),
  ),
};

export const AnalyticsWindowQuery = Type.Object(WindowProperties);

export const AnalyticsScenarioQuery = Type.Object({
  interval: Type.Optional(
    Type.Union([Type.Literal('week'), Type.Literal('month')], {
      description: 'The periods of each goal’s series: UTC weeks from Monday (default) or calendar months.',
    }),
  ),
  ...WindowProperties,
});

export const AnalyticsScenarioParams = Type.Object({ scenario_id: Type.String() });

export const AssignmentCompletion = Type.Object(
  {
    total: Type.Integer({ description: 'People assigned the scenario, one per assignment.' }),
    not_started: Type.Integer(),
    in_progress: Type.Integer(),
    done: Type.Integer(),
    overdue: Type.Integer(),
    completion_rate: Nullable(
      Type.Number({ minimum: 0, maximum: 1, description: '`done` / `total`; null when nobody is assigned.' }),
    ),
  },
  { $id: 'AssignmentCompletion', title: 'AssignmentCompletion' },
);

const ScenarioRef = Type.Object({ id: Type.String(), name: Type.String() });

export const ScenarioAnalyticsSummary = Type.Object(
  {
    scenario: ScenarioRef,
    meetings: Type.Integer({ description: 'Meetings whose analysis completed.' }),
    participants: Type.Integer({ description: 'Distinct people among those meetings.' }),
    average_percent: Percent(
      'The mean over those meetings of each meeting’s average score, as a percent of each goal’s range.',
    ),
    last_meeting_at: Nullable(Timestamp),
    assignments: AssignmentCompletion,
  },
  { $id: 'ScenarioAnalyticsSummary', title: 'ScenarioAnalyticsSummary' },
);

const GoalScore = {
  goal_id: Nullable(Type.String()),
  name: Type.String(),
};

export const ScenarioAnalytics = Type.Object(
  {
    scenario: Type.Object({ ...ScenarioRef.properties, deleted: Type.Boolean() }),
    interval: Type.Union([Type.Literal('week'), Type.Literal('month')]),
    since: Nullable(Timestamp),
    until: Nullable(Timestamp),
    summary: Type.Object({
      meetings: Type.Integer({ description: 'Analysed meetings in the window.' }),
      participants: Type.Integer(),
      meetings_without_person: Type.Integer({
        description: 'Meetings linked to no person: in the goals’ series, not among participants.',
      }),
      average_percent: Percent('The mean of the meetings’ average percent of their goals’ ranges.'),
      last_meeting_at: Nullable(Timestamp),
    }),
    goals: Type.Array(
      Type.Object({
        ...GoalScore,
        score_min: Type.Number({ description: 'The goal’s scale, as its latest result has it.' }),
        score_max: Type.Number(),
        meetings: Type.Integer({ description: 'Meetings in the window that scored this goal.' }),
        average: Nullable(Type.Number({ description: 'Their mean score, on the goal’s own scale.' })),
        series: Type.Array(
          Type.Object({
            period_start: Timestamp,
            meetings: Type.Integer(),
            average: Type.Number(),
            min: Type.Number(),
            max: Type.Number(),
          }),
          { description: 'Periods with at least one scored meeting, oldest first.' },
        ),
      }),
      { description: 'Each goal scored in the window, in the scenario’s order: the cohort over time.' },
    ),
    participants: Type.Array(
      Type.Object({
        person: Type.Object({
          id: Type.String(),
          name: Type.String(),
          email: Nullable(Type.String()),
          external_id: Nullable(Type.String()),
        }),
        meetings: Type.Integer(),
        first_average_percent: Percent('Their first meeting’s average, as a percent of the goals’ ranges.'),
        latest_average_percent: Percent('Their latest meeting’s average, as a percent.'),
        change_points: Nullable(
          Type.Number({
            description: 'Latest minus first, in percentage points; null with fewer than two meetings.',
          }),
        ),
        last_meeting_at: Nullable(Timestamp),
        latest_scores: Type.Array(
          Type.Object({
            ...GoalScore,
            score: Type.Number(),
            score_min: Type.Number(),
            score_max: Type.Number(),
          }),
          { description: 'Their latest score on each goal.' },
        ),
        assignment_status: Nullable(
          Type.Union(
            [
              Type.Literal('not_started'),
              Type.Literal('in_progress'),
              Type.Literal('done'),
              Type.Literal('overdue'),
            ],
            { description: 'Their newest assignment of this scenario; null when none.' },
          ),
        ),
      }),
      { description: 'Everyone with an analysed meeting in the window or assigned the scenario, by name.' },
    ),
    assignments: AssignmentCompletion,
  },
  { $id: 'ScenarioAnalytics', title: 'ScenarioAnalytics' },
);
