import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { Sentence } from '../meetings/schemas.ts';

export const Transcript = Type.Object(
  {
    id: Type.Integer(),
    meeting_id: Type.String(),
    content: Type.String({ description: 'The full text, one line per sentence: `Speaker: message`.' }),
    status: Type.String({
      description: '`completed` once the meeting is finalised; `in_progress` while it runs.',
      examples: ['completed'],
    }),
    language: Type.String({ examples: ['en'] }),
    created_at: Timestamp,
  },
  { $id: 'Transcript', title: 'Transcript' },
);

export const ScenarioInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    description: Nullable(Type.String()),
    persona_name: Nullable(Type.String()),
  },
  { $id: 'ScenarioInfo', title: 'ScenarioInfo' },
);

export const MeetingInfo = Type.Object(
  {
    id: Type.String(),
    person_name: Nullable(Type.String()),
    status: Type.String(),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    ended_at: Nullable(Timestamp),
    duration_seconds: Nullable(Type.Integer()),
  },
  { $id: 'MeetingInfo', title: 'MeetingInfo' },
);

export const ScenarioTranscripts = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    scenario_info: ScenarioInfo,
    meetings: Type.Array(
      Type.Object({
        meeting_id: Type.String(),
        person_name: Nullable(Type.String()),
        created_at: Timestamp,
        transcripts: Type.Array(
          Type.Object({ transcript_id: Type.Integer(), sentences: Type.Array(Sentence) }),
        ),
      }),
    ),
  }),
  object: Type.Optional(Type.Literal('list')),
  has_more: Type.Optional(Type.Boolean()),
  next_cursor: Type.Optional(Nullable(Type.String())),
});

export const TranscriptSentences = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    sentences: Type.Array(Sentence),
    meeting_info: MeetingInfo,
    scenario_info: ScenarioInfo,
  }),
});
