// The room's WebSocket messages (docs/realtime.md). Client frames are validated here; server
// frames are built by the session through the types below.
import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { Nullable } from '../../core/http/schemas.ts';
import { END_REASONS } from '../meetings/schemas.ts';
import { RoomSentence, roomWelcomeFields } from './room-schemas.ts';

export const MAX_UTTERANCE_CHARS = 4_000;
export const MAX_FRAME_BYTES = 64 * 1024;
/** The participant's microphone audio (binary frames after `audio.start`). */
export const AUDIO_INPUT = { encoding: 'pcm_s16le', sample_rate: 16_000, channels: 1 } as const;

const JoinMessage = Type.Object(
  {
    type: Type.Literal('join'),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    consent: Type.Optional(Type.Object({ recording: Type.Optional(Type.Boolean()) })),
    recording: Type.Optional(Type.Boolean()),
    client: Type.Optional(Type.Object({}, { additionalProperties: true })),
    // `output: true`: this client plays the persona's audio (agent.audio + binary frames).
    audio: Type.Optional(
      Type.Object({ output: Type.Optional(Type.Boolean()) }, { additionalProperties: true }),
    ),
  },
  { additionalProperties: true, $id: 'JoinFrame', title: 'JoinFrame', description: 'Enter the meeting.' },
);

const UtteranceMessage = Type.Object(
  {
    type: Type.Literal('utterance'),
    text: Type.String({ minLength: 1, maxLength: MAX_UTTERANCE_CHARS }),
    final: Type.Boolean(),
    start_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    end_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    // How the text came in: speech recognition or the keyboard (speech rates count voice only).
    input: Type.Optional(Type.Union([Type.Literal('voice'), Type.Literal('typed')])),
    id: Type.Optional(Type.String({ maxLength: 64 })),
  },
  {
    additionalProperties: true,
    $id: 'UtteranceFrame',
    title: 'UtteranceFrame',
    description: 'What the participant said or typed; only `final` ones are stored and answered.',
  },
);

const LeaveMessage = Type.Object(
  { type: Type.Literal('leave') },
  {
    additionalProperties: true,
    $id: 'LeaveFrame',
    title: 'LeaveFrame',
    description: 'The participant leaves.',
  },
);
const PingMessage = Type.Object(
  { type: Type.Literal('ping'), ts: Type.Optional(Type.Number()) },
  {
    additionalProperties: true,
    $id: 'PingFrame',
    title: 'PingFrame',
    description: 'Keep-alive; send one every 20 s.',
  },
);

// The microphone stream: every binary frame after `audio.start` (until `audio.stop`) is PCM.
const AudioStartMessage = Type.Object(
  { type: Type.Literal('audio.start'), start_ms: Type.Optional(Type.Integer({ minimum: 0 })) },
  {
    additionalProperties: true,
    $id: 'AudioStartFrame',
    title: 'AudioStartFrame',
    description: 'The microphone stream starts: the binary frames after it are PCM.',
  },
);
const AudioStopMessage = Type.Object(
  { type: Type.Literal('audio.stop') },
  {
    additionalProperties: true,
    $id: 'AudioStopFrame',
    title: 'AudioStopFrame',
    description: 'The microphone stream ends; an utterance in progress is finalised.',
  },
);

const ClientMessage = Type.Union([
  JoinMessage,
  UtteranceMessage,
  LeaveMessage,
  PingMessage,
  AudioStartMessage,
  AudioStopMessage,
]);
export type ClientMessage = Static<typeof ClientMessage>;
export type JoinMessage = Static<typeof JoinMessage>;
export type UtteranceMessage = Static<typeof UtteranceMessage>;
export type AudioStartMessage = Static<typeof AudioStartMessage>;

const SCHEMAS = {
  join: JoinMessage,
  utterance: UtteranceMessage,
  leave: LeaveMessage,
  ping: PingMessage,
  'audio.start': AudioStartMessage,
  'audio.stop': AudioStopMessage,
} as const;

const CLIENT_INFO_MAX = 2_048;

/** A client frame, or the reason it is refused. */
export function parseClientMessage(raw: string): { message: ClientMessage } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'The frame is not JSON.' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(type in SCHEMAS)) {
    return { error: `Unknown message type ${JSON.stringify(type)}.` };
  }
  const schema = SCHEMAS[type as keyof typeof SCHEMAS];
  if (!Value.Check(schema, value)) {
    const first = [...Value.Errors(schema, value)][0];
    return {
      error: `Invalid ${type} message: ${first ? `${first.instancePath || '/'} ${first.message}` : 'bad shape'}.`,
    };
  }
  if (type === 'join') {
    const client = (value as JoinMessage).client;
    if (client && JSON.stringify(client).length > CLIENT_INFO_MAX) {
      return { error: `join.client must be at most ${CLIENT_INFO_MAX} bytes of JSON.` };
    }
  }
  if (type === 'utterance' && (value as UtteranceMessage).text.trim() === '') {
    return { error: 'utterance.text must not be blank.' };
  }
  return { message: value as ClientMessage };
}

/** Why a binary (audio) frame is refused, or null when it is PCM the server can take. */
export function audioFrameProblem(bytes: number, streaming: boolean): string | null {
  if (!streaming) return 'Binary frames are microphone audio: send audio.start first.';
  if (bytes === 0 || bytes % 2 !== 0)
    return 'An audio frame holds whole 16-bit samples: its length must be even (and not 0).';
  if (bytes > MAX_FRAME_BYTES) return `An audio frame must be at most ${MAX_FRAME_BYTES} bytes.`;
  return null;
}

const TOOL_STATUSES = ['started', 'completed', 'failed'] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];

