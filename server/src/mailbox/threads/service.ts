import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { loadInbox } from '../inboxes/service.ts';
import { toMessage, toThread } from '../messages/present.ts';
import { messagesRepository } from '../messages/repository.ts';
import { byTimestamp, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { threadsRepository } from './repository.ts';

/** Threads of an inbox, as the threading of ingest and outbound mail left them. */
export class ThreadService {
  constructor(private readonly deps: { db: Executor; pageTokens: PageTokens }) {}

  /** Most recently active first, optionally only those carrying every label asked for. */
  async list(principal: MailboxPrincipal, inboxId: string, query: ListQuery & { labels?: string[] }) {
    const { db, pageTokens } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const page = pageTokens.parse(query, `threads:${inbox.id}`, principal.subject);
    const rows = await threadsRepository.list(db, inbox.id, keyset(page), query.labels);
    return pageTokens.envelope('threads', page, rows, byTimestamp, (r) => toThread(r));
  }

  /** The thread with its messages, oldest first. */
  async get(principal: MailboxPrincipal, inboxId: string, threadId: string) {
    const { db } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const thread = await threadsRepository.get(db, [inbox.id], threadId);
    if (!thread) throw notFound('thread', 'thread_id');
    const rows = await messagesRepository.inThread(db, thread.id);
    const attachments = await messagesRepository.attachmentsFor(
      db,
      rows.map((r) => r.id),
    );
    return toThread(
      thread,
      rows.map((r) => toMessage(r, attachments.get(r.id))),
    );
  }
}
