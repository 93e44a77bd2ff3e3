// The room API (docs/realtime.md): `/v1/rooms/{meetingId}/…`, authenticated by the room token
// (`?t=` or `X-Room-Token`, resolved by room-guests.ts on the root), never by an API key, and open
// to any origin so the room can be embedded. Registered outside the authenticated /v1 scope, on an
// app with @fastify/websocket registered at its root (platform-app.ts says why).
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { RawData, WebSocket } from 'ws';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { isDatabaseUnavailable } from '../../core/db/unavailable.ts';
import { AppError } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { sendBounded } from '../../core/http/ws-backlog.ts';
import { FeedbackCatalog, Feedback as FeedbackSchema, SubmitFeedbackBody } from '../feedback/schemas.ts';
import type { FeedbackInput, FeedbackService } from '../feedback/service.ts';
import { renderSentence } from '../meetings/render.ts';
import { meetingRepository } from '../meetings/repository.ts';
import type { RoomMeeting } from '../meetings/room-token.ts';
import { IMAGE_TYPES, MEDIA_TYPES, type RecordingService, type UploadKind } from '../recordings/service.ts';
import { loadMeetingContext, renderWelcome } from './context.ts';
import { audioFrameProblem, CLOSE, parseClientMessage, type ServerMessage } from './protocol.ts';
import { liveRepository } from './repository.ts';
import { openedRoom } from './room-guests.ts';
import { loadRoomResults } from './room-results.ts';
import { RoomResults, RoomTranscript, RoomUpload, RoomWelcome } from './room-schemas.ts';
import type { LiveSession, RoomSocket } from './session.ts';
import type { MeetingSessionHub } from './session-hub.ts';
import type { SpeechCapabilities } from './voice/connection-voice.ts';

export interface RoomRouteDeps {
  db: Kysely<DB>;
  clock: Clock;
  publicUrl: string;
  hub: MeetingSessionHub;
  recordings: RecordingService;
  feedback: FeedbackService;
  /** What the welcome data says about speech (the engines themselves run in the sessions). */
  speech: SpeechCapabilities;
  /** A socket whose unsent frames pass this many bytes is closed (WS_MAX_BUFFERED_BYTES). */
  wsMaxBufferedBytes: number;
}

const JOIN_TIMEOUT_MS = 30_000;
/** At most one error a second for refused binary frames, per socket. */
const AUDIO_REFUSAL_INTERVAL_MS = 1_000;
const Params = Type.Object({ meetingId: Type.String() });
const TokenQuery = Type.Object({ t: Type.Optional(Type.String()) }, { additionalProperties: true });
/** The room token opens these routes, never an API key (the OpenAPI security schemes). */
const documented: { tags: string[]; security: Array<Record<string, string[]>> } = {
  tags: ['Room'],
  security: [{ roomToken: [] }, { roomTokenQuery: [] }],
};

