// The Node SDK is published on its own: its package.json must carry what `prepack` (tsc)
// needs outside this repository, at the versions the repository builds it with.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

test('the Node SDK declares the build tools of its prepack build, at the root versions', () => {
  const sdk = read('sdk/node/package.json');
  const root = read('package.json');
  assert.match(sdk.scripts.prepack, /build/);
  for (const name of ['typescript', '@types/node']) {
    assert.equal(sdk.devDependencies?.[name], root.devDependencies[name], name);
  }
  assert.deepEqual(sdk.dependencies ?? {}, {}, 'no runtime dependencies');
});
