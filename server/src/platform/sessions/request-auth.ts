import type { FastifyRequest } from 'fastify';
import type { AnyFastify } from '../../core/http/any-fastify.ts';
import { AppError } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import { isWrite } from '../../core/http/rate-limit.ts';
import { type OpenSession, SessionService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session the request was authenticated by (its cookie), else null. */
    dashboardSession: OpenSession | null;
  }
}

/** The sign-in routes read the cookie themselves: a stale session must never block signing in. */
const isAuthPath = (url: string) => url.startsWith('/v1/auth/');

/**
 * The session cookie as a credential, for /v1 requests without an Authorization header (the
 * fallback of identifyCallers): the same `kind: 'user'` principal as the user's token.
 */
export function sessionCallerResolver(sessions: SessionService) {
  return async (request: FastifyRequest): Promise<Principal | null> => {
    if (isAuthPath(request.url)) return null;
    const session = await sessions.fromRequest(request);
    request.dashboardSession = session;
    return session?.principal ?? null;
  };
}

/**
 * A request another site made the browser send: `Sec-Fetch-Site: cross-site`, or an `Origin`
 * that is neither the public URL's nor the one the request was addressed to.
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  return origin !== new URL(publicUrl).origin && origin !== `${request.protocol}://${request.host}`;
}

export function refuseCrossSite(request: FastifyRequest, publicUrl: string): void {
  if (isCrossSite(request, publicUrl)) {
    throw new AppError('csrf_token_invalid', 'Requests from another site are refused.');
  }
}

/** The CSRF rule of cookie-authenticated writes (bearer requests are unaffected). */
export function assertCsrf(request: FastifyRequest, session: OpenSession, publicUrl: string): void {
  refuseCrossSite(request, publicUrl);
  if (!SessionService.csrfMatches(request, session)) {
    throw new AppError(
      'csrf_token_invalid',
      'Send the session’s csrf_token in the X-CSRF-Token header with every write.',
      { param: 'X-CSRF-Token' },
    );
  }
}

/**
 * Refuses cookie-authenticated POST/PUT/PATCH/DELETE without the session's CSRF token or from
 * another site. Installed after the rate limits, so the 403 carries the caller's RateLimit-*.
 */
export function requireCsrfOnSessionWrites(app: AnyFastify, publicUrl: string): void {
  app.decorateRequest('dashboardSession', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const session = request.dashboardSession;
    if (session && isWrite(request.method)) assertCsrf(request, session, publicUrl);
    done();
  });
}