export async function registerRoomRoutes(app: AppInstance, deps: RoomRouteDeps): Promise<void> {
  await registerRoomFeedbackRoutes(app, deps);
  await app.register(async (room) => {
    room.addHook('onRequest', async (_request, reply) => {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Vary', 'Origin');
    });
    // The token was resolved before the rate limits (room-guests.ts); a route refuses without it.
    const authenticate = async (request: FastifyRequest) => void openedRoom(request);
    // Media bodies are streamed to storage by the handler, not parsed. Every other type is passed
    // through unparsed too, so the upload answers 415 for it (docs/realtime.md) rather than
    // whatever a parser or a check on parsed text would say about its bytes.
    room.removeAllContentTypeParsers();
    room.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    room.options('/v1/rooms/*', { schema: { hide: true } }, async (_request, reply: FastifyReply) =>
      reply
        .header('Access-Control-Allow-Methods', 'GET, PUT, OPTIONS')
        .header('Access-Control-Allow-Headers', 'Content-Type, X-Room-Token')
        .header('Access-Control-Max-Age', '600')
        .status(204)
        .send(),
    );

    room.get(
      '/v1/rooms/:meetingId',
      {
        preHandler: authenticate,
        schema: {
          ...documented,
          operationId: 'getRoom',
          summary: 'The welcome data of the meeting room: meeting, scenario, persona, recording, speech.',
          params: Params,
          querystring: TokenQuery,
          response: withErrors({ 200: RoomWelcome }),
        },
      },
      async (request) => {
        const context = await loadMeetingContext(deps.db, openedRoom(request).id);
        return renderWelcome(context!, deps.publicUrl, deps.clock.now(), deps.speech);
      },
    );

    room.get(
      '/v1/rooms/:meetingId/transcript',
      {
        preHandler: authenticate,
        schema: {
          ...documented,
          operationId: 'getRoomTranscript',
          summary: 'The transcript as stored so far, for the meeting page after the end.',
          params: Params,
          querystring: TokenQuery,
          response: withErrors({ 200: RoomTranscript }),
        },
      },
      async (request) => {
        const { id } = openedRoom(request);
        const meeting = await liveRepository.meetingState(deps.db, id);
        const sentences = await meetingRepository.sentences(deps.db, id);
        return {
          status: meeting.status,
          end_reason: meeting.end_reason,
          sentences: sentences.map(renderSentence),
        };
      },
    );

    room.get(
      '/v1/rooms/:meetingId/results',
      {
        preHandler: authenticate,
        schema: {
          ...documented,
          operationId: 'getRoomResults',
          summary:
            'The participant’s results after the call: score per goal, strengths, growth areas and what to practise next. 404 `results_not_shared` unless the scenario’s `share_results_with_participant` is on; 409 `resource_conflict` before the meeting has ended; `status: pending` while the analysis runs.',
          params: Params,
          querystring: TokenQuery,
          response: withErrors({ 200: RoomResults }),
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return loadRoomResults(deps.db, openedRoom(request));
      },
    );

    const upload = (kind: UploadKind) => async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Readable).pipe !== 'function') {
        throw new AppError('unsupported_media_type', 'Send the raw media bytes with a media Content-Type.', {
          param: 'Content-Type',
        });
      }
      const result = await deps.recordings.upload(openedRoom(request), kind, {
        contentType: request.headers['content-type'],
        contentLength: request.headers['content-length'],
        body,
      });
      return reply.status(201).send(result);
    };
    for (const [path, kind, operationId, mediaTypes, summary] of [
      [
        '/v1/rooms/:meetingId/recording',
        'media',
        'uploadRoomRecording',
        Object.keys(MEDIA_TYPES),
        'Upload the recording: the raw media bytes (video/webm, video/mp4, audio/webm, audio/ogg, audio/mp4), ' +
          'at most 500 MiB, with Content-Length. A second upload replaces the first.',
      ],
      [
        '/v1/rooms/:meetingId/recording/thumbnail',
        'thumbnail',
        'uploadRoomRecordingThumbnail',
        Object.keys(IMAGE_TYPES),
        'Upload the recording’s thumbnail: one image (image/jpeg, image/png, image/webp), at most 5 MiB.',
      ],
    ] as const) {
      room.put(
        path,
        {
          preHandler: authenticate,
          // Size limits are enforced while streaming (RecordingService), not by the body parser.
          bodyLimit: Number.MAX_SAFE_INTEGER,
          schema: {
            ...documented,
            operationId,
            summary,
            params: Params,
            querystring: TokenQuery,
            streamedBody: {
              mediaTypes,
              description: 'The raw bytes, with their media type as Content-Type.',
            },
            response: withErrors({ 201: RoomUpload }),
          },
        },
        upload(kind),
      );
    }

    room.get(
      '/v1/rooms/:meetingId/live',
      {
        websocket: true,
        preValidation: authenticate,
        // Described frame by frame in openapi/platform-v1.realtime.asyncapi.json, not in OpenAPI (which
        // cannot describe a WebSocket; @fastify/websocket hides the route anyway).
        schema: { hide: true, params: Params, querystring: TokenQuery },
      },
      (socket: WebSocket, request: FastifyRequest) =>
        attachSocket(deps, socket, openedRoom(request), request),
    );
  });
}

