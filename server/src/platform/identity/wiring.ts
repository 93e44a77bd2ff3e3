import type { CoreDeps } from '../../core/deps.ts';
import { installRateLimits } from '../../core/http/rate-limit.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { BoundRoutes } from '../../core/module.ts';
import type { AccountCreatedHook } from './accounts.ts';
import { OidcVerifier } from './oidc.ts';
import { identityRoutes } from './routes.ts';
import { IdentityService } from './service.ts';
import type { TokenService } from './tokens.ts';

/** The embedded identity provider (sign-up, log-in, user tokens) and the external OIDC issuer. */
export async function createIdentityModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'redis'> & {
    /** Run inside the transaction that creates a workspace (seeding). */
    accountHooks: readonly AccountCreatedHook[];
    /** The shared token service (adapters.ts): both services verify user tokens with it. */
    tokens: TokenService;
  },
) {
  const { db, clock, config, redis, tokens } = deps;
  const identity = new IdentityService({ db, clock, tokens, accountHooks: deps.accountHooks });
  const oidc = config.oidc ? new OidcVerifier(config.oidc.issuer, config.oidc.audience, clock) : null;
  const publicRoutes: BoundRoutes[] = [
    async (app) => {
      await app.register(async (auth) => {
        // Sign-up and log-in are unauthenticated: a per-address budget keeps password guessing slow.
        installRateLimits(auth, {
          rules: [{ name: 'auth', points: config.rateLimit.authPerMinute, durationSeconds: 60 }],
          redis,
          keyPrefix: 'rl:platform-auth',
          keyOf: (request) => request.ip,
        });
        identityRoutes(auth as AppInstance, { identity, tokens, signupEnabled: config.signupEnabled });
      });
    },
  ];
  return { tokens, identity, oidc, publicRoutes };
}
