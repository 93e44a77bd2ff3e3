import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

interface Named {
  operationId: string;
  namespace: string;
  method: string;
  /** `room`: called by the room clients with the room token, not by the API-key clients. */
  client?: 'room';
}

const read = (path: string): Named[] => JSON.parse(readFileSync(path, 'utf8')) as Named[];
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** Python appends `_` to a name that is a keyword (`import` → `import_`). */
const unkeyword = (name: string) => name.replace(/_$/, '');

describe('the Node and Python SDKs', () => {
  it('name every operation the same way, each in its own case', () => {
    const node = read('sdk/node/operations.json');
    const python = new Map(read('sdk/python/operations.json').map((entry) => [entry.operationId, entry]));
    assert.equal(python.size, node.length);
    for (const entry of node) {
      const other = python.get(entry.operationId);
      assert.ok(other, `${entry.operationId} is missing from the Python SDK`);
      assert.equal(other.namespace, snake(entry.namespace), entry.operationId);
      assert.equal(unkeyword(other.method), snake(entry.method), entry.operationId);
      assert.equal(other.client, entry.client, `${entry.operationId}: the same client in both`);
    }
  });

  it('leave the room-token operations (tag Room) to the room clients', () => {
    const room = read('sdk/node/operations.json').filter((entry) => entry.client === 'room');
    assert.deepEqual(room.map((entry) => entry.operationId).sort(), [
      'getRoom',
      'getRoomFeedbackCatalog',
      'getRoomResults',
      'getRoomTranscript',
      'putRoomFeedback',
      'uploadRoomRecording',
      'uploadRoomRecordingThumbnail',
    ]);
  });

  it('export the same error classes (the classes each errors module defines)', () => {
    const nodeClasses = [...readFileSync('sdk/node/src/errors.ts', 'utf8').matchAll(/^export class (\w+)/gm)];
    const pythonClasses = [
      ...readFileSync('sdk/python/understudy/errors.py', 'utf8').matchAll(/^class (\w+)\(/gm),
    ];
    const names = (matches: RegExpMatchArray[]) => matches.map((match) => match[1]).sort();
    assert.deepEqual(names(nodeClasses), names(pythonClasses));
    const nodeIndex = readFileSync('sdk/node/src/index.ts', 'utf8');
    const pythonInit = readFileSync('sdk/python/understudy/__init__.py', 'utf8');
    for (const name of names(nodeClasses)) {
      assert.match(nodeIndex, new RegExp(`\\b${name},`), `the Node SDK exports ${name}`);
      assert.match(pythonInit, new RegExp(`"${name}"`), `the Python SDK exports ${name}`);
    }
  });
});
