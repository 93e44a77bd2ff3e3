import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam, Nullable, Timestamp } from '../schemas.ts';
import { toEntry } from './present.ts';
import type { BlockListService } from './service.ts';

const tags = ['Block list'];

export const BlockEntry = Type.Object(
  {
    entry_id: Type.String(),
    inbox_id: Nullable(Type.String({ description: 'null for a namespace-wide entry.' })),
    kind: Type.Union([Type.Literal('address'), Type.Literal('domain')]),
    value: Type.String({ examples: ['spammer@example.com', 'example.net'] }),
    reason: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { title: 'BlockEntry' },
);

const CreateBody = Type.Object(
  {
    value: Type.String({
      minLength: 3,
      maxLength: 320,
      description: 'An address (`a@b.com`) or a domain (`b.com`, also covers its subdomains).',
    }),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, examples: [{ value: 'spam.example', reason: 'bulk mailer' }] },
);

/**
 * Block lists: namespace-wide at /v0/block-list (keys restricted to inboxes or a pod cannot manage
 * those) and per inbox at /v0/inboxes/{inbox_id}/block-list. Mail from a blocked sender is kept
 * (label `blocked`, no thread) and fires `message.received.blocked` instead of `message.received`.
 */
export const blockListRoutes: RouteModule<{ blockList: BlockListService }> = (app, { blockList }) => {
  for (const scope of ['namespace', 'inbox'] as const) {
    const base = scope === 'namespace' ? '/block-list' : '/inboxes/:inbox_id/block-list';
    const params = scope === 'namespace' ? undefined : InboxIdParam;
    const suffix = scope === 'namespace' ? 'Namespace' : 'Inbox';
    const inboxOf = (request: { params: unknown }) =>
      scope === 'namespace' ? null : (request.params as { inbox_id: string }).inbox_id;

    app.post(
      base,
      {
        config: { scope: 'lists.write' },
        schema: {
          tags,
          operationId: `create${suffix}BlockEntry`,
          summary: `Block a sender (${scope})`,
          ...(params ? { params } : {}),
          body: CreateBody,
          response: withErrors({ 201: BlockEntry }),
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(toEntry(await blockList.create(request.mailbox, inboxOf(request), request.body))),
    );

    app.get(
      base,
      {
        config: { scope: 'lists.read' },
        schema: {
          tags,
          operationId: `list${suffix}BlockEntries`,
          summary: `List blocked senders (${scope})`,
          ...(params ? { params } : {}),
          querystring: ListQuery,
          response: withErrors({ 200: listEnvelope('entries', BlockEntry) }),
        },
      },
      async (request) => blockList.list(request.mailbox, inboxOf(request), request.query),
    );

    app.delete(
      `${base}/:entry_id`,
      {
        config: { scope: 'lists.write' },
        schema: {
          tags,
          operationId: `delete${suffix}BlockEntry`,
          summary: `Unblock (${scope})`,
          params: Type.Object({ ...(params?.properties ?? {}), entry_id: Type.String() }),
          response: withErrors({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        await blockList.delete(
          request.mailbox,
          inboxOf(request),
          (request.params as { entry_id: string }).entry_id,
        );
        return reply.status(204).send(null);
      },
    );
  }
};
