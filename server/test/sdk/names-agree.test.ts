import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

interface Named {
  operationId: string;
  namespace: string;
  method: string;
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
    }
  });
});
