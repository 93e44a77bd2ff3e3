import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entriesAfter, parseChangelog } from '../../src/contract/changelog.ts';

const text = `# Things API changelog

Free text before the first entry.

## 2.0.0 — 2026-11-26

- **breaking**: \`status\` lost \`closed\`; use \`archived\`.
  A continuation line belongs to the change above.
- **additive**: \`archived\` status.

## 1.1.0 - 2026-10-01

- **additive**: Webhooks.
`;

test('entries, versions, dates and marked changes are read', () => {
  const changelog = parseChangelog(text);
  assert.deepEqual(changelog.problems, []);
  assert.deepEqual(
    changelog.entries.map((e) => [e.version, e.date, e.changes.map((c) => c.kind)]),
    [
      ['2.0.0', '2026-11-26', ['breaking', 'additive']],
      ['1.1.0', '2026-10-01', ['additive']],
    ],
  );
  assert.deepEqual(
    entriesAfter(changelog, '1.1.0').map((e) => e.version),
    ['2.0.0'],
  );
});

test('an unmarked change, a bad heading, an empty entry and the wrong order are problems', () => {
  const problems = parseChangelog(`## 1.0.0 — 2026-01-01

- forgot the marker

## next — soon

## 1.2.0 — 2026-02-01

## 1.1.0 — 2026-03-01

- **additive**: later date, lower version
`).problems;
  assert.equal(problems.length, 7, problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('forgot') || p.includes('line 3')));
  assert.ok(problems.some((p) => p.includes('"## next — soon"')));
  assert.ok(problems.some((p) => p.includes('1.2.0: an entry lists at least one change')));
  assert.ok(problems.some((p) => p.includes('1.0.0 stands above 1.2.0')));
  assert.ok(problems.some((p) => p.includes('1.2.0 is dated before 1.1.0')));
});
