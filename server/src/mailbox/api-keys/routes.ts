import { Type } from 'typebox';
import { prefixedSecret, sha256Hex } from '../../core/crypto/hashing.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { DEFAULT_NAMESPACE, notFound, requireAdmin } from '../auth/principal.ts';
import { SCOPED_KEY_PREFIX } from '../auth/resolver.ts';
import { json } from '../db.ts';
import { newId } from '../ids.ts';
import { afterCreated, ListQuery, listEnvelope } from '../pagination.ts';
import { podsRepository } from '../pods/repository.ts';
import { Nullable, StringList, Timestamp } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';

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
export const ApiKey = Type.Object(keyFields, { title: 'ApiKey' });
export const CreatedApiKey = Type.Object(
  { ...keyFields, api_key: Type.String({ description: 'Shown once, here; only its hash is stored.' }) },
  { title: 'CreatedApiKey' },
);

const SCOPE = /^[a-z][a-z0-9_.:*-]{0,63}$/;

type KeyRow = {
  id: string;
  name: string;
  secret_prefix: string;
  inbox_ids: string[];
  pod_id: string | null;
  scopes: string[];
  last_used_at: Date | null;
  created_at: Date;
};

const toKey = (row: KeyRow) => ({
  key_id: row.id,
  name: row.name,
  prefix: row.secret_prefix,
  inbox_ids: row.inbox_ids,
  pod_id: row.pod_id,
  scopes: row.scopes,
  last_used_at: row.last_used_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

/** Scoped `aik_` keys: admin only. Stored as a SHA-256 of a 192-bit random secret; revocation is immediate. */
export function apiKeyRoutes(app: AppInstance, deps: MailboxDeps): void {
  app.post(
    '/api-keys',
    {
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
              StringList('Reserved for finer permissions; stored and returned, not yet enforced.', 50),
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
      requireAdmin(request.mailbox);
      const body = request.body;
      if (body.scopes && body.permissions)
        throw invalidParam('permissions', 'Send scopes or permissions, not both.');
      const scopes = [...new Set(body.scopes ?? body.permissions ?? [])];
      scopes.forEach((scope, i) => {
        if (!SCOPE.test(scope)) throw invalidParam(`scopes[${i}]`, `Not a valid scope name: ${scope}`);
      });
      const inboxIds = [...new Set((body.inbox_ids ?? []).map((id) => id.toLowerCase()))];
      // The key lives in the namespace of what it is restricted to (the default namespace otherwise).
      const namespaces = new Set<string>();
      if (inboxIds.length > 0) {
        const rows = await deps.db
          .selectFrom('mailbox_inboxes')
          .select(['id', 'namespace_id', 'pod_id'])
          .where('id', 'in', inboxIds)
          .execute();
        const missing = inboxIds.filter((id) => !rows.some((r) => r.id === id));
        if (missing.length) throw invalidParam('inbox_ids', `No such inbox: ${missing.join(', ')}`);
        for (const row of rows) namespaces.add(row.namespace_id);
      }
      if (body.pod_id) {
        const pod = await podsRepository.byId(deps.db, body.pod_id);
        if (!pod) throw notFound('pod', 'pod_id');
        namespaces.add(pod.namespace_id);
      }
      if (namespaces.size > 1)
        throw new AppError('parameter_invalid', 'inbox_ids and pod_id must belong to one namespace.', {
          param: 'inbox_ids',
        });
      const secret = prefixedSecret(SCOPED_KEY_PREFIX, 24);
      const now = deps.clock.now();
      const row = {
        id: newId('key'),
        namespace_id: [...namespaces][0] ?? DEFAULT_NAMESPACE,
        name: body.name,
        secret_prefix: secret.slice(0, 10),
        lookup_hash: sha256Hex(secret),
        inbox_ids: inboxIds,
        pod_id: body.pod_id ?? null,
        scopes,
        last_used_at: null,
        created_at: now,
      };
      await deps.db
        .insertInto('mailbox_api_keys')
        .values({ ...row, inbox_ids: json(row.inbox_ids), scopes: json(row.scopes) })
        .execute();
      return reply.status(201).send({ ...toKey(row), api_key: secret });
    },
  );

  app.get(
    '/api-keys',
    {
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'List scoped keys (metadata only)',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('api_keys', ApiKey) }),
      },
    },
    async (request) => {
      requireAdmin(request.mailbox);
      const page = deps.pageTokens.parse(request.query, 'api-keys', request.mailbox.subject);
      let query = deps.db.selectFrom('mailbox_api_keys').selectAll().where('revoked_at', 'is', null);
      const after = afterCreated(page.after);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', after.created_at),
            eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .execute();
      const { items, ...rest } = deps.pageTokens.page(
        rows,
        page.limit,
        'api-keys',
        request.mailbox.subject,
        (r) => ({ t: r.created_at.toISOString(), i: r.id }),
        toKey,
      );
      return { ...rest, api_keys: items };
    },
  );

  app.delete(
    '/api-keys/:key_id',
    {
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke a scoped key; effective on the next request',
        params: Type.Object({ key_id: Type.String() }),
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      requireAdmin(request.mailbox);
      const result = await deps.db
        .updateTable('mailbox_api_keys')
        .set({ revoked_at: deps.clock.now() })
        .where('id', '=', request.params.key_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('API key', 'key_id');
      return reply.status(204).send(null);
    },
  );
}
