import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { MeetingAnalysis } from '../analyses/schemas.ts';
import { TAG_PATTERN } from '../memories/facts.ts';
import { Scenario } from '../scenarios/schemas.ts';

export const MEETING_TYPES = ['regular', 'end-user'] as const;
export const END_REASONS = [
  'participant_left',
  'duration_limit',
  'ended_by_api',
  'agent_ended',
  'script_complete',
  'idle_timeout',
] as const;
export type EndReason = (typeof END_REASONS)[number];

export const CreateMeetingBody = Type.Object(
  {
    scenario_id: Type.String({ description: 'A scenario of your workspace.' }),
    person_name: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'The participant’s name; the persona addresses them by it.',
      }),
    ),
    person_email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description:
          'The participant’s e-mail address, shown as `participants[].email`. Default: for a regular meeting, the address of the member it is created for; for an end-user meeting, none (`null`).',
      }),
    ),
    person_id: Type.Optional(
      Type.String({
        description:
          'The person of your workspace who takes part (GET /v1/people). Without it the person is found or made from `person_external_id`, `person_email` or `person_name` (docs/people.md).',
      }),
    ),
    person_external_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Your own id for the participant: the meeting joins (or makes) the person with this external id.',
      }),
    ),
    meeting_type: Type.Optional(
      Type.Enum(MEETING_TYPES, {
        description:
          '`regular` (default): a member of your workspace practises. `end-user`: someone outside it (your customer’s user) takes part.',
      }),
    ),
    note_context: Type.Optional(
      Type.String({
        maxLength: 10_000,
        description:
          'Per-session context given to the AI (appended to its instructions) without changing the scenario.',
      }),
    ),
    user_memory_tag: Type.Optional(
      Type.String({
        pattern: TAG_PATTERN,
        description:
          'Memory container the call reads at the start (when the scenario’s memory is on) and the analysis adds to. Default: the participant’s own container (`membership:<id>` for regular meetings, `participant:<id>` for end-user meetings).',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        scenario_id: '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e',
        person_name: 'Sam Lee',
        meeting_type: 'regular',
        note_context: 'Sam is applying for the senior role; focus on system design.',
      },
    ],
  },
);

export const CreatedMeeting = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    id: Type.String(),
    room_meeting_url: Type.String({
      description: 'The embeddable video room. Load it with `?t=<room_token>`.',
      examples: ['https://understudy.example.com/room/5b1f0c2e-…'],
    }),
    room_token: Type.String({
      description: 'Opens the room. Returned only here; store it if you need it later.',
    }),
    meeting_url: Type.String({
      description:
        'A full browser page for the meeting, with the room token already in it (`?t=<room_token>`): hand it to the participant as it is.',
      examples: ['https://understudy.example.com/meetings/5b1f0c2e-…?t=…'],
    }),
    status: Type.Literal('created'),
  }),
});

export const Participant = Type.Object(
  {
    id: Type.String(),
    email: Nullable(
      Type.String({
        description:
          'The participant’s address: `person_email` when the meeting was created with one, else the member’s for a regular meeting; `null` only for an end-user meeting created without one.',
      }),
    ),
    name: Nullable(Type.String()),
    role: Type.String({ examples: ['participant'] }),
    source: Type.String({
      examples: ['room'],
      description: 'How they take part: `room` (the browser room or the realtime protocol).',
    }),
    joined_at: Nullable(Timestamp),
    left_at: Nullable(Timestamp),
    is_self: Type.Boolean({
      description: 'True for regular meetings: the participant is a member of your workspace.',
    }),
  },
  { $id: 'Participant', title: 'Participant' },
);

export const Sentence = Type.Object(
  {
    id: Type.Integer(),
    transcript_id: Type.Integer(),
    speaker: Type.String({
      description: '`user` (the participant) or `agent` (the persona).',
      examples: ['user'],
    }),
    message: Type.String(),
    start_duration: Type.String({
      description: 'Offset from the meeting start, `MM:SS`.',
      examples: ['02:05'],
    }),
    start_ms: Type.Integer({
      minimum: 0,
      description:
        'Offset from the meeting start in milliseconds: where the sentence begins in the recording (`start_duration` is it rounded down to the second).',
      examples: [125400],
    }),
    sequence_number: Type.Integer(),
    provider: Nullable(
      Type.String({
        description:
          'Persona sentences: who spoke it. `welcome` (the opening line), `custom_agent`, `llm`, `offline` ' +
          '(the embedded script engine, also when it stood in for a failed provider) or `apology` (every ' +
          'provider failed). Null for the participant.',
        examples: ['llm'],
      }),
    ),
  },
  { $id: 'Sentence', title: 'Sentence' },
);

