import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { IdentityService } from '../identity/service.ts';
import { type CookieWriter, OIDC_COOKIE, readCookie } from './cookies.ts';
import { OIDC_LOGIN_TTL_SECONDS, type OidcLogin, OidcLoginError } from './oidc-login.ts';
import { AuthProviders, OidcCallbackQuery } from './schemas.ts';
import type { SessionService } from './service.ts';

const tags = ['Identity'];
const open = { tags, security: [] as Array<Record<string, string[]>> };
const Redirect = Type.Null({ description: 'A redirect (see Location).' });
const OIDC_PATH = '/v1/auth/oidc';

export interface OidcRouteDeps {
  identity: IdentityService;
  sessions: SessionService;
  /** Null when OIDC_ISSUER or OIDC_CLIENT_ID is not set. */
  oidcLogin: OidcLogin | null;
  cookies: CookieWriter;
  signupEnabled: boolean;
}

/** The ways to sign in, and the two legs of the sign-in through the external identity provider. */
export const oidcRoutes: RouteModule<OidcRouteDeps> = (app, deps) => {
  const { identity, sessions, oidcLogin, cookies } = deps;
  const notConfigured = () =>
    new AppError('resource_not_found', 'Sign-in through an identity provider is not configured here.');
  /** Failures land on the sign-in page, which explains the code. */
  const toSignIn = (reply: FastifyReply, code: string) =>
    reply
      .header('set-cookie', cookies.cleared(OIDC_COOKIE, OIDC_PATH))
      .redirect(`/#/sign-in?error=${encodeURIComponent(code)}`, 302);

  app.get(
    '/v1/auth/providers',
    {
      schema: {
        ...open,
        operationId: 'listAuthProviders',
        summary: 'How one may sign in here: password, whether sign-up is open, the external provider.',
        response: withErrors({ 200: AuthProviders }),
      },
    },
    async () => ({
      password: true,
      signup: deps.signupEnabled,
      oidc: oidcLogin ? { ...oidcLogin.provider, start_url: `${OIDC_PATH}/start` } : null,
    }),
  );

  app.get(
    `${OIDC_PATH}/start`,
    {
      schema: {
        ...open,
        operationId: 'startOidcSignIn',
        summary: "Redirect to the identity provider's authorization endpoint (code flow with PKCE).",
        response: withErrors({ 302: Redirect }),
      },
    },
    async (_request, reply) => {
      if (!oidcLogin) throw notConfigured();
      try {
        const { location, sealed } = await oidcLogin.start();
        return reply
          .header('set-cookie', cookies.oidc(sealed, OIDC_LOGIN_TTL_SECONDS))
          .header('cache-control', 'no-store')
          .redirect(location, 302);
      } catch (error) {
        if (error instanceof OidcLoginError) return toSignIn(reply, error.code);
        throw error;
      }
    },
  );

  app.get(
    `${OIDC_PATH}/callback`,
    {
      // The provider composes this query and adds parameters of its own (Entra `client_info`, ADFS
      // `client-request-id`): unknown ones are accepted, and a query that fails the schema lands on
      // the sign-in page like any other failed sign-in, never as a JSON 400 in the browser.
      config: { openQuery: true },
      attachValidation: true,
      schema: {
        ...open,
        operationId: 'finishOidcSignIn',
        summary:
          'Where the identity provider returns: signs in (session cookie) and redirects to the dashboard.',
        querystring: OidcCallbackQuery,
        response: withErrors({ 302: Redirect }),
      },
    },
    async (request, reply) => {
      if (!oidcLogin) throw notConfigured();
      if (request.validationError) {
        request.log.warn({ reason: request.validationError.message }, 'OIDC callback query refused');
        return toSignIn(reply, 'oidc_state_mismatch');
      }
      try {
        const external = await oidcLogin.finish(request.query, readCookie(request, OIDC_COOKIE));
        const principal = await identity.principalForExternal(external);
        const { cookie } = await sessions.start({
          userId: principal.userId!,
          accountId: principal.accountId,
          membershipId: principal.membershipId,
        });
        return reply
          .header('set-cookie', [cookie, cookies.cleared(OIDC_COOKIE, OIDC_PATH)])
          .header('cache-control', 'no-store')
          .redirect('/', 302);
      } catch (error) {
        if (error instanceof OidcLoginError) {
          request.log.warn({ code: error.code, reason: error.message }, 'OIDC sign-in failed');
          return toSignIn(reply, error.code);
        }
        throw error;
      }
    },
  );
};
