// Signing in for dashboard tests through the real endpoints (POST /v1/auth/signup, then
// POST /v1/auth/sessions when the address already has an account): a Cookie header for
// app.inject/fetch, or the cookie put straight into a Playwright browser context.
import type { BrowserContext } from 'playwright-core';
import type { AppInstance } from '../../src/core/http/types.ts';

export const SESSION_COOKIE = 'understudy_session';

export interface SessionCredentials {
  email: string;
  password: string;
  name: string;
}

export interface TestSession {
  /** `understudy_session=<token>`: the value of a Cookie header. */
  cookie: string;
  /** The session cookie's token alone. */
  token: string;
  /** Send as `X-CSRF-Token` with every cookie-authenticated POST/PUT/PATCH/DELETE. */
  csrfToken: string;
  user: { id: string; email: string; name: string };
  account: { id: string; name: string };
}

interface Answer {
  status: number;
  setCookie: string[];
  body: any;
}

/** A fresh address per call, for tests that need a workspace of their own. */
let counter = 0;
export function freshCredentials(prefix = 'dash'): SessionCredentials {
  counter += 1;
  return {
    email: `${prefix}-${Date.now()}-${process.pid}-${counter}@example.com`,
    password: 'correct horse battery',
    name: `Dashboard Tester ${counter}`,
  };
}

async function post(target: AppInstance | string, url: string, payload: unknown): Promise<Answer> {
  if (typeof target === 'string') {
    const response = await fetch(`${target}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return {
      status: response.status,
      setCookie: response.headers.getSetCookie(),
      body: await response.json(),
    };
  }
  const response = await target.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
  const header = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    setCookie: header === undefined ? [] : Array.isArray(header) ? header : [header],
    body: response.json(),
  };
}

/**
 * Signs up (or, when the address exists, signs in) and returns the session's cookie and CSRF
 * token. `target` is the app (app.inject) or a listening server's base URL (fetch).
 */
export async function createSessionCookie(
  target: AppInstance | string,
  credentials: SessionCredentials,
): Promise<TestSession> {
  let answer = await post(target, '/v1/auth/signup', credentials);
  if (answer.status === 409 || answer.status === 403) {
    answer = await post(target, '/v1/auth/sessions', {
      email: credentials.email,
      password: credentials.password,
    });
  }
  if (answer.status !== 201)
    throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  const line = answer.setCookie.find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('no session cookie was set');
  const cookie = line.split(';')[0]!;
  return {
    cookie,
    token: cookie.slice(SESSION_COOKIE.length + 1),
    csrfToken: answer.body.csrf_token,
    user: answer.body.user,
    account: answer.body.account,
  };
}

/**
 * Signs up or in against `baseUrl` and puts the session cookie into the Playwright context, so
 * its pages open the dashboard signed in (the page then reads its CSRF token from GET /v1/auth/session).
 */
export async function addSessionToContext(
  context: BrowserContext,
  baseUrl: string,
  credentials: SessionCredentials = freshCredentials(),
): Promise<TestSession> {
  const session = await createSessionCookie(baseUrl, credentials);
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: session.token,
      // domain and path rather than url: Playwright would take `secure` from the URL's scheme.
      domain: new URL(baseUrl).hostname,
      path: '/',
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
  ]);
  return session;
}
