import { Type } from 'typebox';
import { isUniqueViolation } from '../../core/db/errors.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { type MailboxPrincipal, notFound, requireUnrestricted } from '../auth/principal.ts';
import { newId } from '../ids.ts';
import { loadInbox } from '../inboxes/service.ts';
import { isValidAddress } from '../messages/addresses.ts';
import { byCreation, keyset, ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam, Nullable, Timestamp } from '../schemas.ts';
import type { MailboxDeps } from '../wiring.ts';
import { type BlockEntryRow, blockListRepository } from './repository.ts';

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

const toEntry = (row: BlockEntryRow) => ({
  entry_id: row.id,
  inbox_id: row.inbox_id,
  kind: row.kind,
  value: row.value,
  reason: row.reason,
  created_at: row.created_at.toISOString(),
});

function parseValue(raw: string): { kind: 'address' | 'domain'; value: string } {
  const value = raw.trim().toLowerCase();
  if (value.includes('@')) {
    if (!isValidAddress(value)) throw invalidParam('value', 'Not a valid address.');
    return { kind: 'address', value };
  }
  if (!/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value))
    throw invalidParam('value', 'Not a valid domain.');
  return { kind: 'domain', value };
}

/**
 * Block lists: namespace-wide at /v0/block-list (keys restricted to inboxes or a pod cannot manage
 * those) and per inbox at /v0/inboxes/{inbox_id}/block-list. Mail from a blocked sender is kept
 * (label `blocked`, no thread) and fires `message.received.blocked` instead of `message.received`.
 */
export function blockListRoutes(app: AppInstance, deps: MailboxDeps): void {
  async function target(principal: MailboxPrincipal, inboxId: string | null) {
    if (inboxId === null) {
      requireUnrestricted(principal, 'manage the namespace block list');
      return { namespaceId: principal.homeNamespaceId, inboxId: null };
    }
    const inbox = await loadInbox(deps.db, principal, inboxId);
    return { namespaceId: inbox.namespace_id, inboxId: inbox.id };
  }

  for (const scope of ['namespace', 'inbox'] as const) {
    const base = scope === 'namespace' ? '/block-list' : '/inboxes/:inbox_id/block-list';
    const params = scope === 'namespace' ? undefined : InboxIdParam;
    const suffix = scope === 'namespace' ? 'Namespace' : 'Inbox';
    const inboxOf = (request: { params: unknown }) =>
      scope === 'namespace' ? null : (request.params as { inbox_id: string }).inbox_id;

    app.post(
      base,
      {
        schema: {
          tags,
          operationId: `create${suffix}BlockEntry`,
          summary: `Block a sender (${scope})`,
          ...(params ? { params } : {}),
          body: CreateBody,
          response: withErrors({ 201: BlockEntry }),
        },
      },
      async (request, reply) => {
        const { namespaceId, inboxId } = await target(request.mailbox, inboxOf(request));
        const { kind, value } = parseValue(request.body.value);
        const row: BlockEntryRow = {
          id: newId('blk'),
          namespace_id: namespaceId,
          inbox_id: inboxId,
          kind,
          value,
          reason: request.body.reason ?? null,
          created_at: deps.clock.now(),
        };
        try {
          await blockListRepository.insert(deps.db, row);
        } catch (error) {
          if (isUniqueViolation(error))
            throw new AppError('duplicate', `${value} is already blocked.`, { param: 'value', cause: error });
          throw error;
        }
        return reply.status(201).send(toEntry(row));
      },
    );

    app.get(
      base,
      {
        schema: {
          tags,
          operationId: `list${suffix}BlockEntries`,
          summary: `List blocked senders (${scope})`,
          ...(params ? { params } : {}),
          querystring: ListQuery,
          response: withErrors({ 200: listEnvelope('entries', BlockEntry) }),
        },
      },
      async (request) => {
        const { namespaceId, inboxId } = await target(request.mailbox, inboxOf(request));
        const list = `block-list:${namespaceId}:${inboxId ?? ''}`;
        const page = deps.pageTokens.parse(request.query, list, request.mailbox.subject);
        const rows = await blockListRepository.list(deps.db, namespaceId, inboxId, keyset(page));
        return deps.pageTokens.envelope('entries', page, rows, byCreation, toEntry);
      },
    );

    app.delete(
      `${base}/:entry_id`,
      {
        schema: {
          tags,
          operationId: `delete${suffix}BlockEntry`,
          summary: `Unblock (${scope})`,
          params: Type.Object({ ...(params?.properties ?? {}), entry_id: Type.String() }),
          response: withErrors({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        const { namespaceId, inboxId } = await target(request.mailbox, inboxOf(request));
        const entry = await blockListRepository.get(
          deps.db,
          namespaceId,
          inboxId,
          (request.params as { entry_id: string }).entry_id,
        );
        if (!entry) throw notFound('block list entry', 'entry_id');
        await blockListRepository.delete(deps.db, entry.id);
        return reply.status(204).send(null);
      },
    );
  }
}
