import { Type } from 'typebox';
import { RoleSchema } from '../../core/http/roles.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 8, maxLength: 200 });

export const SessionCredentials = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false, $id: 'SessionCredentials', title: 'SessionCredentials' },
);

export const SessionSignup = Type.Object(
  { email: Email, password: Password, name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, $id: 'SessionSignup', title: 'SessionSignup' },
);

export const Session = Type.Object(
  {
    user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }),
    account: Type.Object({ id: Type.String(), name: Type.String() }),
    role: { ...RoleSchema, description: "The user's role in this workspace (docs/teams.md)." },
    workspaces: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() }), {
        description:
          'Every workspace the user belongs to (GET only); PUT /v1/auth/session with `account_id` switches.',
      }),
    ),
    csrf_token: Type.String({
      description:
        'Send as the X-CSRF-Token header with every POST, PUT, PATCH and DELETE the cookie authenticates.',
    }),
    expires_at: {
      ...Timestamp,
      description:
        'When the session ends unless used (sliding: 12 hours after the last use, 7 days after sign-in at most).',
    },
  },
  { $id: 'Session', title: 'Session' },
);

export const SessionToken = Type.Object(
  {
    token: Type.String({
      description: 'A user token: `Authorization: Bearer <token>` on /v1 and the mailbox’s /v0.',
    }),
    expires_in: Type.Integer({ description: 'Seconds it stays valid.' }),
  },
  { $id: 'SessionToken', title: 'SessionToken' },
);

export const SessionSwitch = Type.Object(
  {
    account_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A workspace the user belongs to.',
    }),
  },
  { additionalProperties: false, $id: 'SessionSwitch', title: 'SessionSwitch' },
);

export const PasswordResetRequest = Type.Object(
  { email: Email },
  { additionalProperties: false, $id: 'PasswordResetRequest', title: 'PasswordResetRequest' },
);

export const PasswordResetConfirmation = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
  { additionalProperties: false, $id: 'PasswordResetConfirmation', title: 'PasswordResetConfirmation' },
);

export const AuthProviders = Type.Object(
  {
    password: Type.Boolean({ description: 'E-mail and password sign-in (always true).' }),
    signup: Type.Boolean({ description: 'Whether POST /v1/auth/signup accepts new accounts.' }),
    oidc: Nullable(
      Type.Object({
        name: Type.String({ description: 'For the "Sign in with …" button.' }),
        issuer: Type.String(),
        start_url: Type.String({ description: 'Where the button navigates: GET /v1/auth/oidc/start.' }),
      }),
    ),
  },
  { $id: 'AuthProviders', title: 'AuthProviders' },
);

/**
 * What the issuer sends back to the callback (providers add some of these beyond code and state).
 * Open: providers add parameters of their own, which are ignored.
 */
export const OidcCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    error_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    scope: Type.Optional(Type.String({ maxLength: 2048 })),
    session_state: Type.Optional(Type.String({ maxLength: 2048 })),
    authuser: Type.Optional(Type.String({ maxLength: 64 })),
    prompt: Type.Optional(Type.String({ maxLength: 256 })),
    hd: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);

export const NoContent = Type.Null({ description: 'No content.' });
