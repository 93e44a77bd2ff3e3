import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { createCoreDeps, disposeAll } from '../src/app/core-deps.ts';
import { buildPlatformApp } from '../src/app/platform-app.ts';
import { createPlatformDeps, type PlatformDeps } from '../src/app/platform-deps.ts';
import { loadConfig } from '../src/config.ts';
import { FakeClock } from '../src/core/clock.ts';
import { type Database, openPostgres } from '../src/core/db/database.ts';
import { openMigratedPGlite } from '../src/core/db/testing/migrated-pglite.ts';
import type { CoreDeps } from '../src/core/deps.ts';
import type { AppInstance } from '../src/core/http/types.ts';
import type { LiveHubOverrides } from '../src/platform/live/wiring.ts';
import type { SpeechEngines } from '../src/platform/speech/types.ts';

/**
 * Test databases: in-memory PGlite by default; the machine's PostgreSQL when DATABASE_URL is set
 * (CI runs the suite both ways). Each test creates its own workspace, so tests share a database safely.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgres(url) : openMigratedPGlite();
}

export const TEST_ENCRYPTION_KEY = 'a1'.repeat(32);

/**
 * For tests that count a per-address budget down to its 429: every test file calls from 127.0.0.1, so
 * on a shared Redis the address's counter holds the other files' requests too. These apps count in
 * memory instead (the Redis-shared budget has its own test).
 */
export const OWN_COUNTERS = { REDIS_URL: '' };

export function testConfig(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'understudy-test-'));
  return {
    dataDir,
    config: loadConfig({
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      // Test files share one Redis: sign-ups and credential-less /v1 requests (room routes, 401s)
      // from every file would otherwise share one address budget.
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      REDIS_URL: process.env.REDIS_URL ?? '',
      ...env,
    }),
  };
}

export interface TestCoreOptions {
  env?: Record<string, string>;
  clock?: FakeClock;
  database?: Database;
  /** The live hub's timings, shortened for tests of fillers and idle calls, or its segmenter swapped. */
  liveHub?: LiveHubOverrides;
  /** Speech engines to use instead of the configured ones (fakes, or real engines the test closes). */
  speech?: SpeechEngines;
}

