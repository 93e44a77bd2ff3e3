import { insufficientRole } from '../../core/http/auth.ts';
import { AppError } from '../../core/http/errors.ts';
import { roleGrants } from '../../core/http/roles.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { IdentityService } from '../identity/service.ts';
import { TOKEN_LIFETIME_SECONDS, type TokenService } from '../identity/tokens.ts';
import { type CookieWriter, SESSION_COOKIE } from './cookies.ts';
import type { PasswordResetService } from './password-resets.ts';
import { assertCsrf, refuseCrossSite } from './request-auth.ts';
import {
  NoContent,
  PasswordResetConfirmation,
  PasswordResetRequest,
  Session,
  SessionCredentials,
  SessionSignup,
  SessionSwitch,
  SessionToken,
} from './schemas.ts';
import type { SessionService } from './service.ts';

const tags = ['Identity'];
/** These routes take no credential (they hand one out). */
const open = { tags, security: [] as Array<Record<string, string[]>> };
const withCookie = { tags, security: [{ sessionCookie: [] }] };

export interface SessionRouteDeps {
  identity: IdentityService;
  sessions: SessionService;
  passwordResets: PasswordResetService;
  signupEnabled: boolean;
  publicUrl: string;
}

/**
 * The routes that take a password (sign-in, sign-up, reset), under the per-address auth budget.
 * Every route that sets a cookie refuses requests from another site.
 */
export const credentialRoutes: RouteModule<SessionRouteDeps> = (app, deps) => {
  const { identity, sessions, passwordResets, publicUrl } = deps;

  app.post(
    '/v1/auth/sessions',
    {
      schema: {
        ...open,
        operationId: 'createSession',
        summary: 'Sign in with e-mail and password: sets the session cookie and returns the CSRF token.',
        body: SessionCredentials,
        response: withErrors({ 201: Session }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request, publicUrl);
      const { cookie, session } = await sessions.start(await identity.authenticate(request.body));
      return reply.status(201).header('set-cookie', cookie).send(session.view);
    },
  );

  app.post(
    '/v1/auth/signup',
    {
      schema: {
        ...open,
        operationId: 'signupWithSession',
        summary: 'Create a user, their workspace and membership, and sign in (sets the session cookie).',
        body: SessionSignup,
        response: withErrors({ 201: Session }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request, publicUrl);
      if (!deps.signupEnabled) throw new AppError('signup_disabled', 'Sign-up is disabled on this server.');
      const created = await identity.signup(request.body);
      const { cookie, session } = await sessions.start({
        userId: created.user.id,
        accountId: created.account.id,
        membershipId: created.membership_id,
      });
      return reply.status(201).header('set-cookie', cookie).send(session.view);
    },
  );

  app.post(
    '/v1/auth/password-resets',
    {
      schema: {
        ...open,
        operationId: 'createPasswordReset',
        summary:
          'Ask for a password-reset link (valid one hour). Always 202, whether or not the address has an account.',
        body: PasswordResetRequest,
        response: withErrors({ 202: NoContent }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request, publicUrl);
      await passwordResets.request(request.body.email);
      // No body at all (the documented null would be serialised as the text `null`).
      return reply.status(202).send(undefined as unknown as null);
    },
  );

  app.post(
    '/v1/auth/password-resets/confirm',
    {
      schema: {
        ...open,
        operationId: 'confirmPasswordReset',
        summary: "Set a new password with a reset link's token; ends the user's other sessions.",
        body: PasswordResetConfirmation,
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request, publicUrl);
      await passwordResets.confirm(request.body, await sessions.fromRequest(request));
      return reply.status(204).send(null);
    },
  );
};

/** The signed-in session: read by every page load, ended by sign-out. */
export const sessionRoutes: RouteModule<{
  sessions: SessionService;
  publicUrl: string;
  cookies: CookieWriter;
  tokens: TokenService;
}> = (app, { sessions, publicUrl, cookies, tokens }) => {
  app.get(
    '/v1/auth/session',
    {
      schema: {
        ...withCookie,
        operationId: 'getSession',
        summary: 'The signed-in session (user, workspace, a CSRF token for this page); 401 when signed out.',
        response: withErrors({ 200: Session }),
      },
    },
    async (request, reply) => {
      const session = await sessions.fromRequest(request);
      if (!session) {
        if (request.headers.cookie?.includes(`${SESSION_COOKIE}=`)) {
          reply.header('set-cookie', cookies.cleared(SESSION_COOKIE));
        }
        throw new AppError('unauthorized', 'Not signed in.');
      }
      return { ...session.view, workspaces: await sessions.workspacesOf(session) };
    },
  );

  app.post(
    '/v1/auth/session/token',
    {
      schema: {
        ...withCookie,
        operationId: 'createSessionToken',
        summary:
          "A user token for the session's user and workspace (12 hours; needs X-CSRF-Token; admins and owners): what the dashboard's mailbox view sends to the mailbox service.",
        response: withErrors({ 201: SessionToken }),
      },
    },
    async (request, reply) => {
      const session = await sessions.fromRequest(request);
      if (!session) throw new AppError('unauthorized', 'Not signed in.');
      assertCsrf(request, session, publicUrl);
      const { principal } = session;
      // Its one use is the mailbox view, which is admin work: other roles get no bearer token.
      if (!roleGrants(principal.role, 'mailbox:read')) throw insufficientRole(principal, 'mailbox:read');
      const token = await tokens.sign({
        userId: principal.userId!,
        accountId: principal.accountId,
        membershipId: principal.membershipId,
      });
      return reply.status(201).send({ token, expires_in: TOKEN_LIFETIME_SECONDS });
    },
  );

  app.put(
    '/v1/auth/session',
    {
      schema: {
        ...withCookie,
        operationId: 'switchSessionWorkspace',
        summary: 'Switch the session to another workspace the user belongs to (needs X-CSRF-Token).',
        body: SessionSwitch,
        response: withErrors({ 200: Session }),
      },
    },
    async (request) => {
      const session = await sessions.fromRequest(request);
      if (!session) throw new AppError('unauthorized', 'Not signed in.');
      assertCsrf(request, session, publicUrl);
      const switched = await sessions.switchWorkspace(session, request.body.account_id);
      return { ...switched.view, workspaces: await sessions.workspacesOf(switched) };
    },
  );

  app.delete(
    '/v1/auth/session',
    {
      schema: {
        ...withCookie,
        operationId: 'deleteSession',
        summary: 'Sign out: ends the session and clears its cookie (needs X-CSRF-Token).',
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      const session = await sessions.fromRequest(request);
      if (session) {
        assertCsrf(request, session, publicUrl);
        await sessions.end(session);
      }
      return reply.status(204).header('set-cookie', cookies.cleared(SESSION_COOKIE)).send(null);
    },
  );
};
