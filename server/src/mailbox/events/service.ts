import type { MailboxPrincipal } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { loadInbox } from '../inboxes/service.ts';
import type { PageTokens } from '../pagination.ts';
import { eventsRepository } from './repository.ts';

export interface InboxEventQuery {
  limit?: number;
  page_token?: string;
  event_types?: string[];
}

/** The stored events of an inbox, read back by a client that was disconnected. */
export class EventService {
  constructor(private readonly deps: { db: Executor; pageTokens: PageTokens }) {}

  /**
   * Oldest first, after the page token. The token is returned even on the last page (the same one
   * when nothing is new), so the same call can be repeated later to fetch only newer events.
   */
  async listForInbox(principal: MailboxPrincipal, inboxId: string, query: InboxEventQuery) {
    const { db, pageTokens } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const page = pageTokens.parse(query, `events:${inbox.id}`, principal.subject);
    const afterSeq = page.after ? Number(page.after.i) : 0;
    const rows = await eventsRepository.listForInbox(db, inbox.id, {
      afterSeq,
      limit: page.limit + 1,
      eventTypes: query.event_types,
    });
    const more = rows.length > page.limit;
    const kept = more ? rows.slice(0, page.limit) : rows;
    const last = kept[kept.length - 1];
    const token = last
      ? pageTokens.encode(page, {
          t: last.created_at.toISOString(),
          i: String(last.seq),
        })
      : (query.page_token ?? null);
    return {
      count: kept.length,
      limit: page.limit,
      has_more: more,
      next_page_token: token,
      events: kept.map((r) => r.payload),
    };
  }
}
