// The Node SDK packs as it would publish: `npm pack` builds it (prepack), and the tarball, unpacked
// as a dependency of a plain project, loads in plain Node (no TypeScript loader) and makes a call.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';

const run = promisify(execFile);
const SDK_DIR = join(import.meta.dirname, '..', '..', '..', 'sdk', 'node');

let t: ListeningPlatform | undefined;
const work = mkdtempSync(join(tmpdir(), 'understudy-sdk-pack-'));
before(async () => {
  t = await startListeningPlatform();
});
after(async () => {
  rmSync(work, { recursive: true, force: true });
  await t?.close();
});

/**
 * The environment of a `npm pack` run from anywhere, this test run by `npm test` included: npm's own
 * npm_config_* variables (the caller's prefix, --ignore-scripts, …) would otherwise ride along.
 */
function packEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')),
  );
  return { ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
}

test('npm pack yields a tarball whose entry point loads in plain Node and calls the API', async () => {
  assert.ok(t);
  // Asynchronous child processes throughout: the platform this process hosts must keep answering.
  await run('npm', ['pack', '--pack-destination', work, '--offline', '--silent'], {
    cwd: SDK_DIR,
    env: packEnv(),
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
  assert.deepEqual(
    files.filter((file) => /\.test\.|\/src\/|(?<!\.d)\.[mc]?ts$/.test(file)),
    [],
    'no TypeScript sources or tests',
  );

  await run('tar', ['-xzf', join(work, tarball), '-C', work]);
  const app = join(work, 'app');
  mkdirSync(join(app, 'node_modules', '@understudy'), { recursive: true });
  renameSync(join(work, 'package'), join(app, 'node_modules', '@understudy', 'sdk'));
  const ws = await t.workspace();
  const listed = ok(await ws.call('GET', '/scenarios')).data[0];
  assert.ok(listed, 'a new workspace has a scenario to read');
  writeFileSync(
    join(app, 'call.mjs'),
    `import { NotFoundError, Understudy, VERSION } from '@understudy/sdk';
const client = new Understudy({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL });
const scenario = await client.scenarios.get(process.env.SCENARIO_ID);
const missing = await client.scenarios.get('00000000-0000-4000-8000-000000000000').catch((error) => error);
console.log(JSON.stringify({
  version: VERSION,
  id: scenario.id,
  name: scenario.name,
  notFound: missing instanceof NotFoundError && missing.status,
}));
`,
  );
  // No --import tsx: the environment's NODE_OPTIONS is dropped so that no loader rides along.
  const { NODE_OPTIONS: _loader, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['call.mjs'], {
    cwd: app,
    env: { ...env, KEY: ws.key, BASE_URL: t.baseUrl, SCENARIO_ID: listed.id },
  });
  const packed = JSON.parse(readFileSync(join(app, 'node_modules/@understudy/sdk/package.json'), 'utf8'));
  assert.deepEqual(JSON.parse(stdout.trim()), {
    version: packed.version,
    id: listed.id,
    name: listed.name,
    notFound: 404,
  });
});
