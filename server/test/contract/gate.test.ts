import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseChangelog } from '../../src/contract/changelog.ts';
import { evaluateGate } from '../../src/contract/gate.ts';
import { baseDocument, type Doc, mutated } from './fixtures.ts';

const removeEnumValue = (d: Doc) => (d.components.schemas.Thing.properties.status.enum = ['open']);
const addField = (d: Doc) => (d.components.schemas.Thing.properties.colour = { type: 'string' });

function changelog(...entries: [string, 'additive' | 'breaking'][]) {
  const sections = entries.map(
    ([version, kind]) => `## ${version} — 2026-11-26\n\n- **${kind}**: a change.\n`,
  );
  return parseChangelog(
    `# Changelog\n\n${sections.join('\n')}\n## 1.0.0 — 2026-01-01\n\n- **additive**: First.\n`,
  );
}

function gate(current: Doc, log = changelog(), released: Doc = baseDocument('1.0.0')) {
  return evaluateGate({ name: 'things', released, current, changelog: log }).problems;
}

test('no change since the release passes', () => {
  assert.deepEqual(gate(baseDocument('1.0.0')), []);
});

test('a breaking change fails unless recorded as breaking under a new major version', () => {
  const current = mutated(removeEnumValue, '1.0.0');
  const [problem] = gate(current);
  assert.match(problem!, /4 breaking change\(s\) since 1\.0\.0/);
  assert.match(problem!, /enum-value-removed/);
  assert.match(problem!, /## 2\.0\.0/);
  assert.equal(gate(current, changelog(['1.1.0', 'breaking'])).length, 1, 'a minor version is not enough');
  assert.equal(gate(current, changelog(['2.0.0', 'additive'])).length, 1, 'the entry must mark it breaking');
  assert.deepEqual(gate(current, changelog(['2.0.0', 'breaking'])), []);
});

test('below 1.0.0 a new minor version may carry a breaking change', () => {
  const released = baseDocument('0.2.0');
  const log = parseChangelog(
    '## 0.3.0 — 2026-11-26\n\n- **breaking**: x.\n\n## 0.2.0 — 2026-11-01\n\n- **additive**: y.\n',
  );
  assert.deepEqual(gate(mutated(removeEnumValue, '0.2.0'), log, released), []);
  const patchOnly = parseChangelog(
    '## 0.2.1 — 2026-11-26\n\n- **breaking**: x.\n\n## 0.2.0 — 2026-11-01\n\n- **additive**: y.\n',
  );
  assert.equal(gate(mutated(removeEnumValue, '0.2.0'), patchOnly, released).length, 1);
});

test('an additive change passes once the changelog has an entry for it', () => {
  const current = mutated(addField, '1.0.0');
  const [problem] = gate(current);
  assert.match(problem!, /not in the changelog/);
  assert.match(problem!, /response-field-added/);
  assert.deepEqual(gate(current, changelog(['1.1.0', 'additive'])), []);
});

test('info.version moves only with a release, and the released version has an entry', () => {
  assert.match(
    gate(baseDocument('1.1.0'), changelog(['1.1.0', 'additive'])).join(),
    /moves only with npm run contract -- release/,
  );
  const noEntry = parseChangelog('## 0.9.0 — 2026-01-01\n\n- **additive**: x.\n');
  assert.match(gate(baseDocument('1.0.0'), noEntry).join(), /no entry for the released version 1\.0\.0/);
});

test('before the first release the gate asks for one', () => {
  const problems = evaluateGate({
    name: 'things',
    released: null,
    current: baseDocument(),
    changelog: changelog(),
  }).problems;
  assert.match(problems.join(), /no released snapshot yet/);
});
