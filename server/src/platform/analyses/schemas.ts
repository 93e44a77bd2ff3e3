import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { listName, Nullable, Timestamp } from '../../core/http/schemas.ts';

/** One speech metric: filler words, weak words, repetitions or sentence starters. */
export const SpeechMetricSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Occurrences counted (the sum of `items[].count`).' }),
    per_minute: Nullable(
      Type.Number({
        description:
          'Occurrences in spoken sentences per minute of the participant’s speaking time; null when the participant only typed.',
      }),
    ),
    items: Type.Array(Type.Object({ text: Type.String(), count: Type.Integer() }), {
      description: 'What was counted, most frequent first.',
    }),
    examples: Type.Array(Type.String(), { description: 'Up to 3 verbatim snippets of the participant.' }),
  },
  { $id: 'SpeechMetric', title: 'SpeechMetric' },
);

export const HighlightSchema = Type.Object(
  {
    title: Type.String(),
    timestamp: Type.String({ description: 'Offset into the meeting, `MM:SS`.', examples: ['03:41'] }),
  },
  { $id: 'AnalysisHighlight', title: 'AnalysisHighlight' },
);

export const GoalDefinitionSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    instructions: Nullable(Type.String()),
    metrics: Nullable(Type.Object({}, { additionalProperties: true })),
    scenario_id: Nullable(Type.String()),
    active: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'AnalysisGoalDefinition',
    title: 'AnalysisGoalDefinition',
    description: 'The goal as it was defined when it was scored.',
  },
);

const ScoreMin = Type.Number({
  description:
    'The low end of the goal\'s score range, read from its instructions (docs/analysis.md, "Score range"; 0 by default).',
});
const ScoreMax = Type.Number({
  description:
    "The high end of the goal's score range (100 by default): a score reads `score` out of `score_max`.",
});

const SentenceIds = Type.Array(Type.Integer(), {
  description:
    'Ids of the transcript sentences the result rests on, in transcript order; empty when the language model scored it.',
});

/** `GoalResults[]` of the standalone analysis (spec: id, goal_id, score, feedback). */
export const StandaloneGoalResult = Type.Object(
  {
    id: Type.String(),
    goal_id: Nullable(Type.String({ description: 'Null when the goal has been deleted since.' })),
    score: Type.Number(),
    score_min: ScoreMin,
    score_max: ScoreMax,
    feedback: Type.String(),
    sentence_ids: SentenceIds,
  },
  { $id: 'GoalResult', title: 'GoalResult' },
);

/** `analysis.goal_results[]` of a meeting read (spec: short_description, long_description, score, goal). */
export const EmbeddedGoalResult = Type.Object(
  {
    short_description: Type.String(),
    long_description: Type.String({
      description: 'How the score was reached (the evaluator, its rubric and the evidence it counted).',
    }),
    score: Type.Number(),
    score_min: ScoreMin,
    score_max: ScoreMax,
    feedback: Type.String({
      description: 'Feedback for the participant: what they did, and what to do next.',
    }),
    sentence_ids: SentenceIds,
    goal: GoalDefinitionSchema,
  },
  { $id: 'MeetingAnalysisGoalResult', title: 'MeetingAnalysisGoalResult' },
);

const analysisFields = {
  id: Type.String(),
  meeting_id: Type.String(),
  scenario_id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  call_summary: Type.String(),
  average_score: Nullable(Type.Number({ description: 'Mean of the goal scores; null without goals.' })),
  total_score: Nullable(Type.Number({ description: 'Sum of the goal scores; null without goals.' })),
  strengths: Type.Array(Type.String()),
  growth_areas: Type.Array(Type.String()),
  recommendations: Type.Array(Type.String()),
  highlights: Type.Array(HighlightSchema),
  conversation_length: Type.Integer({ description: 'Length of the meeting in seconds.' }),
  repetitions: SpeechMetricSchema,
  filler_words: SpeechMetricSchema,
  weak_words: SpeechMetricSchema,
  sentence_starters: SpeechMetricSchema,
  participant_word_count: Type.Integer(),
  participant_speaking_minutes: Type.Number({ description: 'Minutes the participant spent speaking.' }),
  participant_input: Type.Union(
    [Type.Literal('voice'), Type.Literal('typed'), Type.Literal('mixed'), Type.Literal('none')],
    { description: 'How the participant’s sentences came in; `none` when the participant said nothing.' },
  ),
  evaluator: Type.Union([Type.Literal('llm'), Type.Literal('offline')], {
    description:
      '`llm`: goal results and texts from the platform model; `offline`: the rule-based evaluator.',
  }),
  evaluator_reason: Nullable(
    Type.String({
      description:
        'Why the offline evaluator wrote the analysis although a model is configured (its reply stayed invalid); null otherwise.',
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** The standalone analysis of the /analyses routes. */
export const Analysis = Type.Object(
  {
    ...analysisFields,
    Meeting: Type.Object(
      { id: Type.String(), person_name: Nullable(Type.String()), created_at: Timestamp },
      { $id: 'AnalysisMeeting', title: 'AnalysisMeeting' },
    ),
    GoalResults: Type.Array(StandaloneGoalResult),
  },
  { $id: 'Analysis', title: 'Analysis' },
);

/** The `analysis` embedded in GET /meetings/{id} (present only when analysis_status is completed). */
export const MeetingAnalysis = Type.Object(
  { ...analysisFields, goal_results: Type.Array(EmbeddedGoalResult) },
  {
    $id: 'MeetingAnalysis',
    title: 'MeetingAnalysis',
    description: 'Present only when analysis_status is completed.',
  },
);

export const AnalysisList = Type.Union([
  Type.Array(Analysis),
  Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(Analysis),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String()),
    },
    listName(Analysis, 'Page'),
  ),
]);

export const AnalysisListQuery = PageQuery;

export const AnalysisIdParams = Type.Object({ id: Type.String({ description: 'Analysis id (UUID).' }) });
export const MeetingIdParams = Type.Object({ meetingId: Type.String({ description: 'Meeting id (UUID).' }) });
export const ScenarioIdParams = Type.Object({
  scenarioId: Type.String({ description: 'Scenario id (UUID).' }),
});

export const TriggerResponse = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({
      meeting_id: Type.String(),
      analysis_status: Type.Literal('processing'),
      job_id: Type.String({ description: 'The background job that runs the analysis.' }),
    }),
  },
  { $id: 'AnalysisTriggered', title: 'AnalysisTriggered' },
);
