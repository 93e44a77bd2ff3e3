// The room's HTTP bodies (docs/realtime.md), shared with the `joined` frame of the WebSocket.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { Sentence } from '../meetings/schemas.ts';
import { CoachComment, goalResultFields, PractiseNext } from '../reports/schemas.ts';

export const RoomMeeting = Type.Object(
  {
    id: Type.String(),
    status: Type.String({ description: '`created`, `active` or `ended`.', examples: ['created'] }),
    person_name: Nullable(Type.String()),
    started_at: Nullable(Timestamp),
    ends_at: Nullable(
      Type.String({ format: 'date-time', description: 'When the duration limit ends the call.' }),
    ),
    ended_at: Nullable(Timestamp),
    end_reason: Nullable(Type.String()),
    duration_limit_seconds: Type.Integer(),
  },
  { $id: 'RoomMeeting', title: 'RoomMeeting' },
);

const RoomVoice = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    language: Type.String(),
    browser_voice_hints: Type.Array(Type.String()),
    tts_voice: Type.String(),
  },
  { $id: 'RoomVoice', title: 'RoomVoice' },
);

const RoomPersona = Type.Object(
  {
    name: Type.String(),
    job_title: Type.String(),
    avatar_url: Nullable(Type.String()),
    gender: Nullable(Type.String()),
    voice: Nullable(RoomVoice),
  },
  { $id: 'RoomPersona', title: 'RoomPersona' },
);

const RoomSpeech = Type.Object(
  {
    recognition: Nullable(
      Type.String({ description: '`pocketsphinx`, `openai-compatible`, or null: send text utterances.' }),
    ),
    synthesis: Nullable(
      Type.String({ description: '`flite`, `openai-compatible`, or null: no `agent.audio`.' }),
    ),
    input: Type.Object({
      encoding: Type.Literal('pcm_s16le'),
      sample_rate: Type.Integer({ examples: [16000] }),
      channels: Type.Integer({ examples: [1] }),
    }),
  },
  { $id: 'RoomSpeech', title: 'RoomSpeech' },
);

/** What the room shows before and during the call: never the prompt, goals or tools. */
export const roomWelcomeFields = {
  meeting: RoomMeeting,
  scenario: Type.Object({ name: Type.String(), description: Nullable(Type.String()), type: Type.String() }),
  persona: Nullable(RoomPersona),
  recording: Type.Object({
    enabled: Type.Boolean(),
    consent_required: Type.Boolean(),
    max_bytes: Type.Integer(),
  }),
  controls: Type.Object({
    allow_participant_end: Type.Boolean(),
    show_timer: Type.Boolean(),
    share_results_with_participant: Type.Boolean({
      description:
        'After the end, `GET /v1/rooms/{meetingId}/results` answers with the participant’s results.',
    }),
  }),
  speech: RoomSpeech,
  live_path: Type.String({ description: 'The WebSocket path (add `?t=<room_token>`).' }),
  server_time: Timestamp,
};

export const RoomWelcome = Type.Object(roomWelcomeFields, { $id: 'RoomWelcome', title: 'RoomWelcome' });

/** A transcript sentence as the room sees it: the meeting's `Sentence` and its offset in ms. */
export const RoomSentence = Type.Object(
  {
    ...Sentence.properties,
    start_ms: Type.Integer({ description: 'Offset from the meeting start, in milliseconds.' }),
  },
  { $id: 'RoomSentence', title: 'RoomSentence' },
);

export const RoomTranscript = Type.Object(
  {
    status: Type.String(),
    end_reason: Nullable(Type.String()),
    sentences: Type.Array(RoomSentence),
  },
  { $id: 'RoomTranscript', title: 'RoomTranscript' },
);

export const RoomUpload = Type.Object(
  {
    status: Type.Literal('uploaded'),
    size: Type.Integer(),
    content_type: Type.String(),
  },
  { $id: 'RoomUpload', title: 'RoomUpload' },
);

const RoomGoalResult = Type.Object(goalResultFields, { $id: 'RoomGoalResult', title: 'RoomGoalResult' });

export const RoomResults = Type.Object(
  {
    status: Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('unavailable')], {
      description:
        '`pending` while the analysis runs (ask again in a few seconds), `ready` with `results`, `unavailable` when the analysis failed.',
    }),
    results: Nullable(
      Type.Object(
        {
          goals: Type.Array(RoomGoalResult, { description: 'Score per goal, in the scenario’s order.' }),
          strengths: Type.Array(Type.String()),
          growth_areas: Type.Array(Type.String()),
          practise_next: PractiseNext,
          completed_at: Timestamp,
          coach_comment: CoachComment,
        },
        { $id: 'RoomResultsData', title: 'RoomResultsData' },
      ),
    ),
  },
  { $id: 'RoomResults', title: 'RoomResults' },
);