export const Meeting = Type.Object(
  {
    id: Type.String(),
    scenario_id: Type.String(),
    membership_id: Nullable(Type.String()),
    person_name: Nullable(Type.String()),
    person_id: Nullable(
      Type.String({ description: 'The person of the workspace this meeting belongs to (docs/people.md).' }),
    ),
    meeting_type: Type.String(),
    note_context: Nullable(Type.String()),
    user_memory_tag: Nullable(Type.String()),
    status: Type.String({ description: '`created`, `active` or `ended`.', examples: ['ended'] }),
    analysis_status: Type.String({
      description:
        '`not_started`, `processing` or `completed`; `failed` after a failed run (re-triggerable, see docs/analysis.md).',
    }),
    summary: Nullable(Type.String()),
    agent_provider: Type.String({
      description: '`custom_agent`, `llm` or `offline` (the embedded script engine).',
    }),
    started_at: Nullable(Timestamp),
    ended_at: Nullable(Timestamp),
    duration_seconds: Nullable(Type.Integer()),
    end_reason: Nullable(Type.Enum(END_REASONS)),
    room_meeting_url: Type.String({
      description: 'The embeddable video room; it opens with `?t=<room_token>`.',
    }),
    meeting_url: Type.String({
      description:
        'The meeting’s browser page without the room token (stored hashed, so only the create response carries it). Opened without a valid token it redirects to the dashboard’s page of the meeting.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    Scenario: Nullable(Scenario),
    sentenced_transcripts: Type.Array(Sentence),
    participants: Type.Array(Participant),
    feedback_given_at: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'When the participant (in the room after the end) or a team member last answered the post-call questions; null when nobody has. The answer: `GET /meetings/{id}/feedback`.',
      }),
    ),
    analysis: Type.Optional(MeetingAnalysis),
  },
  { $id: 'Meeting', title: 'Meeting' },
);

export const MeetingEnvelope = Type.Object({ success: Type.Literal(true), data: Meeting });

export const EndedMeeting = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    id: Type.String(),
    status: Type.Literal('ended'),
    ended_at: Timestamp,
    duration_seconds: Type.Integer(),
    end_reason: Type.Enum(END_REASONS),
    already_ended: Type.Boolean({
      description: 'True when the meeting had ended before this call (nothing changed).',
    }),
  }),
});

export const MeetingIdParams = Type.Object({ id: Type.String({ description: 'Meeting id (UUID).' }) });

export const MEETING_STATUSES = ['created', 'active', 'ended'] as const;

export const MeetingListQuery = Type.Object({
  ...PageQuery.properties,
  scenario_id: Type.Optional(Type.String({ description: 'Only meetings of this scenario.' })),
  person_id: Type.Optional(Type.String({ description: 'Only meetings of this person (GET /v1/people).' })),
  status: Type.Optional(Type.Enum(MEETING_STATUSES, { description: 'Only meetings in this state.' })),
  person_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Only meetings whose participant’s name starts with this, ignoring case (an exact name matches too).',
    }),
  ),
  created_after: Type.Optional(
    Type.String({ format: 'date-time', description: 'Created at or after this instant (RFC 3339).' }),
  ),
  created_before: Type.Optional(
    Type.String({ format: 'date-time', description: 'Created strictly before this instant (RFC 3339).' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Search: meetings whose participant’s name or scenario’s name contains this, ignoring case.',
    }),
  ),
});

export const MeetingSummary = Type.Object(
  {
    id: Type.String(),
    scenario_id: Type.String(),
    scenario_name: Type.String(),
    person_name: Nullable(Type.String()),
    status: Type.Enum(MEETING_STATUSES),
    analysis_status: Type.String({
      description: '`not_started`, `processing`, `completed` or `failed`.',
      examples: ['completed'],
    }),
    average_score: Nullable(
      Type.Number({ description: 'Mean of the goal scores; null until analysed, or without goals.' }),
    ),
    created_at: Timestamp,
    ended_at: Nullable(Timestamp),
    duration_seconds: Nullable(Type.Integer()),
    meeting_url: Type.String(),
  },
  { $id: 'MeetingSummary', title: 'MeetingSummary' },
);
