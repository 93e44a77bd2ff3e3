import { Type } from 'typebox';
import { AppError } from '../../core/http/errors.ts';
import { Timestamp, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { IdentityService } from './service.ts';
import type { TokenService } from './tokens.ts';

const tags = ['Identity'];

const Credentials = {
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 8, maxLength: 200 }),
};

/** The embedded identity provider: sign-up, log-in and the public keys that verify its tokens. */
export const identityRoutes: RouteModule<{
  identity: IdentityService;
  tokens: TokenService;
  signupEnabled: boolean;
}> = (app, { identity, tokens, signupEnabled }) => {
  app.post(
    '/auth/signup',
    {
      schema: {
        tags,
        operationId: 'signup',
        summary: 'Create a user, their workspace and membership; returns a user token.',
        body: Type.Object(
          { ...Credentials, name: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: withErrors({
          201: Type.Object({
            token: Type.String(),
            user: Type.Object({
              id: Type.String(),
              email: Type.String(),
              name: Type.String(),
              created_at: Timestamp,
            }),
            account: Type.Object({ id: Type.String(), name: Type.String(), created_at: Timestamp }),
            membership_id: Type.String(),
          }),
        }),
      },
    },
    async (request, reply) => {
      if (!signupEnabled) throw new AppError('signup_disabled', 'Sign-up is disabled on this server.');
      return reply.status(201).send(await identity.signup(request.body));
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        operationId: 'login',
        summary: 'Exchange email and password for a user token (valid 12 hours).',
        body: Type.Object(Credentials, { additionalProperties: false }),
        response: withErrors({ 200: Type.Object({ token: Type.String() }) }),
      },
    },
    async (request) => identity.login(request.body),
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags,
        operationId: 'jwks',
        summary: 'Public keys that verify user tokens.',
        response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
      },
    },
    async () => tokens.jwks(),
  );
};