function attachSocket(
  deps: RoomRouteDeps,
  socket: WebSocket,
  room: RoomMeeting,
  request: FastifyRequest,
): void {
  const { hub, clock } = deps;
  // Frames sent in one tick (a burst of deltas, the message, its sentence) leave in one write:
  // the TCP socket is corked until the tick ends.
  // An `agent.audio` and its PCM frame are sent in one call stack, so nothing can come between them.
  const raw = (socket as unknown as { _socket?: import('node:net').Socket })._socket;
  let corked = false;
  const uncork = () => {
    corked = false;
    raw?.uncork();
  };
  const cork = () => {
    if (raw && !corked) {
      corked = true;
      raw.cork();
      process.nextTick(uncork);
    }
  };
  const adapter: RoomSocket = {
    send: (text) => {
      cork();
      sendBounded(socket, text, deps.wsMaxBufferedBytes);
    },
    sendBinary: (data) => {
      cork();
      sendBounded(socket, data, deps.wsMaxBufferedBytes, { binary: true });
    },
    close: (code, reason) => socket.close(code, reason),
    get open() {
      return socket.readyState === socket.OPEN;
    },
  };
  const send = (message: ServerMessage) =>
    adapter.open && sendBounded(socket, JSON.stringify(message), deps.wsMaxBufferedBytes);
  let state: 'waiting' | 'joining' | 'joined' | 'gone' = 'waiting';
  let session: LiveSession | null = null;
  const joinTimer = setTimeout(() => {
    if (state !== 'waiting') return;
    send({
      type: 'error',
      code: 'join_timeout',
      message: `Send join within ${JOIN_TIMEOUT_MS / 1000} s.`,
      fatal: true,
    });
    socket.close(CLOSE.joinTimeout, 'join_timeout');
  }, JOIN_TIMEOUT_MS);
  joinTimer.unref();

  // A client streaming audio the server cannot take (before join, before audio.start, after
  // speech_unavailable) sends 10–50 frames a second: it is told once a second at most, not once
  // a frame. A join, audio.start or audio.stop starts afresh (the answer may have changed).
  let audioRefusedAt = Number.NEGATIVE_INFINITY;
  const refuseAudio = (code: 'not_joined' | 'invalid_message', message: string) => {
    const now = performance.now();
    if (now - audioRefusedAt < AUDIO_REFUSAL_INTERVAL_MS) return;
    audioRefusedAt = now;
    send({ type: 'error', code, message, fatal: false });
  };

  // Binary frames are microphone audio (after audio.start); they keep their place among the text
  // frames, so audio sent right after audio.start waits for the stream to be ready.
  const audio = (pcm: Buffer) => {
    if (state !== 'joined' || !session) return refuseAudio('not_joined', 'Send join first.');
    // Frames still queued from a connection replaced since (it has been told and is closing)
    // are dropped: they must not feed the microphone stream of the connection that took over.
    if (!session.isCurrent(adapter)) return;
    const problem = audioFrameProblem(pcm.length, session.listening);
    if (problem) return refuseAudio('invalid_message', problem);
    session.audio(pcm, adapter);
  };

  let chain = Promise.resolve();
  socket.on('message', (data, isBinary) => {
    const frame = isBinary ? asBuffer(data) : null;
    const text = frame ? '' : data.toString();
    chain = chain
      .then(async () => {
        if (frame) return audio(frame);
        const parsed = parseClientMessage(text);
        if ('error' in parsed)
          return void send({ type: 'error', code: 'invalid_message', message: parsed.error, fatal: false });
        const message = parsed.message;
        if (message.type === 'join' || message.type === 'audio.start' || message.type === 'audio.stop')
          audioRefusedAt = Number.NEGATIVE_INFINITY;
        if (message.type === 'ping') {
          return void send({
            type: 'pong',
            ...(message.ts !== undefined ? { ts: message.ts } : {}),
            server_time: clock.now().toISOString(),
          });
        }
        if (message.type === 'join') {
          if (state !== 'waiting')
            return void send({
              type: 'error',
              code: 'already_joined',
              message: 'Already joined.',
              fatal: false,
            });
          state = 'joining';
          clearTimeout(joinTimer);
          session = await hub.join(room.id, adapter, message);
          state = session ? 'joined' : 'gone';
          if (session && !adapter.open) session.detach(adapter);
          return;
        }
        if (state !== 'joined' || !session) {
          return void send({ type: 'error', code: 'not_joined', message: 'Send join first.', fatal: false });
        }
        if (message.type === 'utterance') session.utterance(message);
        else if (message.type === 'audio.start') await session.audioStart(message, adapter);
        // Not awaited: the last utterance's recognition must not hold up the frames after it.
        else if (message.type === 'audio.stop') void session.audioStop(adapter);
        else if (message.type === 'leave') await session.end('participant_left');
      })
      .catch((error) => {
        // The database is away (a join or an end that cannot wait): the room tries again later.
        if (isDatabaseUnavailable(error)) {
          request.log.warn(
            { err: error, meeting_id: room.id },
            'room message deferred: database unreachable',
          );
          send({
            type: 'error',
            code: 'storage_unavailable',
            message: 'The service cannot reach its database for a moment. Reconnect in a few seconds.',
            fatal: false,
          });
          if (state === 'joining') state = 'gone';
          socket.close(CLOSE.tryAgainLater, 'try again later');
          return;
        }
        request.log.error({ err: error, meeting_id: room.id }, 'room message failed');
        send({
          type: 'error',
          code: 'internal_error',
          message: 'The server failed to handle the message.',
          fatal: true,
        });
        socket.close(CLOSE.internal, 'internal_error');
      });
  });
  socket.on('close', () => {
    clearTimeout(joinTimer);
    state = 'gone';
    session?.detach(adapter);
  });
}

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * The post-call questions, answered in the room after the end. A plugin of their own: JSON bodies
 * parsed and validated as everywhere else (the media routes above take raw bytes).
 */
