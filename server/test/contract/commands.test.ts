import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkContracts, fingerprintCommand, releaseCommand } from '../../src/contract/commands.ts';
import { ContractFiles } from '../../src/contract/contract-files.ts';
import type { ContractDefinition } from '../../src/contract/contracts.ts';
import { baseDocument, type Doc } from './fixtures.ts';

const contract: ContractDefinition = {
  name: 'things',
  document: 'openapi/things-v1.json',
  changelog: 'CHANGELOG.md',
  versionSource: { file: 'version.ts', constant: 'THINGS_API_VERSION' },
};

/** A repository with a version source, a changelog, and a stand-in for `npm run openapi`. */
function repository() {
  const root = mkdtempSync(join(tmpdir(), 'contract-'));
  mkdirSync(join(root, 'openapi'));
  writeFileSync(join(root, 'version.ts'), "export const THINGS_API_VERSION = '0.0.0';\n");
  const state = { document: baseDocument() as Doc, generated: 0 };
  const generate = async () => {
    const version = /'([^']+)'/.exec(readFileSync(join(root, 'version.ts'), 'utf8'))![1];
    const document = { ...structuredClone(state.document), info: { ...state.document.info, version } };
    writeFileSync(join(root, contract.document), `${JSON.stringify(document, null, 2)}\n`);
    writeFileSync(
      join(root, 'openapi/things-v1.asyncapi.json'),
      `${JSON.stringify({ asyncapi: '3.0.0', info: { version } })}\n`,
    );
    state.generated++;
  };
  const changelog = (text: string) => writeFileSync(join(root, 'CHANGELOG.md'), `# Things\n\n${text}`);
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  return { root, files: new ContractFiles(root), state, generate, changelog, read };
}

const entry = (version: string, kind: string) => `## ${version} — 2026-11-26\n\n- **${kind}**: a change.\n\n`;

test('release sets the version, snapshots the documents and fingerprints them; check then passes', async () => {
  const repo = repository();
  repo.changelog(entry('1.0.0', 'additive'));
  const result = await releaseCommand(repo.files, [contract], repo.generate);
  assert.ok(result.ok, result.lines.join('\n'));
  assert.match(repo.read('version.ts'), /THINGS_API_VERSION = '1\.0\.0'/);
  assert.equal(JSON.parse(repo.read('openapi/releases/things-v1.json')).info.version, '1.0.0');
  assert.equal(
    repo.read('openapi/releases/things-v1.asyncapi.json'),
    repo.read('openapi/things-v1.asyncapi.json'),
  );
  assert.match(repo.read('openapi/things-v1.json.sha256'), /^[0-9a-f]{64}\n$/);
  assert.match(repo.read('openapi/things-v1.asyncapi.json.sha256'), /^[0-9a-f]{64}\n$/);
  const check = checkContracts(repo.files, [contract]);
  assert.ok(check.ok, check.lines.join('\n'));
});

test('running a release again with nothing new rewrites the same bytes', async () => {
  const repo = repository();
  repo.changelog(entry('1.0.0', 'additive'));
  await releaseCommand(repo.files, [contract], repo.generate);
  const paths = [
    'version.ts',
    'openapi/things-v1.json',
    'openapi/things-v1.json.sha256',
    'openapi/releases/things-v1.json',
  ];
  const before = paths.map(repo.read);
  const again = await releaseCommand(repo.files, [contract], repo.generate);
  assert.ok(again.ok, again.lines.join('\n'));
  assert.match(again.lines.join(), /1\.0\.0 is already released/);
  assert.deepEqual(paths.map(repo.read), before);
});

test('a stale fingerprint fails the check until the change passes the gate and is fingerprinted', async () => {
  const repo = repository();
  repo.changelog(entry('1.0.0', 'additive'));
  await releaseCommand(repo.files, [contract], repo.generate);
  repo.state.document.components.schemas.Thing.properties.colour = { type: 'string' };
  await repo.generate();
  const stale = checkContracts(repo.files, [contract]);
  assert.equal(stale.ok, false);
  assert.match(stale.lines.join('\n'), /things-v1\.json does not match openapi\/things-v1\.json\.sha256/);
  assert.match(stale.lines.join('\n'), /not in the changelog/);

  assert.equal(fingerprintCommand(repo.files, [contract]).ok, false, 'the gate comes first');
  repo.changelog(entry('1.1.0', 'additive') + entry('1.0.0', 'additive'));
  assert.ok(fingerprintCommand(repo.files, [contract]).ok);
  assert.ok(checkContracts(repo.files, [contract]).ok, 'recorded, fingerprinted, not yet released');

  writeFileSync(join(repo.root, 'openapi/things-v1.json.sha256'), `${'0'.repeat(64)}\n`);
  assert.equal(checkContracts(repo.files, [contract]).ok, false, 'a fingerprint edited by hand fails');
});

test('release refuses a breaking change until the changelog records it under a new major', async () => {
  const repo = repository();
  repo.changelog(entry('1.0.0', 'additive'));
  await releaseCommand(repo.files, [contract], repo.generate);
  delete repo.state.document.paths['/things/{id}'].delete;

  repo.changelog(entry('1.1.0', 'breaking') + entry('1.0.0', 'additive'));
  const refused = await releaseCommand(repo.files, [contract], repo.generate);
  assert.equal(refused.ok, false);
  assert.match(refused.lines.join('\n'), /operation-removed {2}DELETE \/things\/\{id\}/);
  assert.match(repo.read('version.ts'), /'1\.0\.0'/, 'nothing released');
  assert.equal(checkContracts(repo.files, [contract]).ok, false, 'CI fails the same way');

  repo.changelog(entry('2.0.0', 'breaking') + entry('1.0.0', 'additive'));
  const released = await releaseCommand(repo.files, [contract], repo.generate);
  assert.ok(released.ok, released.lines.join('\n'));
  assert.equal(JSON.parse(repo.read('openapi/releases/things-v1.json')).info.version, '2.0.0');
  assert.ok(checkContracts(repo.files, [contract]).ok);
});

test('releasing one contract leaves another changed contract to its own gate', async () => {
  const repo = repository();
  const other: ContractDefinition = {
    ...contract,
    name: 'others',
    document: 'openapi/others-v1.json',
    changelog: 'OTHERS.md',
  };
  const otherDocument = (extra: boolean) => {
    const doc = baseDocument('1.0.0');
    if (extra) doc.paths['/extra'] = { get: { responses: { 200: { description: 'ok' } } } };
    writeFileSync(join(repo.root, other.document), `${JSON.stringify(doc, null, 2)}\n`);
  };
  writeFileSync(join(repo.root, 'OTHERS.md'), entry('1.0.0', 'additive'));
  repo.changelog(entry('1.0.0', 'additive'));
  otherDocument(false);
  const first = await releaseCommand(repo.files, [contract, other], repo.generate);
  assert.ok(first.ok, first.lines.join('\n'));
  assert.ok(checkContracts(repo.files, [contract, other]).ok);

  otherDocument(true);
  repo.changelog(entry('1.1.0', 'additive') + entry('1.0.0', 'additive'));
  const one = await releaseCommand(repo.files, [contract, other], repo.generate, ['things']);
  assert.ok(one.ok, one.lines.join('\n'));
  assert.deepEqual(one.lines, ['things: released 1.1.0 (was 1.0.0)']);
  const check = checkContracts(repo.files, [contract, other]);
  assert.equal(check.ok, false);
  assert.match(check.lines.join('\n'), /others-v1\.json does not match/);
  assert.match(check.lines.join('\n'), /others: 1 change\(s\) since 1\.0\.0 are not in the changelog/);
});
