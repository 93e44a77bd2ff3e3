import type { CoreDeps } from '../../core/deps.ts';
import { installRateLimits } from '../../core/http/rate-limit.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { BoundRoutes } from '../../core/module.ts';
import { periodic } from '../../core/workers.ts';
import type { IdentityService } from '../identity/service.ts';
import type { TokenService } from '../identity/tokens.ts';
import { cookiesSecure, cookieWriter } from './cookies.ts';
import { OidcLogin } from './oidc-login.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { PasswordResetService } from './password-resets.ts';
import { credentialRoutes, sessionRoutes } from './routes.ts';
import { SessionService } from './service.ts';

/** The dashboard's sign-in (docs/dashboard.md, "Sign-in and sessions"). */
export function createSessionsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'redis' | 'logger' | 'secretBox'> & {
    identity: IdentityService;
    tokens: TokenService;
  },
) {
  const { db, clock, config, redis, logger, secretBox, identity } = deps;
  const secure = cookiesSecure(config.publicUrl);
  if (!secure) {
    logger.warn(
      { public_url: config.publicUrl },
      'PUBLIC_URL is plain http to a host other than loopback: session cookies are not Secure and sessions travel unencrypted; use https',
    );
  }
  const cookies = cookieWriter(secure);
  const sessions = new SessionService({ db, clock, cookies });
  const passwordResets = new PasswordResetService({
    db,
    clock,
    logger,
    identity,
    sessions,
    publicUrl: config.publicUrl,
    logLinks: config.appEnv === 'development',
  });
  const oidc = config.oidc;
  const oidcLogin = oidc?.clientId
    ? new OidcLogin({
        config: {
          issuer: oidc.issuer,
          clientId: oidc.clientId,
          clientSecret: oidc.clientSecret,
          providerName: oidc.providerName,
        },
        publicUrl: config.publicUrl,
        secretBox,
        clock,
      })
    : null;
  const routeDeps = { identity, sessions, signupEnabled: config.signupEnabled };
  const publicRoutes: BoundRoutes[] = [
    async (app) => {
      await app.register(async (auth) => {
        // Unauthenticated: the per-address budget of sign-up and log-in keeps password guessing slow.
        installRateLimits(auth, {
          rules: [{ name: 'auth', points: config.rateLimit.authPerMinute, durationSeconds: 60 }],
          redis,
          keyPrefix: 'rl:platform-auth',
          keyOf: (request) => request.ip,
        });
        credentialRoutes(auth as AppInstance, { ...routeDeps, passwordResets, publicUrl: config.publicUrl });
      });
      sessionRoutes(app, { sessions, publicUrl: config.publicUrl, cookies, tokens: deps.tokens });
      oidcRoutes(app, { ...routeDeps, oidcLogin, cookies });
    },
  ];
  const workers = [
    periodic(
      'session-purge',
      60 * 60 * 1000,
      async () => {
        await sessions.purgeExpired();
        await passwordResets.purgeExpired();
      },
      (error) => logger.warn({ err: error, worker: 'session-purge' }, 'worker task failed'),
    ),
  ];
  return { sessions, passwordResets, publicRoutes, workers };
}
