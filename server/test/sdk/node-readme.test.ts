// The quick start of sdk/node/README.md, run as written (only the package name points at the
// sources) against a real platform, with the environment variables the README names.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type ApiClient, type ListeningPlatform, startListeningPlatform } from '../harness.ts';

const SDK = resolve(import.meta.dirname, '../../../sdk/node');

let t: ListeningPlatform;
let api: ApiClient;
const dir = mkdtempSync(join(tmpdir(), 'sdk-node-readme-'));

before(async () => {
  t = await startListeningPlatform();
  api = await t.workspace();
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

function quickStart(): string {
  const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = section.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(code, 'the README has a quick start in a js block');
  assert.ok(code.includes("from '@understudy/sdk'"), 'it imports the published package name');
  return code.replace("'@understudy/sdk'", `'${pathToFileURL(join(SDK, 'src/index.ts')).href}'`);
}

test('the README quick start runs as written against a real server', async () => {
  const script = join(dir, 'quick-start.mjs');
  writeFileSync(script, quickStart());
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: resolve(SDK, '../..'),
    env: { ...process.env, UNDERSTUDY_API_KEY: api.key, UNDERSTUDY_BASE_URL: t.baseUrl },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  assert.equal(code, 0, `the quick start failed:\n${stderr}\n${stdout}`);
  assert.match(stdout, new RegExp(`room: ${t.baseUrl}/room/\\S+`));
  assert.match(stdout, /scenario: Backend interview/);
  assert.match(stdout, /not found: 404 resource_not_found \S+/);
});
