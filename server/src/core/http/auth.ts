import type { FastifyRequest } from 'fastify';
import type { AnyFastify } from './any-fastify.ts';
import { AppError } from './errors.ts';
import { hookWhen } from './hooks.ts';
import type { Principal } from './principal.ts';
import { isWrite } from './rate-limit.ts';
import { roleGrants } from './roles.ts';

/** Turns a bearer token into a principal, or null when the token is unknown. */
export type CredentialResolver = (token: string, request: FastifyRequest) => Promise<Principal | null>;

const FORBIDDEN_BODY_FIELDS = ['membership_id', 'org_id'];

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The scopes a route needs from a scoped key: those it declares, else `<resource>:read` or
 * `<resource>:write` after the first path segment below the scope's prefix (`/v1/custom-functions/…`
 * → `custom_functions:write` for a POST). Deriving it means a route that forgets to declare a
 * scope is still closed to keys scoped to something else. Empty for unknown paths (they 404).
 */
export function requiredScopes(request: FastifyRequest, prefix: string): string[] {
  return routeScopes(request.routeOptions.url, request.method, prefix, request.routeOptions.config.scopes);
}

/** requiredScopes for a route as it registers (its url, method and declared `config.scopes`). */
export function routeScopes(
  url: string | undefined,
  method: string,
  prefix: string,
  declared: string[] | undefined,
): string[] {
  if (declared) return declared;
  if (!url?.startsWith(prefix)) return [];
  const resource = url.slice(prefix.length).split('/').find(Boolean);
  if (!resource || resource.startsWith(':') || resource.includes('*')) return [];
  return [`${resource.replaceAll('-', '_')}:${isWrite(method) ? 'write' : 'read'}`];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Whoever the bearer credential names, or null when it is missing or unknown (see identifyCallers). */
    caller: Principal | null;
  }
}

/**
 * Resolves the bearer credential of the requests `appliesTo` selects into `request.caller`, refusing
 * nothing: the rate limits run next and need to know whose budget a request spends (the key's, or
 * its address's when there is no valid key), so that even the 401 requireAuthentication answers
 * afterwards carries RateLimit-* headers. Requests without an Authorization header are given to
 * `withoutAuthorization` (the platform's session cookie), when there is one.
 */
export function identifyCallers(
  app: AnyFastify,
  resolve: CredentialResolver,
  appliesTo: (request: FastifyRequest) => boolean,
  withoutAuthorization?: (request: FastifyRequest) => Promise<Principal | null>,
): void {
  app.decorateRequest('caller', null);
  app.addHook(
    'onRequest',
    hookWhen(appliesTo, async (request) => {
      if (request.headers.authorization === undefined) {
        request.caller = withoutAuthorization ? await withoutAuthorization(request) : null;
        return;
      }
      const token = bearerToken(request);
      request.caller = token ? await resolve(token, request) : null;
    }),
  );
}

/** 403 for an operation the caller's role does not allow (a key acts with its creator's role). */
export function insufficientRole(principal: Principal, scope: string): AppError {
  const who = principal.kind === 'api_key' ? "This API key's creator" : 'You';
  return new AppError(
    'insufficient_role',
    `${who} ${principal.kind === 'api_key' ? 'is' : 'are'} a${/^[aeiou]/.test(principal.role) ? 'n' : ''} ${principal.role} in this workspace, and ${principal.role}s may not do this (it needs ${scope}). Ask an admin or owner.`,
    { param: 'role' },
  );
}

/**
 * Authentication for every route of the scope it is installed in (after identifyCallers): a bearer
 * API key or user JWT, the workspace taken from it, route-level `userTokenOnly` and `scopes` rules,
 * and the refusal of bodies that try to name a workspace or membership.
 */
export function requireAuthentication(app: AnyFastify): void {
  app.decorateRequest('principal', null as unknown as Principal);
  const prefix = app.prefix;

  app.addHook('onRequest', (request, _reply, done) => {
    const principal = request.caller;
    if (!principal) {
      if (!bearerToken(request)) {
        throw new AppError(
          'unauthorized',
          'Missing credentials: send Authorization: Bearer <API key or user token>.',
        );
      }
      throw new AppError('invalid_api_key', 'Invalid API key or token.');
    }
    request.principal = principal;
    const config = request.routeOptions.config;
    if (config.userTokenOnly && principal.kind !== 'user') {
      throw new AppError(
        'user_token_required',
        'This endpoint requires a logged-in user token, not an API key.',
      );
    }
    const required = requiredScopes(request, prefix);
    const granted = principal.scopes;
    const missing = granted ? required.find((scope) => !granted.includes(scope)) : null;
    if (missing) {
      throw new AppError('insufficient_scope', `This API key lacks the ${missing} scope.`, {
        param: 'scope',
      });
    }
    const beyondRole = required.find((scope) => !roleGrants(principal.role, scope));
    if (beyondRole) throw insufficientRole(principal, beyondRole);
    done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const field of FORBIDDEN_BODY_FIELDS) {
        if (field in body) {
          throw new AppError(
            'parameter_not_allowed',
            `${field} is set from your credentials and must not be sent.`,
            {
              param: field,
            },
          );
        }
      }
    }
    done();
  });
}
