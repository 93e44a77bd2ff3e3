import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const SCOPE_PATTERN = '^[a-z_]+:(read|write)$';

export const ApiSecret = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    secret_prefix: Type.String({ examples: ['svc_3f9a1c2b'] }),
    is_active: Type.Boolean(),
    scopes: Nullable(Type.Array(Type.String())),
    created_by: Type.Object(
      {
        member_id: Type.String(),
        name: Nullable(Type.String()),
        email: Nullable(Type.String()),
      },
      { description: 'The member who made the key; a key acts with their current role (docs/teams.md).' },
    ),
    last_used_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ApiSecret', title: 'ApiSecret' },
);

export const CreatedApiSecret = Type.Object({
  ...ApiSecret.properties,
  secret: Type.String({ description: 'The plain key. Shown only in this response.' }),
  warning: Type.String(),
});

export const CreateApiSecretBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Optional(
      Type.Array(Type.String({ pattern: SCOPE_PATTERN }), {
        maxItems: 20,
        description: 'Restricts the key, e.g. ["memories:read"]. Omitted or empty: full access.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ name: 'Production backend' }] },
);

export const ApiSecretIdParams = Type.Object({ id: Type.String() });

export const ApiSecretStateChange = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ id: Type.Integer(), name: Type.String(), is_active: Type.Boolean() }),
});
