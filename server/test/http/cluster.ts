// Test kit for deployments of the compiled build as separate processes (docs/deployment.md): a
// throwaway PostgreSQL database, `serve --role …` processes sharing it, Redis, one encryption key
// and one storage directory, and the small helpers their tests share.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The server the throwaway database is created on (DATABASE_URL's, when the suite runs on PostgreSQL). */
export const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = 'redis://127.0.0.1:6379';
const ENTRY = 'dist/server/main.js';

export function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs one statement on `url` (by default the server, for creating and dropping databases). */
export async function admin(statement: string, url = SERVER_URL, params: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, params)).rows;
  } finally {
    await client.end();
  }
}

export async function json(response: Response, status: number): Promise<any> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  return text ? JSON.parse(text) : null;
}

/** Polls `read` every `intervalMs` until it gives something truthy. */
export async function eventually<T>(
  read: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Builds dist/ when a source is newer (a no-op otherwise): the processes run the compiled build. */
export function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { encoding: 'utf8' });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
}

/** One `serve --role …` process of the compiled build, with what it printed. */
export class Role {
  output = '';
  readonly exited: Promise<number | null>;
  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    /** Where it listens (`http://127.0.0.1:<PORT>`) when started with a PORT; '' otherwise. */
    readonly url = '',
  ) {
    child.stdout!.on('data', (chunk) => {
      this.output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      this.output += chunk;
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Waits for the process's `ready` log line (written once every role it runs listens). */
  async ready(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!/"msg":"ready"/.test(this.output)) {
      if (this.child.exitCode !== null) assert.fail(`${this.name} exited early:\n${this.tail()}`);
      if (Date.now() > deadline) assert.fail(`${this.name} not ready:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  tail(): string {
    return this.output.slice(-4000);
  }
}

/** Processes of one deployment on a database of their own; `close()` stops them and drops it. */
export class Cluster {
  readonly database = `understudy_cluster_${randomBytes(6).toString('hex')}`;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'understudy-cluster-'));
  readonly adminKey = `admin_${randomBytes(16).toString('hex')}`;
  readonly roles: Role[] = [];
  readonly #sharedKey = randomBytes(32).toString('hex');

  get databaseUrl(): string {
    const url = new URL(SERVER_URL);
    url.pathname = `/${this.database}`;
    return url.toString();
  }

  async create(): Promise<void> {
    await admin(`create database ${this.database}`);
  }

  /** Starts `serve --role <role>`; `env` adds to (or overrides) what every process shares. */
  start(name: string, role: string, env: Record<string, string>): Role {
    const child = spawn(process.execPath, [ENTRY, 'serve', '--role', role], {
      env: {
        ...process.env,
        DATABASE_URL: this.databaseUrl,
        REDIS_URL,
        // Every instance shares the key that seals secrets at rest, and the storage directory.
        ENCRYPTION_KEY: this.#sharedKey,
        DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        MAILBOX_ADMIN_KEY: this.adminKey,
        MAIL_DOMAIN: 'mail.test',
        // The sign-in budget is per address (127.0.0.1 here) and counted in the shared Redis,
        // where the suite's other files, run beside this one, spend it too.
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        SHUTDOWN_TIMEOUT_MS: '20000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new Role(name, child, env.PORT ? `http://127.0.0.1:${env.PORT}` : '');
    this.roles.push(started);
    return started;
  }

  query(statement: string, params: unknown[] = []): Promise<any[]> {
    return admin(statement, this.databaseUrl, params);
  }

  async close(): Promise<void> {
    for (const role of this.roles) if (role.child.exitCode === null) role.child.kill('SIGKILL');
    await Promise.all(this.roles.map((role) => role.exited));
    await admin(`drop database if exists ${this.database} with (force)`).catch(() => {});
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Signs up on `baseUrl` and makes an API key: the bearer for /v1 calls. */
export async function signUpWithKey(baseUrl: string, email = 'ops@example.com'): Promise<string> {
  const signup = await json(
    await fetch(`${baseUrl}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', name: 'Ops' }),
    }),
    201,
  );
  const secret = await json(
    await fetch(`${baseUrl}/v1/api-secrets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${signup.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cluster test' }),
    }),
    201,
  );
  return secret.data.secret;
}

/** A /v1 caller with an API key. */
export function v1(baseUrl: string, key: string) {
  return async (method: string, path: string, body: unknown, status: number) => {
    const answer = await json(
      await fetch(`${baseUrl}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      status,
    );
    return answer?.data ?? answer;
  };
}
