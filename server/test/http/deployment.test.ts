// The deployment of docs/deployment.md, run from the compiled build as separate processes on one
// PostgreSQL and one Redis: two API instances, one worker, the SMTP listener and the mailbox API.
// A meeting is created on instance A, held over a room WebSocket on instance B and finalised by the
// worker process (A then reads the transcript); a mail sent to the SMTP process into an inbox made
// through the mailbox process is read back from it. SIGTERM then drains each process to exit 0,
// handing an open room WebSocket over with 1012. Skipped when PostgreSQL or Redis is not reachable.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { freePort } from '../../src/core/testing/free-port.ts';
import { Participant } from '../live/helpers.ts';
import { admin, buildIfStale, eventually, json, REDIS_URL, Role, reachable, SERVER_URL } from './cluster.ts';

const ENTRY = 'dist/server/main.js';

// A PostgreSQL deployment: it runs in the suite's PostgreSQL pass (DATABASE_URL set), once.
const skip = !process.env.DATABASE_URL
  ? 'runs when the suite runs on PostgreSQL (DATABASE_URL set)'
  : (await reachable(5432)) && (await reachable(6379))
    ? false
    : 'PostgreSQL or Redis is not reachable';

describe('the documented deployment, as separate compiled processes', { skip }, () => {
  const database = `understudy_deploy_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'understudy-deploy-'));
  const adminKey = `admin_${randomBytes(16).toString('hex')}`;
  const roles: Role[] = [];
  const ports = { a: 0, b: 0, mailbox: 0, smtp: 0 };
  let api!: { a: string; b: string; mailbox: string };

  async function jobState(dedupeKey: string): Promise<string | undefined> {
    const url = new URL(SERVER_URL);
    url.pathname = `/${database}`;
    const rows = await admin('select state from jobs where dedupe_key = $1', url.toString(), [dedupeKey]);
    return rows[0]?.state;
  }

  function start(name: string, role: string, env: Record<string, string>): Role {
    const url = new URL(SERVER_URL);
    url.pathname = `/${database}`;
    const child = spawn(process.execPath, [ENTRY, 'serve', '--role', role], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        REDIS_URL,
        // Every instance shares the key that seals secrets at rest, and the storage directory.
        ENCRYPTION_KEY: sharedKey,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        MAILBOX_ADMIN_KEY: adminKey,
        MAIL_DOMAIN: 'mail.test',
        // The sign-in budget is per address (127.0.0.1 here) and counted in the shared Redis,
        // where the suite's other files, run beside this one, spend it too: its default of 30 a
        // minute once refused this test's login with 429.
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        PORT: String(ports.a),
        MAILBOX_PORT: String(ports.mailbox),
        SMTP_PORT: String(ports.smtp),
        SHUTDOWN_TIMEOUT_MS: '20000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new Role(name, child);
    roles.push(started);
    return started;
  }
  const sharedKey = randomBytes(32).toString('hex');

  before(async () => {
    // The test runs the build itself (a no-op when dist is newer than every source).
    buildIfStale();
    await admin(`create database ${database}`);
    ports.a = await freePort();
    ports.b = await freePort();
    ports.mailbox = await freePort();
    ports.smtp = await freePort();
    api = {
      a: `http://127.0.0.1:${ports.a}`,
      b: `http://127.0.0.1:${ports.b}`,
      mailbox: `http://127.0.0.1:${ports.mailbox}`,
    };
    // All at once: the migrations run under an advisory lock, so one process applies them.
    start('api A', 'api', { PUBLIC_URL: api.a });
    start('api B', 'api', { PORT: String(ports.b), PUBLIC_URL: api.b });
    start('worker', 'worker', {});
    start('smtp', 'smtp', {});
    start('mailbox', 'mailbox', {});
    await Promise.all(roles.map((role) => role.ready()));
  });

  after(async () => {
    for (const role of roles) if (role.child.exitCode === null) role.child.kill('SIGKILL');
    await Promise.all(roles.map((role) => role.exited));
    await admin(`drop database if exists ${database} with (force)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('each role listens only where it should', async () => {
    assert.equal((await fetch(`${api.a}/healthz`)).status, 200);
    assert.equal((await fetch(`${api.b}/healthz`)).status, 200);
    assert.equal((await fetch(`${api.mailbox}/healthz`)).status, 200);
    assert.ok(await reachable(ports.smtp), 'the smtp process listens');
    assert.match(roles[2]!.output, /"msg":"workers running"/);
    for (const role of roles.filter((role) => role.name !== 'worker'))
      assert.doesNotMatch(role.output, /"msg":"workers running"/, `${role.name} runs no workers`);
  });

  let key = '';
  test('a meeting created on A, held on B, finalised by the worker, read from A', async () => {
    const signup = await json(
      await fetch(`${api.a}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'correct horse battery', name: 'Ops' }),
      }),
      201,
    );
    const secret = await json(
      await fetch(`${api.a}/v1/api-secrets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${signup.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'deployment test' }),
      }),
      201,
    );
    key = secret.data.secret;
    const call = async (base: string, method: string, path: string, body: unknown, status: number) =>
      json(
        await fetch(`${base}/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        status,
      );
    const persona = await call(
      api.a,
      'POST',
      '/personas',
      {
        name: 'Jane Doe',
        job_title: 'Engineering Manager',
        demeanor: 'friendly',
        background: 'Has hired forty engineers.',
        gender: 'female',
      },
      201,
    );
    const scenario = await call(
      api.b,
      'POST',
      '/scenarios',
      {
        name: 'Backend interview',
        type: 'interview',
        persona_id: persona.id ?? persona.data.id,
        prompt: '## Questions\n1. Ask about their background.\n2. Ask about a system they designed.',
        welcome_message: 'Hi, I am Jane. Shall we begin?',
        call_duration: 30,
      },
      201,
    );
    const scenarioId = scenario.id ?? scenario.data.id;
    const meeting = (
      await call(api.a, 'POST', '/meetings', { scenario_id: scenarioId, person_name: 'Sam Lee' }, 201)
    ).data;

    const participant = await Participant.connect(api.b, meeting.id, meeting.room_token);
    await participant.join();
    assert.equal((await participant.next('agent.message')).text, 'Hi, I am Jane. Shall we begin?');
    const answer = await participant.say('Yes, ready.');
    assert.ok(answer.text.length > 0);
    participant.send({ type: 'leave' });
    assert.equal((await participant.next('ended')).reason, 'participant_left');

    // Only the worker process runs meeting.finalize: the transcript completes there.
    const transcripts = await eventually(async () => {
      const list = await call(api.a, 'GET', `/transcripts/meeting/${meeting.id}`, undefined, 200);
      return list.length === 1 && list[0].status === 'completed' ? list : null;
    }, 'the transcript');
    assert.match(
      transcripts[0].content,
      /^Jane Doe: Hi, I am Jane\. Shall we begin\?\nSam Lee: Yes, ready\./,
    );
    const read = (await call(api.a, 'GET', `/meetings/${meeting.id}`, undefined, 200)).data;
    assert.equal(read.status, 'ended');
    assert.equal(read.end_reason, 'participant_left');
    // The API instances run no job runner (the first test): the worker process ran it.
    assert.equal(await jobState(`meeting.finalize:${meeting.id}`), 'succeeded');
  });

  test('a mail sent to the SMTP process lands in an inbox made through the mailbox process', async () => {
    const request = async (method: string, path: string, body: unknown, status: number) =>
      json(
        await fetch(`${api.mailbox}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${adminKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        status,
      );
    const inbox = await request('POST', '/v0/inboxes', { username: 'support' }, 201);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: ports.smtp,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({
        from: 'Alice <alice@example.com>',
        to: inbox.inbox_id,
        subject: 'Across processes',
        text: 'Stored by the SMTP process, read through the mailbox API.',
      });
    } finally {
      transport.close();
    }
    const list = await eventually(async () => {
      const body = await request('GET', `/v0/inboxes/${inbox.inbox_id}/messages`, undefined, 200);
      return body.count === 1 ? body : null;
    }, 'the message');
    assert.equal(list.messages[0].subject, 'Across processes');
    assert.equal(list.messages[0].text.trim(), 'Stored by the SMTP process, read through the mailbox API.');
  });

  test('SIGTERM drains every process to exit 0; an open room socket is handed over with 1012', async () => {
    assert.ok(key, 'the meeting test ran');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const scenarios = await json(await fetch(`${api.a}/v1/scenarios`, { headers }), 200);
    const scenarioId = (scenarios.data ?? scenarios)[0].id;
    const meeting = (
      await json(
        await fetch(`${api.a}/v1/meetings`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ scenario_id: scenarioId, person_name: 'Sam Lee' }),
        }),
        201,
      )
    ).data;
    const participant = await Participant.connect(api.b, meeting.id, meeting.room_token);
    await participant.join();
    await participant.next('agent.message');
    // A request in flight when the signal comes (half its body sent) is still answered.
    const inFlight = createConnection({ host: '127.0.0.1', port: ports.a });
    await new Promise((resolve) => inFlight.once('connect', resolve));
    const body = JSON.stringify({ email: 'ops@example.com', password: 'not the password' });
    let answer = '';
    inFlight.on('data', (chunk) => {
      answer += chunk;
    });
    const answered = new Promise((resolve) => inFlight.once('close', resolve));
    inFlight.write(
      `POST /auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const role of roles) role.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    inFlight.write(body.slice(10));
    await answered;
    assert.match(answer, /^HTTP\/1\.1 401 /, 'the request in flight was answered, not cut or refused');
    // The room socket is handed over (1012: resume at once on another instance), not just dropped.
    assert.equal(await participant.closed(30_000), 1012);
    for (const role of roles) assert.equal(await role.exited, 0, `${role.name}:\n${role.tail()}`);
  });
});
