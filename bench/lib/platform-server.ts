// What every platform benchmark server shares: its configuration (a throw-away data directory, no
// LLM, rate limits out of the way), listening on loopback, a small JSON client, and a fresh
// workspace with an API key and a persona to build scenarios on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../server/src/config.ts';
import type { AppInstance } from '../../server/src/core/http/types.ts';

export function benchConfig(name: string, overrides: Record<string, string> = {}): Readonly<Config> {
  return loadConfig({
    ...process.env,
    DATA_DIR: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
    LOG_LEVEL: 'warn',
    LLM_BASE_URL: '',
    SEARCH_URL: '',
    RATE_LIMIT_PER_MINUTE: '10000000',
    WRITE_RATE_LIMIT_PER_MINUTE: '10000000',
    ...overrides,
  });
}

export type BenchCall = (method: string, path: string, token: string | null, body?: unknown) => Promise<any>;

/** Listens on 127.0.0.1 (a free port) and answers the base URL and a client for it. */
export async function listenOnLoopback(app: AppInstance): Promise<{ base: string; call: BenchCall }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const call: BenchCall = async (method, path, token, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { base, call };
}

/** Signs a new workspace up and answers its API key, its account id and a persona to interview with. */
export async function benchWorkspace(
  call: BenchCall,
  name: string,
): Promise<{ key: string; accountId: string; personaId: string }> {
  const signup = await call('POST', '/auth/signup', null, {
    email: `bench-${name}-${Date.now()}@example.com`,
    password: 'benchmark password',
    name: 'Bench',
  });
  const key = (await call('POST', '/v1/api-secrets', signup.token, { name: 'bench key' })).data
    .secret as string;
  const persona = await call('POST', '/v1/personas', key, {
    name: 'Morgan Lee',
    job_title: 'Engineering Manager',
    demeanor: 'analytical',
    gender: 'female',
  });
  return { key, accountId: signup.account.id, personaId: persona.id };
}
