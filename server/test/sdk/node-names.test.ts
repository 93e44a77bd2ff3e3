// The naming rule both SDKs share (sdk/node/scripts/names.mjs), on the examples of the brief and the
// irregular plurals of the documents' tags; and the generated table is what the documents give.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain .mjs script without types
import { camel, methodName } from '../../../sdk/node/scripts/names.mjs';
import { mailboxOperations } from '../../../sdk/node/src/generated/mailbox-v0-operations.ts';
import {
  platformOperations,
  roomOperations,
} from '../../../sdk/node/src/generated/platform-v1-operations.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

test('namespaces are the first tag in camelCase', () => {
  assert.equal(camel('API keys'), 'apiKeys');
  assert.equal(camel('Voices and avatars'), 'voicesAndAvatars');
  assert.equal(camel('Allow and block lists'), 'allowAndBlockLists');
});

test("methods drop the tag's noun, singular or plural, as a whole word", () => {
  const cases: Array<[string, string, string]> = [
    ['createScenario', 'Scenarios', 'create'],
    ['listScenarios', 'Scenarios', 'list'],
    ['createScenarioWithGpt', 'Scenarios', 'createWithGpt'],
    ['listScenarioMeetings', 'Meetings', 'listScenarioMeetings'],
    ['createApiKey', 'API keys', 'create'],
    ['listApiKeys', 'API keys', 'list'],
    ['createApiSecret', 'API keys', 'createApiSecret'],
    ['getAnalysis', 'Analyses', 'get'],
    ['listAnalyses', 'Analyses', 'list'],
    ['getMemory', 'Memories', 'get'],
    ['createMemories', 'Memories', 'create'],
    ['getInbox', 'Inboxes', 'get'],
    ['createWebhookEndpoint', 'Webhooks', 'createEndpoint'],
    ['getUsage', 'Usage', 'get'],
    ['jwks', 'Identity', 'jwks'],
  ];
  for (const [operationId, tag, expected] of cases)
    assert.equal(methodName(operationId, tag), expected, operationId);
});

test('operations.json names every operation of both documents once', () => {
  const names: Array<{ operationId: string; namespace: string; method: string }> = JSON.parse(
    readFileSync(resolve(ROOT, 'sdk/node/operations.json'), 'utf8'),
  );
  let count = 0;
  for (const file of ['platform-v1.json', 'mailbox-v0.json']) {
    const document = JSON.parse(readFileSync(resolve(ROOT, 'openapi', file), 'utf8'));
    for (const item of Object.values<Record<string, unknown>>(document.paths)) {
      count += ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item[method]).length;
    }
  }
  assert.equal(names.length, count);
  assert.equal(new Set(names.map((n) => n.operationId)).size, count);
  // The room's operations are RoomClient's (room token), in a table of their own.
  const methods = [platformOperations, roomOperations, mailboxOperations].flatMap((table) =>
    Object.values(table).flatMap((namespace) => Object.keys(namespace)),
  );
  assert.equal(methods.length, count, 'no two operations of a service share a method');
});

test('the API-key client leaves the room-token operations to RoomClient', () => {
  assert.equal('room' in platformOperations, false);
  assert.deepEqual(Object.keys(roomOperations.room).sort(), [
    'get',
    'getFeedbackCatalog',
    'getResults',
    'getTranscript',
    'putFeedback',
    'uploadRecording',
    'uploadRecordingThumbnail',
  ]);
});

test('the committed generated files are current (sdk:generate --check)', () => {
  const run = spawnSync(process.execPath, ['sdk/node/scripts/generate.mjs', '--check'], { cwd: ROOT });
  assert.equal(run.status, 0, String(run.stderr));
});
