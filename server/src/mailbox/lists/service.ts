import type { Clock } from '../../core/clock.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { type MailboxPrincipal, notFound, requireUnrestricted } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { loadInbox } from '../inboxes/service.ts';
import { isValidAddress } from '../messages/addresses.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { loadPod } from '../pods/service.ts';
import type { ListDirection, ListEntryRow, ListKind } from './policy.ts';
import { toEntry } from './present.ts';
import { type ListTarget, listsRepository } from './repository.ts';

/** The level a list route names: the namespace (no id), a pod, or an inbox. */
export type ListOwner =
  | { level: 'namespace' }
  | { level: 'pod'; podId: string }
  | { level: 'inbox'; inboxId: string };

const ID_PREFIX: Record<ListKind, string> = { block: 'blk', allow: 'alw' };

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
 * A key restricted to inboxes may only narrow what its inboxes send and receive: it adds and
 * removes block entries, but an allow entry would override its pod's or workspace's block.
 */
function requireMayChange(principal: MailboxPrincipal, list: ListKind): void {
  if (list === 'allow' && principal.reach.inboxIds !== null)
    throw new AppError(
      'permission_denied',
      'A key restricted to inboxes cannot change allow lists (an allow entry overrides the pod and workspace block lists); use a pod or unrestricted key.',
    );
}

/**
 * Allow and block lists of a namespace, a pod or an inbox. Managing a level needs a key that
 * reaches all of it: the namespace's lists only unrestricted keys, a pod's keys that reach the
 * whole pod (unrestricted, or restricted to exactly that pod), an inbox's any key that reaches it
 * (but a key restricted to inboxes only its block lists: see requireMayChange).
 * Mail consults them through `listsRepository.evidenceQuery` and `verdictFor` (policy.ts).
 */
export class ListService {
  constructor(private readonly deps: { db: Executor; clock: Clock; pageTokens: PageTokens }) {}

  /** The list a route names, if the principal may manage it; otherwise 403 or 404. */
  private async target(principal: MailboxPrincipal, owner: ListOwner, list: ListKind): Promise<ListTarget> {
    const { db } = this.deps;
    if (owner.level === 'namespace') {
      requireUnrestricted(principal, `manage the workspace ${list} list`);
      return { namespaceId: principal.homeNamespaceId, podId: null, inboxId: null, list };
    }
    if (owner.level === 'pod') {
      const pod = await loadPod(db, principal, owner.podId);
      return { namespaceId: pod.namespace_id, podId: pod.id, inboxId: null, list };
    }
    const inbox = await loadInbox(db, principal, owner.inboxId);
    return { namespaceId: inbox.namespace_id, podId: null, inboxId: inbox.id, list };
  }

  async create(
    principal: MailboxPrincipal,
    owner: ListOwner,
    list: ListKind,
    input: { value: string; direction?: ListDirection; reason?: string },
  ): Promise<ListEntryRow> {
    requireMayChange(principal, list);
    const target = await this.target(principal, owner, list);
    const { kind, value } = parseValue(input.value);
    const direction = input.direction ?? 'receive';
    const row: ListEntryRow = {
      id: newId(ID_PREFIX[list]),
      namespace_id: target.namespaceId,
      pod_id: target.podId,
      inbox_id: target.inboxId,
      list,
      direction,
      kind,
      value,
      reason: input.reason ?? null,
      created_at: this.deps.clock.now(),
    };
    try {
      await listsRepository.insert(this.deps.db, row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('duplicate', `${value} is already on this ${direction} ${list} list.`, {
          param: 'value',
          cause: error,
        });
      throw error;
    }
    return row;
  }

  async list(
    principal: MailboxPrincipal,
    owner: ListOwner,
    list: ListKind,
    query: ListQuery & { direction?: ListDirection },
  ) {
    const { db, pageTokens } = this.deps;
    const target = await this.target(principal, owner, list);
    const name = `${list}-list:${target.namespaceId}:${target.podId ?? ''}:${target.inboxId ?? ''}:${query.direction ?? ''}`;
    const page = pageTokens.parse(query, name, principal.subject);
    const rows = await listsRepository.list(db, target, query.direction, keyset(page));
    return pageTokens.envelope('entries', page, rows, byCreation, toEntry);
  }

  async delete(
    principal: MailboxPrincipal,
    owner: ListOwner,
    list: ListKind,
    entryId: string,
  ): Promise<void> {
    const { db } = this.deps;
    requireMayChange(principal, list);
    const target = await this.target(principal, owner, list);
    const entry = await listsRepository.get(db, target, entryId);
    if (!entry) throw notFound(`${list} list entry`, 'entry_id');
    await listsRepository.delete(db, entry.id);
  }
}
