import type { Clock } from '../../core/clock.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { scopeOf } from '../events/types.ts';
import { loadInbox } from '../inboxes/service.ts';
import { toMessage, toThread } from '../messages/present.ts';
import { messagesRepository } from '../messages/repository.ts';
import { threadsRepository } from './repository.ts';

/** What a deletion answers: the thread and whether it is gone for good or in the trash. */
export interface DeletedThread {
  inbox_id: string;
  thread_id: string;
  permanent: boolean;
}

/** Threads of an inbox, as the threading of ingest and outbound mail left them; trashed and deleted. */
export class ThreadService {
  constructor(
    private readonly deps: { db: Executor; clock: Clock; storage: ObjectStorage; recorder: EventRecorder },
  ) {}

  private async find(principal: MailboxPrincipal, inboxId: string, threadId: string) {
    const { db } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const thread = await threadsRepository.get(db, [inbox.id], threadId);
    if (!thread) throw notFound('thread', 'thread_id');
    return { inbox, thread };
  }

  /** The thread with its messages, oldest first (those in the trash too, with their label). */
  async get(principal: MailboxPrincipal, inboxId: string, threadId: string) {
    const { db } = this.deps;
    const { thread } = await this.find(principal, inboxId, threadId);
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

  /**
   * Moves every message of the thread to the trash (and so the thread), or with `permanent`
   * deletes the thread and its messages for good, stored bytes included, with the event
   * `thread.deleted`. The thread is locked meanwhile: a message being stored into it waits and
   * then starts a new thread (permanent) or takes the thread out of the trash (it is not trashed).
   */
  async delete(
    principal: MailboxPrincipal,
    inboxId: string,
    threadId: string,
    permanent: boolean,
  ): Promise<DeletedThread> {
    const { recorder, storage } = this.deps;
    const { inbox, thread } = await this.find(principal, inboxId, threadId);
    const deleted = { inbox_id: inbox.id, thread_id: thread.id, permanent };
    if (!permanent) {
      await this.moveToTrash(thread.id, true);
      return deleted;
    }
    const keys = await recorder.transaction(async (trx, emit) => {
      if (!(await threadsRepository.lockForUpdate(trx, thread.id))) return [];
      const messages = await messagesRepository.inThread(trx, thread.id);
      const keys = await messagesRepository.deleteRows(
        trx,
        messages.map((m) => m.id),
      );
      await threadsRepository.delete(trx, thread.id);
      await emit('thread.deleted', scopeOf(inbox), {
        thread_id: thread.id,
        message_ids: messages.map((m) => m.message_id),
      });
      return keys;
    });
    // The rows are gone; the bytes follow, best effort (a leftover object is unreachable).
    await Promise.allSettled(keys.map((key) => storage.delete(key)));
    return deleted;
  }

  /** Takes every message of the thread out of the trash. */
  async restore(principal: MailboxPrincipal, inboxId: string, threadId: string) {
    const { thread } = await this.find(principal, inboxId, threadId);
    await this.moveToTrash(thread.id, false);
    return this.get(principal, inboxId, threadId);
  }

  private async moveToTrash(threadId: string, into: boolean): Promise<void> {
    const { db, clock } = this.deps;
    await db.transaction().execute(async (trx) => {
      const now = clock.now();
      await threadsRepository.lockForUpdate(trx, threadId);
      await messagesRepository.trashThread(trx, threadId, into, now);
      await threadsRepository.refreshLabels(trx, threadId, now);
    });
  }
}
