// The Node SDK packs as it would publish: `npm pack` builds it (prepack), and the tarball, unpacked
// as a dependency of a plain project, loads in plain Node (no TypeScript loader) and makes a call.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';

const run = promisify(execFile);
const SDK_DIR = join(import.meta.dirname, '..', '..', '..', 'sdk', 'node');

let t: ListeningPlatform;
let work: string;
before(async () => {
  t = await startListeningPlatform();
  work = mkdtempSync(join(tmpdir(), 'understudy-sdk-pack-'));
});
after(async () => {
  rmSync(work, { recursive: true, force: true });
  await t.close();
});

test('npm pack yields a tarball whose entry point loads in plain Node and calls the API', async () => {
  // Asynchronous child processes throughout: the platform this process hosts must keep answering.
  await run('npm', ['pack', '--pack-destination', work, '--offline', '--silent'], {
    cwd: SDK_DIR,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  assert.ok(tarball, 'a tarball was written');
  const { stdout: listing } = await run('tar', ['-tzf', join(work, tarball)]);
  const files = listing.split('\n').filter(Boolean);
  for (const file of [
    'package/dist/index.js',
    'package/dist/index.d.ts',
    'package/package.json',
    'package/README.md',
  ]) {
    assert.ok(files.includes(file), `${file} is packed`);
  }
  assert.deepEqual(
    files.filter(
      (file) => !file.startsWith('package/dist/') && !/^package\/(package\.json|README\.md)$/.test(file),
    ),
    [],
    'nothing but dist, package.json and README.md',
  );
  assert.ok(!files.some((file) => /\.test\.|\/src\//.test(file)), 'no sources or tests');

  await run('tar', ['-xzf', join(work, tarball), '-C', work]);
  const app = join(work, 'app');
  mkdirSync(join(app, 'node_modules', '@understudy'), { recursive: true });
  renameSync(join(work, 'package'), join(app, 'node_modules', '@understudy', 'sdk'));
  const ws = await t.workspace();
  const scenarioId = ok(await ws.call('GET', '/scenarios')).data[0].id;
  writeFileSync(
    join(app, 'call.mjs'),
    `import { Understudy } from '@understudy/sdk';
const client = new Understudy({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL });
const scenario = await client.scenarios.get(process.env.SCENARIO_ID);
console.log(JSON.stringify({ id: scenario.id ?? scenario.data?.id }));
`,
  );
  // No --import tsx: the environment's NODE_OPTIONS is dropped so that no loader rides along.
  const { NODE_OPTIONS: _loader, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['call.mjs'], {
    cwd: app,
    env: { ...env, KEY: ws.key, BASE_URL: t.baseUrl, SCENARIO_ID: scenarioId },
  });
  assert.equal(JSON.parse(stdout.trim()).id, scenarioId);
});
