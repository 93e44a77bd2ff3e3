import type { FastifyRequest } from 'fastify';
import type { AnyFastify } from '../../core/http/any-fastify.ts';
import { bearerToken } from '../../core/http/auth.ts';
import { AppError } from '../../core/http/errors.ts';
import type { MailboxPrincipal } from './principal.ts';
import type { MailboxCredentialResolver } from './resolver.ts';
import { requireScope } from './scopes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** WebSocket routes also accept the key as `?api_key=` (browsers cannot set headers there). */
    allowQueryKey?: boolean;
  }
}

/** The token of a request: the Authorization header, or `api_key` on WebSocket routes only. */
export function tokenOf(request: FastifyRequest): string | null {
  const header = bearerToken(request);
  if (header) return header;
  if (!request.routeOptions.config.allowQueryKey) return null;
  const value = (request.query as Record<string, unknown> | undefined)?.api_key;
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * Missing or unrecognised credentials are both 401 `unauthorized`, as the spec has it; a key
 * without the scope the route declares is 403 `insufficient_scope` naming it. Routes without a
 * scope cannot exist under /v0 (see route-rules.ts); only the not-found handler has none.
 */
export function installMailboxAuth(app: AnyFastify, resolver: MailboxCredentialResolver): void {
  app.decorateRequest('mailbox', null as unknown as MailboxPrincipal);
  app.addHook('onRequest', async (request) => {
    const token = tokenOf(request);
    if (!token)
      throw new AppError('unauthorized', 'Missing credentials: send Authorization: Bearer <API key>.');
    const principal = await resolver.resolve(token);
    if (!principal) throw new AppError('unauthorized', 'Unrecognised API key.');
    const { scope } = request.routeOptions.config;
    if (scope) requireScope(principal, scope);
    request.mailbox = principal;
  });
}
