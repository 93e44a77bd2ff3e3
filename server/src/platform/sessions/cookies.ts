import { createHash, createHmac, randomBytes } from 'node:crypto';
import { parse, type SerializeOptions, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'understudy_session';
/** The OIDC sign-in's state, nonce and PKCE verifier, sealed, between /start and /callback. */
export const OIDC_COOKIE = 'understudy_oidc';

/**
 * Always Secure (browsers treat http://localhost and 127.0.0.1 as secure origins), HttpOnly (no
 * script reads it) and SameSite=Lax (not sent on cross-site subrequests or POSTs).
 */
const BASE: SerializeOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' };

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return serialize(SESSION_COOKIE, token, { ...BASE, maxAge: maxAgeSeconds });
}

export function clearedCookie(name: string, path = '/'): string {
  return serialize(name, '', { ...BASE, path, maxAge: 0, expires: new Date(0) });
}

export function oidcCookie(sealed: string, maxAgeSeconds: number): string {
  return serialize(OIDC_COOKIE, sealed, { ...BASE, path: '/v1/auth/oidc', maxAge: maxAgeSeconds });
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  return parse(header)[name] || null;
}

/** 32 random bytes, base64url: the session cookie's value, a reset token, a PKCE verifier. */
export const randomToken = () => randomBytes(32).toString('base64url');

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The session's CSRF token, derived from its cookie's token: the page reads it from the session
 * body (it cannot read the HttpOnly cookie), a cross-site page can read neither.
 */
export const csrfTokenOf = (sessionToken: string) =>
  createHmac('sha256', sessionToken).update('understudy-csrf').digest('base64url');

export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