export async function startCore(
  options: TestCoreOptions = {},
): Promise<CoreDeps & { close(): Promise<void> }> {
  const { config, dataDir } = testConfig(options.env);
  const database = options.database ?? (await openTestDatabase());
  const core = await createCoreDeps(config, {
    database,
    clock: options.clock,
    logger: pino({ level: 'silent' }),
  });
  return {
    ...core,
    async close() {
      await disposeAll(core);
      if (!options.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Workspace {
  token: string;
  accountId: string;
  membershipId: string;
  userId: string;
  email: string;
}

/** A fresh workspace with an API key, and a shorthand for calling /v1 with that key. */
export interface ApiClient extends Workspace {
  /** The plain API key. */
  key: string;
  keyId: number;
  /** `method` on `/v1<url>`, with the key; `payload` is sent as JSON (or as given when a Buffer). */
  call(
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export interface TestPlatform {
  app: AppInstance;
  deps: PlatformDeps;
  clock: FakeClock;
  /** Signs up a fresh user with their own workspace. */
  signup(): Promise<Workspace>;
  /** Creates an API key for the workspace and returns its plain secret and id. */
  createApiKey(workspace: Workspace, body?: Record<string, unknown>): Promise<{ secret: string; id: number }>;
  /** Signs up a fresh workspace and creates an API key for it (full access unless `keyBody` has `scopes`). */
  workspace(keyBody?: Record<string, unknown>): Promise<ApiClient>;
  /**
   * A new user invited into `workspace` with `role` (through the invitation API, accepted by
   * signing up): their user token, with the workspace's ids.
   */
  member(workspace: Workspace, role: string): Promise<Workspace>;
  close(): Promise<void>;
}

let counter = 0;

export async function startPlatform(options: TestCoreOptions = {}): Promise<TestPlatform> {
  const clock = options.clock ?? new FakeClock(new Date());
  const core = await startCore({ ...options, clock });
  const deps = await createPlatformDeps(core, { liveHub: options.liveHub, speech: options.speech });
  const app = await buildPlatformApp(deps);
  await app.ready();
  const platform: TestPlatform = {
    app,
    deps,
    clock,
    async signup() {
      counter += 1;
      const email = `user${Date.now()}${process.pid}${counter}@example.com`;
      const response = await app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, password: 'correct horse battery', name: `Tester ${counter}` },
      });
      if (response.statusCode !== 201) throw new Error(`signup failed: ${response.body}`);
      const body = response.json();
      return {
        token: body.token,
        accountId: body.account.id,
        membershipId: body.membership_id,
        userId: body.user.id,
        email,
      };
    },
    async createApiKey(workspace, body = { name: 'test key' }) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/api-secrets',
        headers: { authorization: `Bearer ${workspace.token}` },
        payload: body,
      });
      if (response.statusCode !== 201) throw new Error(`key creation failed: ${response.body}`);
      const { data } = response.json();
      return { secret: data.secret, id: data.id };
    },
    async workspace(keyBody) {
      const workspace = await platform.signup();
      const { secret, id } = await platform.createApiKey(workspace, keyBody);
      return {
        ...workspace,
        key: secret,
        keyId: id,
        call: (method, url, payload, headers = {}) =>
          app.inject({
            method: method as 'GET',
            url: `/v1${url}`,
            headers: { ...bearer(secret), ...headers },
            ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
          }),
      };
    },
    async member(workspace, role) {
      counter += 1;
      const email = `member${Date.now()}${process.pid}${counter}@example.com`;
      const invited = ok(
        await app.inject({
          method: 'POST',
          url: '/v1/invitations',
          headers: bearer(workspace.token),
          payload: { email, role },
        }),
        201,
      ).data;
      const token = String(invited.url).split('/').pop()!;
      const accepted = await app.inject({
        method: 'POST',
        url: `/v1/auth/invitations/${token}/accept`,
        payload: { name: `Member ${counter}`, password: 'correct horse battery' },
      });
      const view = ok(accepted, 201);
      const login = ok(
        await app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email, password: 'correct horse battery' },
        }),
      );
      const membership = await deps.db
        .selectFrom('memberships')
        .select('id')
        .where('user_id', '=', view.user.id)
        .where('account_id', '=', workspace.accountId)
        .executeTakeFirstOrThrow();
      return {
        token: login.token,
        accountId: workspace.accountId,
        membershipId: membership.id,
        userId: view.user.id,
        email,
      };
    },
    async close() {
      await app.close();
      await core.close();
    },
  };
  return platform;
}

/** The response's JSON body, after checking its status (the body is the failure message). */
export function ok<T = any>(response: LightMyRequestResponse, status = 200): T {
  if (response.statusCode !== status) {
    throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  }
  return response.json() as T;
}

/** The error body of a response with `status`, and (when given) the error's `param`. */
export function expectError(response: LightMyRequestResponse, status: number, param?: string | null) {
  const body = response.json();
  if (response.statusCode !== status || (param !== undefined && body.error?.param !== param)) {
    throw new Error(
      `expected ${status}${param !== undefined ? ` with param ${param}` : ''}, got ${response.statusCode}: ${response.body}`,
    );
  }
  return body;
}

/** The error body of a response with `status`, and (when given) the error's `code`. */
export function expectErrorCode(response: LightMyRequestResponse, status: number, code?: string) {
  const body = response.json();
  if (response.statusCode !== status || (code !== undefined && body.error?.code !== code)) {
    throw new Error(`expected ${status} ${code ?? ''}, got ${response.statusCode}: ${response.body}`);
  }
  return body;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface ListeningPlatform extends TestPlatform {
  /** `http://127.0.0.1:<port>`, also the platform's PUBLIC_URL (so the URLs it returns work). */
  baseUrl: string;
}

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The platform listening on a real loopback port, for browser and WebSocket tests. PUBLIC_URL is
 * that address, so room and avatar URLs in responses open as they are.
 */
export async function startListeningPlatform(options: TestCoreOptions = {}): Promise<ListeningPlatform> {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const platform = await startPlatform({ ...options, env: { PUBLIC_URL: baseUrl, ...options.env } });
  await platform.app.listen({ port, host: '127.0.0.1' });
  return { ...platform, baseUrl };
}
