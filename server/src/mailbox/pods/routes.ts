import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { notFound, requireUnrestricted } from '../auth/principal.ts';
import { newId } from '../ids.ts';
import { inboxesRepository } from '../inboxes/repository.ts';
import { byCreation, keyset, ListQuery, listEnvelope } from '../pagination.ts';
import { Timestamp } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';
import { type PodRow, podsRepository } from './repository.ts';

const tags = ['Pods'];

export const Pod = Type.Object(
  {
    pod_id: Type.String({ examples: ['pod_5n2k8q0c1x7m3v9b4h6d'] }),
    name: Type.String(),
    client_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Pod' },
);

const toPod = (row: PodRow) => ({
  pod_id: row.id,
  name: row.name,
  client_id: row.client_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Pods group inboxes (and domains) of one namespace, e.g. one per end customer of an agent product. */
export function podRoutes(app: AppInstance, deps: MailboxDeps): void {
  app.post(
    '/pods',
    {
      schema: {
        tags,
        operationId: 'createPod',
        summary: 'Create a pod',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          },
          { additionalProperties: false, examples: [{ name: 'customer-42' }] },
        ),
        response: withErrors({ 201: Pod }),
      },
    },
    async (request, reply) => {
      const principal = request.mailbox;
      requireUnrestricted(principal, 'create pods');
      const namespaceId = principal.homeNamespaceId;
      if (request.body.client_id) {
        const existing = await podsRepository.byClientId(deps.db, namespaceId, request.body.client_id);
        if (existing) return reply.status(201).send(toPod(existing));
      }
      const now = deps.clock.now();
      const row: PodRow = {
        id: newId('pod'),
        namespace_id: namespaceId,
        name: request.body.name,
        client_id: request.body.client_id ?? null,
        created_at: now,
        updated_at: now,
      };
      await podsRepository.insert(deps.db, row);
      return reply.status(201).send(toPod(row));
    },
  );

  app.get(
    '/pods',
    {
      schema: {
        tags,
        operationId: 'listPods',
        summary: 'List pods',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('pods', Pod) }),
      },
    },
    async (request) => {
      const principal = request.mailbox;
      const page = deps.pageTokens.parse(request.query, 'pods', principal.subject);
      let podIds: string[] | null = principal.reach.podId ? [principal.reach.podId] : null;
      if (podIds === null && principal.reach.inboxIds !== null) {
        // A key restricted to inboxes sees the pods they are in.
        const places = await inboxesRepository.placesOf(deps.db, principal.reach.inboxIds);
        podIds = places.map((r) => r.pod_id).filter((id): id is string => id !== null);
      }
      const rows = await podsRepository.list(
        deps.db,
        { namespaceId: principal.reach.namespaceId, podIds },
        keyset(page),
      );
      return deps.pageTokens.envelope('pods', page, rows, byCreation, toPod);
    },
  );

  app.get(
    '/pods/:pod_id',
    {
      schema: {
        tags,
        operationId: 'getPod',
        summary: 'Get a pod',
        params: Type.Object({ pod_id: Type.String() }),
        response: withErrors({ 200: Pod }),
      },
    },
    async (request) => {
      const principal = request.mailbox;
      const pod = await podsRepository.byId(deps.db, request.params.pod_id);
      const visible =
        pod &&
        (principal.reach.namespaceId === null || pod.namespace_id === principal.reach.namespaceId) &&
        (principal.reach.podId === null || pod.id === principal.reach.podId) &&
        principal.reach.inboxIds === null;
      if (!visible) throw notFound('pod', 'pod_id');
      return toPod(pod);
    },
  );
}
