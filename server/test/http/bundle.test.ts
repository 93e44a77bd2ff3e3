// `npm start` runs the esbuild bundle in dist/server (scripts/build.mjs), where every module has the
// bundle's URL: this drives, through the bundle, each path that reads a file at run time (the
// dashboard, room and reference files, vendored browser modules, avatars, migrations, the Flite
// worker thread) and the mailbox, so that a file the bundle cannot find fails here, not in front
// of a user. The rest of the suite runs the sources.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../src/core/testing/free-port.ts';
import { AVATAR_ASSET_PREFIX, AVATARS, VOICES } from '../../src/platform/personas/catalog.ts';

let child: ChildProcess;
let output = '';
let platform: string;
let mailbox: string;
const dataDir = mkdtempSync(join(tmpdir(), 'understudy-bundle-'));

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await ok())) {
    if (Date.now() > deadline || child.exitCode !== null) assert.fail(`${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { encoding: 'utf8' });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
  const [port, mailboxPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
  platform = `http://127.0.0.1:${port}`;
  mailbox = `http://127.0.0.1:${mailboxPort}`;
  // What `npm start` runs, without npm in between.
  child = spawn(process.execPath, ['scripts/start.mjs', 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      MAILBOX_PORT: String(mailboxPort),
      SMTP_PORT: String(smtpPort),
      PUBLIC_URL: platform,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  await waitFor('the bundle became ready', () =>
    get(`${platform}/readyz`).then(
      (response) => response.ok,
      () => false,
    ),
  );
  await waitFor('the banner was written', () => /auth\/signup/.test(output));
});

after(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the bundle `npm start` runs', () => {
  test('serves the dashboard, its files and its vendored modules', async () => {
    const page = await get(`${platform}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module"/);
    const css = await get(`${platform}/dashboard-assets/dashboard.css`);
    assert.equal(css.status, 200);
    assert.ok((await css.text()).length > 1000);
    const preact = await get(`${platform}/dashboard-assets/vendor/htm-preact.js`);
    assert.equal(preact.status, 200);
    assert.match(await preact.text(), /export/);
  });

  test('serves the room files, the avatars and the reference site', async () => {
    const css = await get(`${platform}/room-assets/room.css`);
    assert.equal(css.status, 200);
    const avatar = await get(`${platform}${AVATAR_ASSET_PREFIX}${AVATARS[0]!.file}`);
    assert.equal(avatar.status, 200);
    assert.match(await avatar.text(), /<svg/);
    const docs = await get(`${platform}/docs`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /Understudy/);
    const asset = await get(`${platform}/docs/assets/reference.css`);
    assert.equal(asset.status, 200);
  });

  test('signs up, creates a key, speaks a voice sample through the Flite worker, and reaches the mailbox', async () => {
    const signup = await fetch(`${platform}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bundle@example.com', password: 'a-long-password-1', name: 'Bundle' }),
    });
    assert.equal(signup.status, 201, await signup.clone().text());
    const { token } = (await signup.json()) as { token: string };
    const created = await fetch(`${platform}/v1/api-secrets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bundle' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const { secret } = ((await created.json()) as { data: { secret: string } }).data;
    const auth = { authorization: `Bearer ${secret}` };

    // The seeded scenarios came from the migrations read beside the sources.
    const scenarios = await get(`${platform}/v1/scenarios`, auth);
    assert.equal(scenarios.status, 200);

    const sample = await get(`${platform}/v1/voices/${VOICES[0]!.id}/sample`, auth);
    assert.equal(sample.status, 200, await sample.clone().text());
    assert.equal(sample.headers.get('content-type'), 'audio/wav');
    assert.ok((await sample.arrayBuffer()).byteLength > 16_000, 'a second or more of speech');

    const inboxes = await get(`${mailbox}/v0/inboxes`, auth);
    assert.equal(inboxes.status, 200, await inboxes.clone().text());
  });
});
