import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const ReportEvidence = Type.Object(
  {
    sentence_id: Type.Integer({ description: 'The transcript sentence.' }),
    text: Type.String({ description: 'The participant’s own words, as stored.' }),
    start_ms: Type.Integer({ description: 'When it was said, in milliseconds from the start.' }),
    start: Type.String({ description: '`MM:SS` from the start.', examples: ['03:41'] }),
  },
  { $id: 'ReportEvidence', title: 'ReportEvidence' },
);

/** A goal's result as the participant may read it (the room's results and the learner report). */
export const goalResultFields = {
  name: Type.String({ description: 'The goal’s name (never its description or instructions).' }),
  score: Type.Number(),
  score_min: Type.Number({ description: 'Low end of the goal’s score range.' }),
  score_max: Type.Number({ description: 'High end of the goal’s score range.' }),
  feedback: Type.String(),
  evidence: Type.Array(ReportEvidence, {
    description:
      'Up to 3 of the participant’s sentences the score rests on, in the order said; empty when the language model scored it.',
  }),
};

export const PractiseItem = Type.Object(
  {
    goal: Nullable(Type.String({ description: 'The goal this is about; null for general advice.' })),
    text: Type.String(),
  },
  { $id: 'RoomPractiseItem', title: 'RoomPractiseItem' },
);

export const PractiseNext = Type.Array(PractiseItem, {
  description:
    'At most 4: the feedback of the lowest-scored goals (below 80 % of their range) first, then the analysis’s recommendations.',
});

export const CoachComment = Nullable(
  Type.Object(
    {
      text: Type.String(),
      author: Nullable(Type.String({ description: 'The coach’s name; null once they have left.' })),
      updated_at: Timestamp,
    },
    { $id: 'CoachComment', title: 'CoachComment' },
  ),
);

const ReportGoalResult = Type.Object(goalResultFields, {
  $id: 'ReportGoalResult',
  title: 'ReportGoalResult',
});

export const LearnerReport = Type.Object(
  {
    meeting: Type.Object({
      id: Type.String(),
      status: Type.String(),
      person_id: Nullable(Type.String()),
      person_name: Nullable(Type.String()),
      scenario: Type.Object({ id: Type.String(), name: Type.String() }),
      persona_name: Nullable(Type.String()),
      started_at: Nullable(Timestamp),
      ended_at: Nullable(Timestamp),
      duration_seconds: Nullable(Type.Integer()),
    }),
    shared_with_participant: Type.Boolean({
      description:
        'The scenario shares results: the participant sees this report (without the summary for the team) through their meeting link.',
    }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('unavailable')], {
      description:
        '`pending` until the analysis is written, `ready` with `results`, `unavailable` when it failed.',
    }),
    results: Nullable(
      Type.Object({
        goals: Type.Array(ReportGoalResult, { description: 'Score per goal, in the scenario’s order.' }),
        average_score: Nullable(Type.Number()),
        strengths: Type.Array(Type.String()),
        growth_areas: Type.Array(Type.String()),
        practise_next: PractiseNext,
        completed_at: Timestamp,
      }),
    ),
    coach_comment: CoachComment,
  },
  { $id: 'LearnerReport', title: 'LearnerReport' },
);

export const CommentBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 5000,
      description:
        'The coach’s comment, shown on the report (and to the participant when results are shared).',
    }),
  },
  {
    additionalProperties: false,
    $id: 'CoachCommentBody',
    title: 'CoachCommentBody',
    examples: [{ text: 'Great discovery questions. Next time, confirm the budget before the demo.' }],
  },
);

export const MeetingParams = Type.Object({ id: Type.String({ description: 'Meeting id (UUID).' }) });
