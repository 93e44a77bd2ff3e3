import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { Nullable, StringList, Timestamp } from '../schemas.ts';
import { type ApiKeyService, toApiKey } from './service.ts';

const tags = ['API keys'];

const keyFields = {
  key_id: Type.String({ examples: ['key_8d2k4m6p0q1r3s5t7v9w'] }),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }),
  inbox_ids: Type.Array(Type.String()),
  pod_id: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  last_used_at: Nullable(Timestamp),
  created_at: Timestamp,
};
export const ApiKey = Type.Object(keyFields, { $id: 'ApiKey', title: 'ApiKey' });
export const CreatedApiKey = Type.Object(
  { ...keyFields, api_key: Type.String({ description: 'Shown once, here; only its hash is stored.' }) },
  { $id: 'CreatedApiKey', title: 'CreatedApiKey' },
);

/** Scoped `aik_` keys: admin only (see ApiKeyService). */
export const apiKeyRoutes: RouteModule<{ scopedKeys: ApiKeyService }> = (app, { scopedKeys }) => {
  app.post(
    '/api-keys',
    {
      config: { scope: 'keys.manage' },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create a scoped key (admin only)',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            inbox_ids: Type.Optional(
              StringList('Restrict the key to these inboxes; omitted or empty = every inbox.'),
            ),
            pod_id: Type.Optional(Type.String()),
            scopes: Type.Optional(
              StringList(
                'What the key may do: scope names (`messages.read`, `messages.send`…), `<resource>.*` or `*`; omitted or empty = everything.',
                50,
              ),
            ),
            permissions: Type.Optional(StringList('Alias of scopes.', 50)),
          },
          {
            additionalProperties: false,
            examples: [{ name: 'support agent', inbox_ids: ['support@mail.example.com'] }],
          },
        ),
        response: withErrors({ 201: CreatedApiKey }),
      },
    },
    async (request, reply) => {
      const { row, secret } = await scopedKeys.create(request.mailbox, request.body);
      return reply.status(201).send({ ...toApiKey(row), api_key: secret });
    },
  );

  app.get(
    '/api-keys',
    {
      config: { scope: 'keys.manage' },
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'List scoped keys (metadata only)',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('api_keys', ApiKey) }),
      },
    },
    async (request) => scopedKeys.list(request.mailbox, request.query),
  );

  app.delete(
    '/api-keys/:key_id',
    {
      config: { scope: 'keys.manage' },
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke a scoped key; effective on the next request',
        params: Type.Object({ key_id: Type.String() }),
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await scopedKeys.revoke(request.mailbox, request.params.key_id);
      return reply.status(204).send(null);
    },
  );
};
