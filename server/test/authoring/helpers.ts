import type { LightMyRequestResponse } from 'fastify';
import { bearer, type TestPlatform } from '../harness.ts';

export interface Caller {
  key: string;
  accountId: string;
  call(
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

/** A fresh workspace with an API key, and a shorthand for calling /v1 as it. */
export async function workspace(t: TestPlatform): Promise<Caller> {
  const ws = await t.signup();
  const { secret } = await t.createApiKey(ws);
  return {
    key: secret,
    accountId: ws.accountId,
    call: (method, url, payload, headers = {}) =>
      t.app.inject({
        method: method as 'GET',
        url: `/v1${url}`,
        headers: { ...bearer(secret), ...headers },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

export function expectError(response: LightMyRequestResponse, status: number, param?: string | null) {
  const body = response.json();
  if (response.statusCode !== status || (param !== undefined && body.error?.param !== param)) {
    throw new Error(
      `expected ${status}${param !== undefined ? ` with param ${param}` : ''}, got ${response.statusCode}: ${response.body}`,
    );
  }
  return body;
}

export function ok<T = any>(response: LightMyRequestResponse, status = 200): T {
  if (response.statusCode !== status)
    throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  return response.json() as T;
}

export const personaBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Dana Whitfield',
  job_title: 'VP of Engineering',
  demeanor: 'analytical',
  background: 'Runs a platform team.',
  gender: 'female',
  ...overrides,
});
