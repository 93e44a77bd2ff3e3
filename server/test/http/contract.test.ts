// The committed API documents are a contract SDKs are generated from: named components, every
// public route and event, every WebSocket frame. These tests read what `npm run openapi` generates.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateOpenApiDocuments } from '../../src/app/openapi.ts';
import { hoistNamedSchemas } from '../../src/app/openapi-components.ts';
import { FIRING_EVENT_TYPES as MAILBOX_EVENTS } from '../../src/mailbox/events/types.ts';
import { FIRING_EVENT_TYPES as PLATFORM_EVENTS } from '../../src/platform/events/catalog.ts';
import { SERVER_FRAMES } from '../../src/platform/live/protocol.ts';

type Json = Record<string, any>;
let documents: Record<string, Json>;

before(async () => {
  const texts = await generateOpenApiDocuments();
  documents = Object.fromEntries(Object.entries(texts).map(([file, text]) => [file, JSON.parse(text)]));
});

const openapiFiles = ['openapi/platform-v1.json', 'openapi/mailbox-v0.json'];
const operations = (document: Json) =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({
      path,
      method,
      operation: operation as Json,
    })),
  );

describe('OpenAPI documents', () => {
  it('name every schema: no def-N keys, and every body and 2xx response is a component', () => {
    for (const file of openapiFiles) {
      const document = documents[file]!;
      const names = Object.keys(document.components.schemas);
      assert.deepEqual(
        names.filter((name) => !/^[A-Z][A-Za-z0-9]*$/.test(name)),
        [],
        `${file}: component names are PascalCase`,
      );
      for (const { path, method, operation } of operations(document)) {
        const media = [
          ...Object.values(operation.requestBody?.content ?? {}),
          ...Object.entries(operation.responses as Json)
            .filter(([status]) => status.startsWith('2'))
            .flatMap(([, response]) => Object.values((response as Json).content ?? {})),
        ] as Json[];
        for (const { schema } of media) {
          assert.match(schema.$ref ?? '', /^#\/components\/schemas\//, `${file} ${method} ${path}`);
        }
        for (const status of ['4XX', '5XX'].filter((code) => operation.responses[code])) {
          assert.equal(
            operation.responses[status].content['application/json'].schema.$ref,
            '#/components/schemas/Error',
            `${file} ${method} ${path} ${status}`,
          );
        }
      }
    }
    const platform = documents['openapi/platform-v1.json']!.components.schemas;
    for (const name of [
      'Scenario',
      'ScenarioSummaryList',
      'CreateScenarioRequest',
      'Goal',
      'GoalPage',
      'Error',
    ]) {
      assert.ok(platform[name], name);
    }
    const mailbox = documents['openapi/mailbox-v0.json']!.components.schemas;
    for (const name of ['Message', 'MessageList', 'Inbox', 'InboxList', 'SendMessageRequest', 'Error']) {
      assert.ok(mailbox[name], name);
    }
  });

  it('give every operation a unique camelCase operationId and a declared tag', () => {
    for (const file of openapiFiles) {
      const document = documents[file]!;
      const declared = new Set((document.tags as Json[]).map((tag) => tag.name));
      const ids = operations(document).map(({ operation }) => operation.operationId as string);
      assert.equal(new Set(ids).size, ids.length, `${file}: operationIds are unique`);
      for (const { path, operation } of operations(document)) {
        assert.match(operation.operationId, /^[a-z][A-Za-z0-9]*$/, path);
        assert.ok(
          operation.tags?.length > 0 && operation.tags.every((tag: string) => declared.has(tag)),
          path,
        );
      }
    }
  });

  it('document the room’s HTTP routes with the room token, not the API key', () => {
    const document = documents['openapi/platform-v1.json']!;
    const room = operations(document).filter(({ path }) => path.startsWith('/v1/rooms/'));
    assert.deepEqual(room.map(({ operation }) => operation.operationId).sort(), [
      'getRoom',
      'getRoomFeedbackCatalog',
      'getRoomResults',
      'getRoomTranscript',
      'putRoomFeedback',
      'uploadRoomRecording',
      'uploadRoomRecordingThumbnail',
    ]);
    for (const { operation } of room) {
      assert.deepEqual(operation.security, [{ roomToken: [] }, { roomTokenQuery: [] }]);
    }
    assert.equal(document.components.securitySchemes.roomToken.name, 'X-Room-Token');
    assert.equal(document.components.securitySchemes.roomTokenQuery.name, 't');
  });

  it('document the room uploads’ raw bodies, one binary entry per accepted media type', () => {
    const document = documents['openapi/platform-v1.json']!;
    const body = (path: string) => {
      const requestBody = document.paths[path].put.requestBody as Json;
      assert.equal(requestBody.required, true);
      for (const media of Object.values(requestBody.content as Json)) {
        const schema = document.components.schemas[(media.schema.$ref as string).split('/').pop()!];
        assert.deepEqual([schema.type, schema.format], ['string', 'binary']);
      }
      return Object.keys(requestBody.content);
    };
    assert.deepEqual(body('/v1/rooms/{meetingId}/recording'), [
      'video/webm',
      'video/mp4',
      'audio/webm',
      'audio/ogg',
      'audio/mp4',
    ]);
    assert.deepEqual(body('/v1/rooms/{meetingId}/recording/thumbnail'), [
      'image/jpeg',
      'image/png',
      'image/webp',
    ]);
  });

  it('have one webhook per event that fires, with its payload component and signature header', () => {
    const platform = documents['openapi/platform-v1.json']!;
    for (const event of [...PLATFORM_EVENTS, 'meeting.completed']) {
      const post = platform.webhooks[event]?.post;
      assert.ok(post, event);
      const headers = (post.parameters as Json[]).map((parameter) => parameter.name);
      assert.ok(headers.includes('Service-Signature'), event);
      const ref = post.requestBody.content['application/json'].schema.$ref as string;
      const payload = platform.components.schemas[ref.split('/').pop()!];
      assert.deepEqual(payload.properties.event.enum, [event]);
    }
    assert.ok(
      platform.webhooks['meeting.completed'].post.parameters.some(
        (p: Json) => p.name === 'X-Service-Signature',
      ),
    );
    const mailbox = documents['openapi/mailbox-v0.json']!;
    assert.deepEqual(Object.keys(mailbox.webhooks).sort(), [...MAILBOX_EVENTS].sort());
    for (const event of MAILBOX_EVENTS) {
      const post = mailbox.webhooks[event].post;
      assert.ok(
        post.parameters.some((p: Json) => p.name === 'X-Mailbox-Signature'),
        event,
      );
    }
  });
});

describe('AsyncAPI documents', () => {
  it('describe every JSON frame the room server sends, each with a named payload', () => {
    const document = documents['openapi/platform-v1.realtime.asyncapi.json']!;
    assert.equal(document.asyncapi, '3.0.0');
    const messages = document.components.messages as Json;
    for (const type of Object.keys(SERVER_FRAMES)) {
      const ref = messages[type]?.payload.$ref as string;
      assert.ok(ref, type);
      const schema = document.components.schemas[ref.split('/').pop()!];
      assert.deepEqual(schema.properties.type.const, type);
    }
    for (const type of [
      'join',
      'utterance',
      'leave',
      'ping',
      'audio.start',
      'audio.stop',
      'microphoneAudio',
    ]) {
      assert.ok(messages[type], type);
    }
  });

  it('describe the mailbox socket’s control frames and every event', () => {
    const document = documents['openapi/mailbox-v0.events.asyncapi.json']!;
    const messages = Object.keys(document.components.messages);
    for (const type of ['subscribe', 'unsubscribe', 'ping', 'subscribed', 'unsubscribed', 'pong', 'error']) {
      assert.ok(messages.includes(type), type);
    }
    for (const event of MAILBOX_EVENTS) assert.ok(messages.includes(event), event);
  });
});

describe('hoistNamedSchemas', () => {
  const marked = (name: string, schema: Json) => ({ ...schema, 'x-component-name': name });

  it('refuses two different schemas under one name', () => {
    const document = {
      paths: {},
      components: { schemas: {} },
      a: marked('Thing', { type: 'string' }),
      b: marked('Thing', { type: 'integer' }),
    };
    assert.throws(() => hoistNamedSchemas(document), /Two different schemas are both named Thing/);
  });

  it('names a body after its operation, and gives a moved example back to the component', () => {
    const document = {
      paths: {
        '/things': {
          post: {
            operationId: 'createThing',
            requestBody: {
              content: { 'application/json': { schema: { type: 'object' }, example: { a: 1 } } },
            },
            responses: {},
          },
        },
      },
      components: { schemas: {} },
    };
    const hoisted = hoistNamedSchemas(document) as Json;
    assert.deepEqual(hoisted.paths['/things'].post.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/CreateThingRequest',
    });
    assert.deepEqual(hoisted.components.schemas.CreateThingRequest, { type: 'object', examples: [{ a: 1 }] });
  });
});
