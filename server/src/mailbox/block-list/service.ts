import type { Clock } from '../../core/clock.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { type MailboxPrincipal, notFound, requireUnrestricted } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { loadInbox } from '../inboxes/service.ts';
import { isValidAddress } from '../messages/addresses.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { toEntry } from './present.ts';
import { type BlockEntryRow, blockListRepository } from './repository.ts';

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
 * Block lists, of a namespace (`inboxId` null: keys restricted to inboxes or a pod cannot manage
 * those) or of one inbox. Ingest consults them through `blockListRepository.matchQuery`.
 */
export class BlockListService {
  constructor(private readonly deps: { db: Executor; clock: Clock; pageTokens: PageTokens }) {}

  /** The list an entry belongs to: the caller's namespace, or an inbox it reaches. */
  private async target(principal: MailboxPrincipal, inboxId: string | null) {
    if (inboxId === null) {
      requireUnrestricted(principal, 'manage the namespace block list');
      return { namespaceId: principal.homeNamespaceId, inboxId: null };
    }
    const inbox = await loadInbox(this.deps.db, principal, inboxId);
    return { namespaceId: inbox.namespace_id, inboxId: inbox.id };
  }

  async create(
    principal: MailboxPrincipal,
    listInboxId: string | null,
    input: { value: string; reason?: string },
  ): Promise<BlockEntryRow> {
    const { namespaceId, inboxId } = await this.target(principal, listInboxId);
    const { kind, value } = parseValue(input.value);
    const row: BlockEntryRow = {
      id: newId('blk'),
      namespace_id: namespaceId,
      inbox_id: inboxId,
      kind,
      value,
      reason: input.reason ?? null,
      created_at: this.deps.clock.now(),
    };
    try {
      await blockListRepository.insert(this.deps.db, row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('duplicate', `${value} is already blocked.`, { param: 'value', cause: error });
      throw error;
    }
    return row;
  }

  async list(principal: MailboxPrincipal, listInboxId: string | null, query: ListQuery) {
    const { db, pageTokens } = this.deps;
    const { namespaceId, inboxId } = await this.target(principal, listInboxId);
    const list = `block-list:${namespaceId}:${inboxId ?? ''}`;
    const page = pageTokens.parse(query, list, principal.subject);
    const rows = await blockListRepository.list(db, namespaceId, inboxId, keyset(page));
    return pageTokens.envelope('entries', page, rows, byCreation, toEntry);
  }

  async delete(principal: MailboxPrincipal, listInboxId: string | null, entryId: string): Promise<void> {
    const { db } = this.deps;
    const { namespaceId, inboxId } = await this.target(principal, listInboxId);
    const entry = await blockListRepository.get(db, namespaceId, inboxId, entryId);
    if (!entry) throw notFound('block list entry', 'entry_id');
    await blockListRepository.delete(db, entry.id);
  }
}