const ROOM_ERROR_CODES = [
  'invalid_message',
  'not_joined',
  'already_joined',
  'join_timeout',
  'rate_limited',
  'agent_unavailable',
  'replaced',
  'meeting_ended',
  'speech_unavailable',
  'storage_unavailable',
  'internal_error',
] as const;
export type RoomErrorCode = (typeof ROOM_ERROR_CODES)[number];

// Server frames: the session builds them through these types, and the AsyncAPI document
// (openapi/platform-v1.realtime.asyncapi.json) is generated from the same schemas.
const frame = <K extends string, T extends Record<string, TSchema>>(
  type: K,
  name: string,
  fields: T,
  description: string,
) => Type.Object({ type: Type.Literal(type), ...fields }, { $id: name, title: name, description });

const JoinedFrame = Type.Object(
  {
    type: Type.Literal('joined'),
    ...roomWelcomeFields,
    participant: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
    transcript: Type.Array(RoomSentence),
    resumed: Type.Boolean(),
  },
  {
    $id: 'JoinedFrame',
    title: 'JoinedFrame',
    description: 'The join succeeded: the welcome data and the transcript so far.',
  },
);
const AgentDeltaFrame = frame(
  'agent.delta',
  'AgentDeltaFrame',
  { turn_id: Type.String(), text: Type.String() },
  'A piece of the persona’s reply, in order.',
);
const AgentMessageFrame = frame(
  'agent.message',
  'AgentMessageFrame',
  { turn_id: Type.String(), text: Type.String(), interrupted: Type.Boolean() },
  'The turn’s final text; `interrupted` when the participant barged in.',
);
const FillerFrame = frame(
  'filler',
  'FillerFrame',
  { turn_id: Type.String(), text: Type.String() },
  'The persona is still thinking: optionally speak `text`. Not part of the transcript.',
);
const ToolFrame = frame(
  'tool',
  'ToolFrame',
  { turn_id: Type.String(), call_id: Type.String(), name: Type.String(), status: Type.Enum(TOOL_STATUSES) },
  'Tool activity, for a status line. Arguments and results are never sent.',
);
const TranscriptSentenceFrame = frame(
  'transcript.sentence',
  'TranscriptSentenceFrame',
  { sentence: RoomSentence, client_id: Type.Optional(Type.String()) },
  'A sentence was stored (either side); `client_id` echoes the utterance `id`.',
);
const EndedFrame = frame(
  'ended',
  'EndedFrame',
  {
    reason: Type.Enum(END_REASONS),
    ended_at: Type.String({ format: 'date-time' }),
    duration_seconds: Type.Number(),
  },
  'The meeting is over; the server closes the socket (1000) right after.',
);
const ErrorFrame = frame(
  'error',
  'ErrorFrame',
  { code: Type.Enum(ROOM_ERROR_CODES), message: Type.String(), fatal: Type.Boolean() },
  'Something went wrong; `fatal: true` is followed by a close.',
);
const PongFrame = frame(
  'pong',
  'PongFrame',
  { ts: Type.Optional(Type.Number()), server_time: Type.String({ format: 'date-time' }) },
  'The answer to `ping`, echoing its `ts`.',
);
const SpeechStartedFrame = frame(
  'speech.started',
  'SpeechStartedFrame',
  { start_ms: Type.Number() },
  'The service hears the participant.',
);
const TranscriptInterimFrame = frame(
  'transcript.interim',
  'TranscriptInterimFrame',
  { text: Type.String() },
  'The recognition so far of the current spoken utterance.',
);
const SpeechStoppedFrame = frame(
  'speech.stopped',
  'SpeechStoppedFrame',
  { start_ms: Type.Number(), end_ms: Type.Number(), text: Type.String() },
  'The spoken utterance ended; non-empty `text` is then answered like a final utterance.',
);
/** The persona's audio for one sentence; the PCM follows in the next (binary) frame. */
const AgentAudioFrame = frame(
  'agent.audio',
  'AgentAudioFrame',
  {
    turn_id: Type.String(),
    seq: Type.Number(),
    text: Type.String(),
    encoding: Type.Literal('pcm_s16le'),
    sample_rate: Type.Number(),
    bytes: Type.Number(),
    start_ms: Type.Number(),
  },
  'One sentence of the persona’s voice: the next frame is binary and holds its `bytes` of PCM.',
);
export type AgentAudioMessage = Static<typeof AgentAudioFrame>;

/** Every JSON frame the server sends, by `type`. */
export const SERVER_FRAMES = {
  joined: JoinedFrame,
  'agent.delta': AgentDeltaFrame,
  'agent.message': AgentMessageFrame,
  filler: FillerFrame,
  tool: ToolFrame,
  'transcript.sentence': TranscriptSentenceFrame,
  ended: EndedFrame,
  error: ErrorFrame,
  pong: PongFrame,
  'speech.started': SpeechStartedFrame,
  'transcript.interim': TranscriptInterimFrame,
  'speech.stopped': SpeechStoppedFrame,
  'agent.audio': AgentAudioFrame,
} as const;

/** Every frame the server sends. */
export type ServerMessage = Static<(typeof SERVER_FRAMES)[keyof typeof SERVER_FRAMES]>;

/** Every JSON frame a client sends, by `type` (validated by `parseClientMessage`). */
export const CLIENT_FRAMES = SCHEMAS;

/** WebSocket close codes the server uses. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  /** Shutdown hand-over: what was said is stored; reconnect at once, without back-off (docs/realtime.md). */
  serviceRestart: 1012,
  unsupported: 1003,
  internal: 1011,
  /** The database is unreachable for now: reconnect with back-off. */
  tryAgainLater: 1013,
  replaced: 4001,
  joinTimeout: 4008,
} as const;
