import type { Static } from 'typebox';
import type { MailboxPrincipal } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { loadInbox } from '../inboxes/service.ts';
import { toMessage, toThread } from '../messages/present.ts';
import { messagesRepository } from '../messages/repository.ts';
import { byTimestamp, keyset, type PageTokens } from '../pagination.ts';
import { filtersKey, searchFilters } from './filters.ts';
import { type SearchScope, searchRepository } from './repository.ts';
import type { SearchQuery } from './schemas.ts';

/**
 * Lists and searches of messages and threads, in one inbox (`inboxId`) or in every inbox the
 * key reaches (`inboxId` null; each item carries its `inbox_id`). Newest first, keyset-paged;
 * a page token is bound to the list, the key and the filters.
 */
export class SearchService {
  constructor(private readonly deps: { db: Executor; pageTokens: PageTokens }) {}

  /** The scope and the name page tokens are bound to; 404 for an inbox out of reach. */
  private async where(principal: MailboxPrincipal, inboxId: string | null, list: string) {
    if (inboxId === null) return { scope: { reach: principal.reach } as SearchScope, list: `${list}:*` };
    const inbox = await loadInbox(this.deps.db, principal, inboxId);
    return { scope: { inboxId: inbox.id } as SearchScope, list: `${list}:${inbox.id}` };
  }

  async messages(principal: MailboxPrincipal, inboxId: string | null, query: Static<typeof SearchQuery>) {
    const { db, pageTokens } = this.deps;
    const filters = searchFilters(query);
    const { scope, list } = await this.where(principal, inboxId, 'messages');
    const page = pageTokens.parse(query, `${list}|${filtersKey(filters)}`, principal.subject);
    const rows = await searchRepository.messages(db, scope, filters, keyset(page));
    const attachments = await messagesRepository.attachmentsFor(
      db,
      rows.map((r) => r.id),
    );
    return pageTokens.envelope('messages', page, rows, byTimestamp, (r) =>
      toMessage(r, attachments.get(r.id)),
    );
  }

  async threads(principal: MailboxPrincipal, inboxId: string | null, query: Static<typeof SearchQuery>) {
    const { db, pageTokens } = this.deps;
    const filters = searchFilters(query);
    const { scope, list } = await this.where(principal, inboxId, 'threads');
    const page = pageTokens.parse(query, `${list}|${filtersKey(filters)}`, principal.subject);
    const rows = await searchRepository.threads(db, scope, filters, keyset(page));
    return pageTokens.envelope('threads', page, rows, byTimestamp, (r) => toThread(r));
  }
}
