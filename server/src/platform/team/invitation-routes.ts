import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { IdentityService } from '../identity/service.ts';
import { assertCsrf, refuseCrossSite } from '../sessions/request-auth.ts';
import { Session } from '../sessions/schemas.ts';
import type { SessionService } from '../sessions/service.ts';
import { InvitationAcceptance, InvitationPreview, InvitationTokenParams } from './schemas.ts';
import type { TeamService } from './service.ts';

const tags = ['Identity'];
const open = { tags, security: [] as Array<Record<string, string[]>> };

/**
 * The invitation link's two calls, taking no API credential (the link's token is one): what the
 * invitation is, and accepting it, signed in (the session's user joins) or by creating an account
 * with the invited address. Either way the browser ends up signed in to the new workspace.
 */
export const invitationRoutes: RouteModule<{
  team: TeamService;
  identity: IdentityService;
  sessions: SessionService;
  db: Kysely<DB>;
  publicUrl: string;
}> = (app, { team, identity, sessions, db, publicUrl }) => {
  app.get(
    '/v1/auth/invitations/:token',
    {
      schema: {
        ...open,
        operationId: 'getInvitation',
        summary:
          'What an invitation link offers: the workspace, the role, the invited address and its status.',
        params: InvitationTokenParams,
        response: withErrors({ 200: InvitationPreview }),
      },
    },
    async (request) => team.preview(request.params.token),
  );

  app.post(
    '/v1/auth/invitations/:token/accept',
    {
      schema: {
        ...open,
        operationId: 'acceptInvitation',
        summary:
          'Accept an invitation: signed in, the session user joins (X-CSRF-Token); signed out, the password of the invited address’s account (`has_account`), or `name` and `password` to create it. Signs in to the workspace.',
        params: InvitationTokenParams,
        body: InvitationAcceptance,
        response: withErrors({ 201: Session }),
      },
    },
    async (request, reply) => {
      // The invited address has a password account (a member elsewhere, or one removed from every
      // workspace): its password joins, signed out. Otherwise the account is made here.
      const acceptWithPassword = async (email: string, password: string | undefined) => {
        if (password === undefined) {
          throw new AppError('parameter_missing', `Enter the password of your account (${email}).`, {
            param: 'password',
          });
        }
        const user = await identity.passwordUser({ email, password });
        if (!user) throw new AppError('invalid_credentials', 'That is not the password of this account.');
        return db.transaction().execute((tx) => team.accept(request.params.token, user, tx));
      };
      const acceptWithNewAccount = async (email: string, body: { name?: string; password?: string }) => {
        if (body.name === undefined)
          throw new AppError('parameter_missing', 'Send your name to create your account.', {
            param: 'name',
          });
        if (body.password === undefined) {
          throw new AppError('parameter_missing', 'Choose a password (at least 8 characters).', {
            param: 'password',
          });
        }
        const { name, password } = body;
        return db.transaction().execute(async (tx) => {
          const user = await identity.createUser(tx, { email, name, password });
          return team.accept(request.params.token, user, tx);
        });
      };
      refuseCrossSite(request, publicUrl);
      const { token } = request.params;
      const body = request.body ?? {};
      const current = await sessions.fromRequest(request);
      let claims: { userId: string; accountId: string; membershipId: string };
      if (current && body.password === undefined) {
        assertCsrf(request, current, publicUrl);
        const user = await identity.userById(current.principal.userId!);
        if (!user) throw new AppError('unauthorized', 'Not signed in.');
        claims = await db.transaction().execute((tx) => team.accept(token, user, tx));
        await sessions.end(current);
      } else {
        const invited = await team.preview(token);
        claims = invited.has_account
          ? await acceptWithPassword(invited.email, body.password)
          : await acceptWithNewAccount(invited.email, body);
      }
      const { cookie, session } = await sessions.start(claims);
      return reply.status(201).header('set-cookie', cookie).send(session.view);
    },
  );
};
