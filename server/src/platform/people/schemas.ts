import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Groups = Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
  maxItems: 20,
  description:
    'The groups they are in ("Sales EMEA", "Q1 cohort"): assign practice to a group at once. Trimmed; each name once, whatever its case.',
});
const ExternalId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Your own id for this person (your LMS or HR system’s), unique in the workspace.',
});

export const Person = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    external_id: Nullable(Type.String()),
    groups: Type.Array(Type.String(), { description: 'The groups they are in.' }),
    meeting_count: Type.Optional(Type.Integer({ description: 'Meetings linked to this person.' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Person', title: 'Person' },
);

export const PersonCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(Nullable(Email)),
    external_id: Type.Optional(Nullable(ExternalId)),
    groups: Type.Optional(Groups),
  },
  {
    additionalProperties: false,
    $id: 'PersonCreate',
    title: 'PersonCreate',
    examples: [
      { name: 'Sam Lee', email: 'sam@example.com', external_id: 'emp-1042', groups: ['Sales EMEA'] },
    ],
  },
);

export const PersonUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Nullable(Email)),
    external_id: Type.Optional(Nullable(ExternalId)),
    groups: Type.Optional(Groups),
  },
  {
    additionalProperties: false,
    $id: 'PersonUpdate',
    title: 'PersonUpdate',
    examples: [{ name: 'Sam Lee-Park' }],
  },
);

export const PersonParams = Type.Object({ person_id: Type.String() });

export const PeopleQuery = Type.Object({
  ...PageQuery.properties,
  email: Type.Optional(
    Type.String({ maxLength: 254, description: 'Only the person with this e-mail (any case).' }),
  ),
  external_id: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only the person with this external id.' }),
  ),
  group: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'Only the people in this group (its exact name).',
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Name or e-mail contains this, ignoring case.',
    }),
  ),
});

const Score = {
  score: Type.Number(),
  score_min: Type.Number(),
  score_max: Type.Number(),
};

export const PersonProgress = Type.Object(
  {
    person: Person,
    meetings: Type.Array(
      Type.Object({
        id: Type.String(),
        scenario: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
        status: Type.String(),
        at: { ...Timestamp, description: 'When it ended (or started, or was created, while it had not).' },
        duration_seconds: Nullable(Type.Integer()),
        analysis_status: Type.String(),
        average_score: Nullable(Type.Number()),
        summary: Nullable(Type.String()),
        goal_results: Type.Array(
          Type.Object({
            goal_id: Nullable(Type.String()),
            name: Type.String(),
            ...Score,
            feedback: Type.String({ description: 'What the analysis told them about this goal.' }),
          }),
        ),
      }),
      { description: 'Every meeting of this person, oldest first.' },
    ),
    goals: Type.Array(
      Type.Object({
        goal_id: Nullable(Type.String()),
        name: Type.String(),
        points: Type.Array(Type.Object({ meeting_id: Type.String(), at: Timestamp, ...Score })),
      }),
      { description: 'One series per goal they were scored on: their scores over time.' },
    ),
  },
  { $id: 'PersonProgress', title: 'PersonProgress' },
);

export const PeopleGroups = Type.Object(
  {
    status: Type.Literal('success'),
    data: Type.Array(Type.Object({ name: Type.String(), people: Type.Integer() }), {
      description: 'Each group with how many people are in it, by name.',
    }),
  },
  { $id: 'PeopleGroups', title: 'PeopleGroups' },
);
