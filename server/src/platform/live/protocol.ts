// The room's WebSocket messages (docs/realtime.md). Client frames are validated here; server
// frames are built by the session through the types below.
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { RenderedSentence } from '../meetings/render.ts';
import type { EndReason } from '../meetings/schemas.ts';

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
  { additionalProperties: true },
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
  { additionalProperties: true },
);

const LeaveMessage = Type.Object({ type: Type.Literal('leave') }, { additionalProperties: true });
const PingMessage = Type.Object(
  { type: Type.Literal('ping'), ts: Type.Optional(Type.Number()) },
  { additionalProperties: true },
);

// The microphone stream: every binary frame after `audio.start` (until `audio.stop`) is PCM.
const AudioStartMessage = Type.Object(
  { type: Type.Literal('audio.start'), start_ms: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: true },
);
const AudioStopMessage = Type.Object({ type: Type.Literal('audio.stop') }, { additionalProperties: true });

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

export type ToolStatus = 'started' | 'completed' | 'failed';

export type RoomErrorCode =
  | 'invalid_message'
  | 'not_joined'
  | 'already_joined'
  | 'join_timeout'
  | 'rate_limited'
  | 'agent_unavailable'
  | 'replaced'
  | 'meeting_ended'
  | 'speech_unavailable'
  | 'internal_error';

/** The persona's audio for one sentence; the PCM follows in the next (binary) frame. */
export interface AgentAudioMessage {
  type: 'agent.audio';
  turn_id: string;
  seq: number;
  text: string;
  encoding: 'pcm_s16le';
  sample_rate: number;
  bytes: number;
  start_ms: number;
}

/** Every frame the server sends. */
export type ServerMessage =
  | ({ type: 'joined' } & Record<string, unknown>)
  | { type: 'agent.delta'; turn_id: string; text: string }
  | { type: 'agent.message'; turn_id: string; text: string; interrupted: boolean }
  | { type: 'filler'; turn_id: string; text: string }
  | { type: 'tool'; turn_id: string; call_id: string; name: string; status: ToolStatus }
  | { type: 'transcript.sentence'; sentence: RenderedSentence; client_id?: string }
  | { type: 'ended'; reason: EndReason; ended_at: string; duration_seconds: number }
  | { type: 'error'; code: RoomErrorCode; message: string; fatal: boolean }
  | { type: 'pong'; ts?: number; server_time: string }
  | { type: 'speech.started'; start_ms: number }
  | { type: 'transcript.interim'; text: string }
  | { type: 'speech.stopped'; start_ms: number; end_ms: number; text: string }
  | AgentAudioMessage;

/** WebSocket close codes the server uses. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  unsupported: 1003,
  internal: 1011,
  replaced: 4001,
  joinTimeout: 4008,
} as const;
