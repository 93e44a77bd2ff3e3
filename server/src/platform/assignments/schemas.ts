import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const AssignmentStatusSchema = Type.Union(
  [Type.Literal('not_started'), Type.Literal('in_progress'), Type.Literal('done'), Type.Literal('overdue')],
  {
    description:
      '`done` once a meeting started from the link has ended; `overdue` past `due_at` without one; `in_progress` with a meeting started; else `not_started`.',
  },
);

export const Assignment = Type.Object(
  {
    id: Type.String(),
    scenario: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
    due_at: Nullable(Timestamp),
    max_attempts: Type.Integer({ description: 'Meetings each person may start from their link.' }),
    note: Nullable(Type.String({ description: 'What the coach tells them, shown on the practice page.' })),
    status_counts: Type.Object({
      not_started: Type.Integer(),
      in_progress: Type.Integer(),
      done: Type.Integer(),
      overdue: Type.Integer(),
    }),
    people: Type.Array(
      Type.Object({
        person: Type.Object({ id: Type.String(), name: Type.String(), email: Nullable(Type.String()) }),
        status: AssignmentStatusSchema,
        attempts: Type.Integer({ description: 'Meetings started from their link.' }),
        completed_at: Nullable(Timestamp),
        completed_meeting_id: Nullable(Type.String()),
        emailed_at: Nullable(Timestamp),
        practice_url: Nullable(
          Type.String({
            description:
              'Their personal link: opens the practice page, no sign-in. A credential: null for viewers.',
          }),
        ),
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Assignment', title: 'Assignment' },
);

const DueAt = Nullable(
  Type.String({ format: 'date-time', description: 'When it is due (RFC 3339); null: no due date.' }),
);
const MaxAttempts = Type.Integer({
  minimum: 1,
  maximum: 20,
  description: 'Meetings each person may start (default 1).',
});
const Note = Nullable(Type.String({ maxLength: 2000 }));

export const AssignmentCreate = Type.Object(
  {
    scenario_id: Type.String(),
    person_ids: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 200,
        description: 'People of the workspace (GET /v1/people). With `groups`, or alone.',
      }),
    ),
    groups: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
        maxItems: 20,
        description:
          'Groups (GET /v1/people/groups): everyone in them when the assignment is made, besides `person_ids`.',
      }),
    ),
    due_at: Type.Optional(DueAt),
    max_attempts: Type.Optional(MaxAttempts),
    note: Type.Optional(Note),
  },
  {
    additionalProperties: false,
    $id: 'AssignmentCreate',
    title: 'AssignmentCreate',
    examples: [
      {
        scenario_id: '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e',
        person_ids: ['5f0c…'],
        groups: ['Sales EMEA'],
        due_at: '2026-12-15T17:00:00Z',
        max_attempts: 3,
      },
    ],
  },
);

export const AssignmentUpdate = Type.Object(
  { due_at: Type.Optional(DueAt), max_attempts: Type.Optional(MaxAttempts), note: Type.Optional(Note) },
  {
    additionalProperties: false,
    $id: 'AssignmentUpdate',
    title: 'AssignmentUpdate',
    examples: [{ max_attempts: 3 }],
  },
);

export const AssignmentParams = Type.Object({ assignment_id: Type.String() });

export const PracticePreview = Type.Object(
  {
    scenario: Type.Object({ name: Type.String() }),
    person: Type.Object({ name: Type.String() }),
    note: Nullable(Type.String()),
    due_at: Nullable(Timestamp),
    status: AssignmentStatusSchema,
    attempts: Type.Integer(),
    attempts_left: Type.Integer(),
  },
  { $id: 'PracticePreview', title: 'PracticePreview' },
);

export const PracticeStarted = Type.Object(
  {
    meeting_id: Type.String(),
    room_url: Type.String({ description: 'The meeting room, with its room token: open it to practise.' }),
  },
  { $id: 'PracticeStarted', title: 'PracticeStarted' },
);

export const PracticeTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const ScenarioLinkParams = Type.Object({ scenario_id: Type.String() });

export const PracticeLink = Type.Object(
  {
    scenario_id: Type.String(),
    url: Nullable(
      Type.String({
        description:
          'Opens the scenario’s practice page to anyone (no sign-in): each visitor gives a name and starts a meeting. A credential: null for viewers.',
      }),
    ),
    created_at: Timestamp,
  },
  { $id: 'PracticeLink', title: 'PracticeLink' },
);

export const OpenPracticePreview = Type.Object(
  {
    scenario: Type.Object({ name: Type.String(), description: Nullable(Type.String()) }),
    persona: Nullable(Type.Object({ name: Type.String(), job_title: Type.String() })),
  },
  { $id: 'OpenPracticePreview', title: 'OpenPracticePreview' },
);

export const OpenPracticeStart = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Who practises; the persona uses it.' }),
    email: Type.Optional(
      Nullable(
        Type.String({
          format: 'email',
          maxLength: 254,
          description:
            'Optional: kept on the meeting; it finds the visitor again among the people open links made (never someone else’s history).',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    $id: 'OpenPracticeStart',
    title: 'OpenPracticeStart',
    examples: [{ name: 'Sam Lee', email: 'sam@example.com' }],
  },
);

export const AssignmentListQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      [
        Type.Literal('not_started'),
        Type.Literal('in_progress'),
        Type.Literal('done'),
        Type.Literal('overdue'),
      ],
      { description: 'Only assignments with at least one person in this status (e.g. `overdue`).' },
    ),
  ),
  person_id: Type.Optional(Type.String({ description: 'Only assignments given to this person.' })),
});
