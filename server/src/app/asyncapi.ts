import type { TSchema } from 'typebox';
import {
  CLIENT_FRAMES as MAILBOX_CLIENT_FRAMES,
  SERVER_FRAMES as MAILBOX_SERVER_FRAMES,
} from '../mailbox/ws/frames.ts';
import {
  CLIENT_FRAMES as ROOM_CLIENT_FRAMES,
  SERVER_FRAMES as ROOM_SERVER_FRAMES,
} from '../platform/live/protocol.ts';
import { MAILBOX_API_VERSION } from './mailbox-app.ts';
import { documentedSchema, hoistNamedSchemas } from './openapi-components.ts';
import { PLATFORM_API_VERSION } from './platform-app.ts';

/**
 * AsyncAPI 3.0 documents of the two WebSockets, generated from the TypeBox schemas of their
 * frames (the same `npm run openapi` writes them, `--check` compares them). Each JSON frame is a
 * message named by its `type`; its payload a component schema named by the schema's `$id`.
 */

type Json = Record<string, unknown>;

interface SocketDescription {
  title: string;
  version: string;
  description: string;
  channelId: string;
  address: string;
  channelDescription: string;
  parameters: Record<string, string>;
  query: Json;
  /** How a client authenticates (AsyncAPI security schemes, by name); any one of them will do. */
  securitySchemes: Record<string, Json>;
  /** JSON frames by `type`, each schema named by its `$id`. */
  send: Record<string, TSchema>;
  receive: Record<string, TSchema>;
  /** Binary frames, by message name. */
  binary?: { send?: Record<string, string>; receive?: Record<string, string> };
}

function asyncApiDocument(socket: SocketDescription): string {
  const messages: Json = {};
  const jsonMessage = (type: string, schema: TSchema) => {
    const { title, description } = schema as { title?: string; description?: string };
    messages[type] = {
      name: type,
      title: title ?? type,
      summary: description ?? type,
      contentType: 'application/json',
      payload: documentedSchema(schema as object),
    };
  };
  const binaryMessage = (name: string, summary: string) => {
    messages[name] = {
      name,
      title: name,
      summary,
      contentType: 'application/octet-stream',
      payload: { type: 'string', format: 'binary' },
    };
  };
  for (const [type, schema] of [...Object.entries(socket.send), ...Object.entries(socket.receive)]) {
    jsonMessage(type, schema);
  }
  for (const [name, summary] of Object.entries({ ...socket.binary?.send, ...socket.binary?.receive })) {
    binaryMessage(name, summary);
  }
  const refs = (names: string[]) =>
    names.map((name) => ({ $ref: `#/channels/${socket.channelId}/messages/${name}` }));
  const sent = [...Object.keys(socket.send), ...Object.keys(socket.binary?.send ?? {})];
  const received = [...Object.keys(socket.receive), ...Object.keys(socket.binary?.receive ?? {})];
  const document = {
    asyncapi: '3.0.0',
    info: {
      title: socket.title,
      version: socket.version,
      description: socket.description,
      tags: [{ name: 'WebSocket' }],
    },
    defaultContentType: 'application/json',
    servers: {
      installation: {
        host: 'localhost:8080',
        protocol: 'ws',
        description: 'Your installation’s PUBLIC_URL host (`wss` behind TLS).',
        security: Object.keys(socket.securitySchemes).map((name) => ({
          $ref: `#/components/securitySchemes/${name}`,
        })),
      },
    },
    channels: {
      [socket.channelId]: {
        address: socket.address,
        description: socket.channelDescription,
        parameters: Object.fromEntries(
          Object.entries(socket.parameters).map(([name, description]) => [name, { description }]),
        ),
        messages: Object.fromEntries(
          Object.keys(messages).map((name) => [name, { $ref: `#/components/messages/${name}` }]),
        ),
        bindings: { ws: { method: 'GET', query: socket.query } },
      },
    },
    operations: {
      receiveClientFrames: {
        action: 'receive',
        description: 'Frames a client sends: the server receives them.',
        channel: { $ref: `#/channels/${socket.channelId}` },
        messages: refs(sent),
      },
      sendServerFrames: {
        action: 'send',
        description: 'Frames the server sends.',
        channel: { $ref: `#/channels/${socket.channelId}` },
        messages: refs(received),
      },
    },
    components: {
      messages,
      schemas: {},
      securitySchemes: socket.securitySchemes,
    },
  };
  return `${JSON.stringify(hoistNamedSchemas(document as Json), null, 2)}\n`;
}

/** The AsyncAPI documents, keyed by their committed path. */
export function generateAsyncApiDocuments(): Record<string, string> {
  return {
    'openapi/platform-v1.realtime.asyncapi.json': asyncApiDocument({
      title: 'Understudy meeting room: realtime protocol',
      version: PLATFORM_API_VERSION,
      description:
        'The WebSocket a participant (the room page, a bot, a test) plays a meeting over: JSON text ' +
        'frames with a `type`, and binary PCM audio. The prose, with the session flow, timing and ' +
        'voice: docs/realtime.md.',
      channelId: 'roomLive',
      address: '/v1/rooms/{meetingId}/live',
      channelDescription:
        'Send `join` within 30 s of opening. A client frame over 64 KiB closes the socket (1009); server ' +
        'frames have no such cap. Close codes: 1000 ended, 1001 server going away (reconnect), 1011 ' +
        'internal error, 4001 replaced by another connection, 4008 no join in time.',
      parameters: { meetingId: 'The meeting id (UUID).' },
      query: {
        type: 'object',
        properties: { t: { type: 'string', description: 'The room token of the meeting.' } },
        required: ['t'],
      },
      securitySchemes: {
        roomTokenQuery: {
          type: 'httpApiKey',
          name: 't',
          in: 'query',
          description: 'The room token (`room_token` when the meeting was created).',
        },
      },
      send: ROOM_CLIENT_FRAMES,
      receive: ROOM_SERVER_FRAMES,
      binary: {
        send: {
          microphoneAudio:
            'PCM s16le mono 16 kHz, even length, at most 64 KiB: only between `audio.start` and `audio.stop`.',
        },
        receive: {
          personaAudio:
            'The persona’s voice for the `agent.audio` frame just before it: its `bytes` of PCM at its `sample_rate`.',
        },
      },
    }),
    'openapi/mailbox-v0.events.asyncapi.json': asyncApiDocument({
      title: 'Understudy Mailbox: event WebSocket',
      version: MAILBOX_API_VERSION,
      description:
        'Live events of the inboxes an API key reaches: each `event` frame is exactly the webhook ' +
        'payload. Live only (catch up with GET /v0/inboxes/{inbox_id}/events). The prose: ' +
        'docs/mailbox.md#websocket. The same frames flow on `/v0/inboxes/{inbox_id}/ws`, which is ' +
        'subscribed to its inbox on connect.',
      channelId: 'events',
      address: '/v0/ws',
      channelDescription:
        'Nothing is sent until a `subscribe`. The server pings every 30 s and closes sockets that stop ' +
        'answering. Close codes: 1001 server shutting down, 4401 the API key was revoked.',
      parameters: {},
      query: {
        type: 'object',
        properties: { api_key: { type: 'string', description: 'Only when the header cannot be set.' } },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key with `messages.read`.' },
        apiKeyQuery: {
          type: 'httpApiKey',
          name: 'api_key',
          in: 'query',
          description: 'The API key as a query parameter, for clients that cannot set headers.',
        },
      },
      send: MAILBOX_CLIENT_FRAMES,
      receive: MAILBOX_SERVER_FRAMES,
    }),
  };
}
