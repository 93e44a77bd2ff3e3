import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import type { ListKind } from './policy.ts';
import { toEntry } from './present.ts';
import { CreateEntryBody, EntryListQuery, ListEntry } from './schemas.ts';
import type { ListOwner, ListService } from './service.ts';

const tags = ['Allow and block lists'];

/** The three levels a list belongs to, each with its path and how a request names its owner. */
const LEVELS = [
  {
    name: 'Namespace',
    prefix: '',
    params: {},
    owner: (): ListOwner => ({ level: 'namespace' }),
  },
  {
    name: 'Pod',
    prefix: '/pods/:pod_id',
    params: { pod_id: Type.String({ maxLength: 64 }) },
    owner: (params: Record<string, string>): ListOwner => ({ level: 'pod', podId: params.pod_id! }),
  },
  {
    name: 'Inbox',
    prefix: '/inboxes/:inbox_id',
    params: InboxIdParam.properties,
    owner: (params: Record<string, string>): ListOwner => ({ level: 'inbox', inboxId: params.inbox_id! }),
  },
] as const;

const WORDS: Record<ListKind, { noun: string; add: string; remove: string }> = {
  block: { noun: 'blocked addresses', add: 'Block an address or domain', remove: 'Unblock' },
  allow: {
    noun: 'allowed addresses',
    add: 'Allow an address or domain',
    remove: 'Remove from the allow list',
  },
};

/**
 * Allow and block lists at /v0/{block,allow}-list (the workspace's namespace; unrestricted keys
 * only), /v0/pods/{pod_id}/… and /v0/inboxes/{inbox_id}/…, each entry for `receive` (the sender of
 * incoming mail; default, so block-list calls mean what they always meant) or `send` (each
 * recipient). How they combine: docs/mailbox.md, "Allow and block lists", and policy.ts.
 */
export const listRoutes: RouteModule<{ lists: ListService }> = (app, { lists }) => {
  for (const list of ['block', 'allow'] as const) {
    const Kind = list === 'block' ? 'Block' : 'Allow';
    const words = WORDS[list];
    for (const level of LEVELS) {
      const base = `${level.prefix}/${list}-list`;
      const params = Object.keys(level.params).length ? { params: Type.Object(level.params) } : {};
      const ownerOf = (request: { params: unknown }) => level.owner(request.params as Record<string, string>);
      const scopeName = level.name === 'Namespace' ? 'workspace' : level.name.toLowerCase();

      app.post(
        base,
        {
          config: { scope: 'lists.write' },
          schema: {
            tags,
            operationId: `create${level.name}${Kind}Entry`,
            summary: `${words.add} (${scopeName})`,
            ...params,
            body: CreateEntryBody,
            response: withErrors({ 201: ListEntry }),
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(toEntry(await lists.create(request.mailbox, ownerOf(request), list, request.body))),
      );

      app.get(
        base,
        {
          config: { scope: 'lists.read' },
          schema: {
            tags,
            operationId: `list${level.name}${Kind}Entries`,
            summary: `List ${words.noun} (${scopeName})`,
            ...params,
            querystring: EntryListQuery,
            response: withErrors({ 200: listEnvelope('entries', ListEntry) }),
          },
        },
        async (request) => lists.list(request.mailbox, ownerOf(request), list, request.query),
      );

      app.delete(
        `${base}/:entry_id`,
        {
          config: { scope: 'lists.write' },
          schema: {
            tags,
            operationId: `delete${level.name}${Kind}Entry`,
            summary: `${words.remove} (${scopeName})`,
            params: Type.Object({ ...level.params, entry_id: Type.String({ maxLength: 64 }) }),
            response: withErrors({ 204: Type.Null() }),
          },
        },
        async (request, reply) => {
          const { entry_id } = request.params as { entry_id: string };
          await lists.delete(request.mailbox, ownerOf(request), list, entry_id);
          return reply.status(204).send(null);
        },
      );
    }
  }
};
