// Runs Node's test runner over every *.test.ts file (Node 20 has no glob support in --test).
// Extra arguments filter the files by substring: `npm test -- webhooks`. TEST_SCOPE=storage runs
// only the tests the storage can change (see STORAGE_FREE).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Tests whose outcome cannot depend on the database or Redis: the speech engines, the offline
 * persona engine and the Chromium voice tests (audio in, text out). CI's second run, on PostgreSQL
 * and Redis (TEST_SCOPE=storage), leaves them out: the first run, on PGlite, has run them.
 */
const STORAGE_FREE = [
  'server/test/speech/',
  'server/src/platform/live/providers/offline-script/',
  'server/test/room/voice-browser.test.ts',
  'server/test/room/voice-noise-browser.test.ts',
];

const filters = process.argv.slice(2);
const storageOnly = process.env.TEST_SCOPE === 'storage';
const files = findTests('server')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .filter((file) => !storageOnly || !STORAGE_FREE.some((prefix) => file.startsWith(prefix)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=600000', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
