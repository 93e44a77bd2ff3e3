import type { Role } from './roles.ts';

/** Who is calling, derived from the credential alone: callers never name their workspace. */
export interface Principal {
  kind: 'api_key' | 'user';
  accountId: string;
  membershipId: string;
  /** The member's role now (a key acts with its creator's): what the caller may do (roles.ts). */
  role: Role;
  userId: string | null;
  apiKeyId: number | null;
  /** null means full access; otherwise the scopes the key was created with. */
  scopes: string[] | null;
  /** Stable identity for rate-limit budgets and idempotency records, e.g. `key:12` or `user:<uuid>`. */
  subject: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The route accepts a user JWT only (API keys get 403 user_token_required). */
    userTokenOnly?: boolean;
    /**
     * Every scope a scoped key needs here, for routes that touch more than their own resource
     * (an import that creates personas, goals, guardrails and functions). Without it the scope is
     * derived from the path: `<resource>:read` or `<resource>:write` (see requiredScopes).
     * Unscoped keys and user tokens always pass.
     */
    scopes?: string[];
  }
}