async function registerRoomFeedbackRoutes(app: AppInstance, deps: RoomRouteDeps): Promise<void> {
  await app.register(async (room) => {
    room.addHook('onRequest', async (_request, reply) => {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Vary', 'Origin');
    });
    const authenticate = async (request: FastifyRequest) => void openedRoom(request);
    const Envelope = Type.Object({ data: FeedbackSchema });

    room.get(
      '/v1/rooms/:meetingId/feedback/catalog',
      {
        preHandler: authenticate,
        schema: {
          ...documented,
          operationId: 'getRoomFeedbackCatalog',
          summary:
            'The post-call questions: the ratings and checklist keys the room offers, with their labels.',
          params: Params,
          querystring: TokenQuery,
          response: withErrors({ 200: Type.Object({ data: FeedbackCatalog }) }),
        },
      },
      async () => ({ data: deps.feedback.catalog() }),
    );

    room.put(
      '/v1/rooms/:meetingId/feedback',
      {
        preHandler: authenticate,
        schema: {
          ...documented,
          operationId: 'putRoomFeedback',
          summary:
            'The participant answers the post-call questions: 201 the first time, 200 when the answer replaces their earlier one. 409 `resource_conflict` before the meeting has ended, or when a team member already answered through the API. The team reads it with `GET /v1/meetings/{id}/feedback`.',
          params: Params,
          querystring: TokenQuery,
          body: SubmitFeedbackBody,
          response: withErrors({ 200: Envelope, 201: Envelope }),
        },
      },
      async (request, reply) => {
        const result = await deps.feedback.submitFromRoom(openedRoom(request), request.body as FeedbackInput);
        return reply.status(result.created ? 201 : 200).send({ data: result.feedback });
      },
    );
  });
}
