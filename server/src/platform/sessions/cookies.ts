import { createHash, createHmac, randomBytes } from 'node:crypto';
import { parse, type SerializeOptions, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'understudy_session';
/** The OIDC sign-in's state, nonce and PKCE verifier, sealed, between /start and /callback. */
export const OIDC_COOKIE = 'understudy_oidc';

/**
 * Whether the cookies carry `Secure`: when PUBLIC_URL is https, or its host is loopback (browsers
 * treat http://localhost and 127.0.0.1 as secure origins). On plain http to any other host a
 * browser would drop a Secure cookie and sign-in could never work, so it is left off there (the
 * start-up logs a warning that sessions travel unencrypted).
 */
export function cookiesSecure(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/**
 * The Set-Cookie values: HttpOnly (no script reads them), SameSite=Lax (not sent on cross-site
 * subrequests or POSTs) and Secure as `cookiesSecure` decides.
 */
export function cookieWriter(secure: boolean) {
  const base: SerializeOptions = { httpOnly: true, secure, sameSite: 'lax', path: '/' };
  return {
    session: (token: string, maxAgeSeconds: number) =>
      serialize(SESSION_COOKIE, token, { ...base, maxAge: maxAgeSeconds }),
    cleared: (name: string, path = '/') =>
      serialize(name, '', { ...base, path, maxAge: 0, expires: new Date(0) }),
    oidc: (sealed: string, maxAgeSeconds: number) =>
      serialize(OIDC_COOKIE, sealed, { ...base, path: '/v1/auth/oidc', maxAge: maxAgeSeconds }),
  };
}
export type CookieWriter = ReturnType<typeof cookieWriter>;

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
