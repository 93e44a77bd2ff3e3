import { Type } from 'typebox';
import { AppError } from '../../core/http/errors.ts';
import { PageQuery } from '../../core/http/pagination.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  ApiSecret,
  ApiSecretIdParams,
  ApiSecretStateChange,
  CreateApiSecretBody,
  CreatedApiSecret,
} from './schemas.ts';
import type { ApiSecretService } from './service.ts';

const tags = ['API keys'];
const config = { userTokenOnly: true };

export const apiSecretRoutes: RouteModule<{ apiSecrets: ApiSecretService }> = (app, { apiSecrets }) => {
  app.post(
    '/api-secrets',
    {
      config,
      schema: {
        tags,
        operationId: 'createApiSecret',
        summary: 'Create an API key (user token only). The plain secret is returned once.',
        body: CreateApiSecretBody,
        response: withErrors({
          201: Type.Object({
            status: Type.Literal('success'),
            message: Type.String(),
            data: CreatedApiSecret,
          }),
        }),
      },
    },
    async (request, reply) => {
      const catalog = request.server.scopeCatalog;
      // A scope no operation asks for would restrict the key to nothing: say so instead.
      const unknown = (request.body.scopes ?? []).findIndex((scope) => catalog && !catalog.has(scope));
      if (unknown >= 0) {
        throw new AppError(
          'parameter_invalid',
          `Invalid scopes[${unknown}]: ${request.body.scopes![unknown]} is not a scope of this API. GET /v1/api-secrets/scopes lists them.`,
          { param: `scopes[${unknown}]` },
        );
      }
      const data = await apiSecrets.create(request.principal, request.body);
      return reply.status(201).send({ status: 'success', message: 'API key created.', data });
    },
  );

  app.get(
    '/api-secrets',
    {
      config,
      schema: {
        tags,
        operationId: 'listApiSecrets',
        summary: 'List API keys, newest first. Send `limit` or `cursor` to page.',
        querystring: PageQuery,
        response: withErrors({
          200: Type.Object({
            status: Type.Literal('success'),
            data: Type.Array(ApiSecret),
            object: Type.Optional(Type.Literal('list')),
            has_more: Type.Optional(Type.Boolean()),
            next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          }),
        }),
      },
    },
    async (request) => {
      const page = apiSecrets.paginate(request.query, request.principal);
      const result = await apiSecrets.list(request.principal, page);
      return Array.isArray(result)
        ? { status: 'success' as const, data: result }
        : { status: 'success' as const, ...result };
    },
  );

  app.get(
    '/api-secrets/scopes',
    {
      config,
      schema: {
        tags,
        operationId: 'listApiSecretScopes',
        summary:
          'Every scope an API key can be restricted to (user token only): `<resource>:read` for reads and `<resource>:write` for changes, with how many operations ask for each.',
        response: withErrors({
          200: Type.Object({
            status: Type.Literal('success'),
            data: Type.Array(
              Type.Object({
                scope: Type.String({ examples: ['memories:read'] }),
                operations: Type.Integer({
                  minimum: 0,
                  description:
                    'Operations of this API that ask for it (0 for `mailbox:read` and `mailbox:write`, which the mailbox service honours).',
                }),
              }),
            ),
          }),
        }),
      },
    },
    async (request) => ({ status: 'success' as const, data: request.server.scopeCatalog?.entries() ?? [] }),
  );

  app.get(
    '/api-secrets/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'getApiSecret',
        params: ApiSecretIdParams,
        response: withErrors({ 200: Type.Object({ status: Type.Literal('success'), data: ApiSecret }) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await apiSecrets.get(request.principal, request.params.id),
    }),
  );

  for (const [action, isActive] of [
    ['revoke', false],
    ['reactivate', true],
  ] as const) {
    app.post(
      `/api-secrets/:id/${action}`,
      {
        config,
        schema: {
          tags,
          operationId: `${action}ApiSecret`,
          summary: isActive
            ? 'Reactivate a revoked key: the same secret works again.'
            : 'Revoke a key (reversible).',
          params: ApiSecretIdParams,
          response: withErrors({ 200: ApiSecretStateChange }),
        },
      },
      async (request) => ({
        status: 'success' as const,
        message: isActive ? 'API key reactivated.' : 'API key revoked.',
        data: await apiSecrets.setActive(request.principal, request.params.id, isActive),
      }),
    );
  }

  app.delete(
    '/api-secrets/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteApiSecret',
        summary: 'Delete a key permanently.',
        params: ApiSecretIdParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await apiSecrets.delete(request.principal, request.params.id);
      return { status: 'success' as const, message: 'API key deleted.' };
    },
  );
};
