import type { Executor } from '../db.ts';
import { json } from '../db.ts';
import type { MessageStatus, OutboundRecipient } from '../tables.ts';
import { threadsRepository } from '../threads/repository.ts';
import { MESSAGE_COLUMNS, type MessageRow } from './repository.ts';

/** The state changes of an outbound message on its way out (see send-job.ts). */
export const outboundRepository = {
  async byRowId(db: Executor, id: string): Promise<MessageRow | undefined> {
    return db.selectFrom('mailbox_messages').select(MESSAGE_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  /** The row locked for this transaction, so status checks and writes cannot interleave (see lockWithThread). */
  async lock(db: Executor, id: string): Promise<MessageRow | undefined> {
    return db
      .selectFrom('mailbox_messages')
      .select(MESSAGE_COLUMNS)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },

  /**
   * Locks the message's thread, then the message: the order of every other label write (PATCH
   * labels, trash, permanent delete), since update() below rewrites the thread's labels. The
   * message first could deadlock against them on PostgreSQL, and refreshLabels without the
   * thread's lock could write labels from a stale snapshot. A message never changes thread, so
   * its thread_id read before the locks still holds; the message itself is read under its lock.
   */
  async lockWithThread(db: Executor, id: string): Promise<MessageRow | undefined> {
    const found = await db
      .selectFrom('mailbox_messages')
      .select('thread_id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) return undefined;
    if (found.thread_id) await threadsRepository.lockForUpdate(db, found.thread_id);
    return outboundRepository.lock(db, id);
  },

  /** Status, labels and recipients of a row locked by lockWithThread; the thread's labels follow its messages'. */
  async update(
    db: Executor,
    row: MessageRow,
    change: {
      status: MessageStatus;
      labels: string[];
      recipients?: OutboundRecipient[];
      rejection_reason?: string | null;
      now: Date;
    },
  ): Promise<MessageRow> {
    const updated = await db
      .updateTable('mailbox_messages')
      .set({
        status: change.status,
        labels: json(change.labels),
        ...(change.recipients ? { recipients: json(change.recipients) } : {}),
        ...(change.rejection_reason !== undefined ? { rejection_reason: change.rejection_reason } : {}),
        updated_at: change.now,
      })
      .where('id', '=', row.id)
      .returning(MESSAGE_COLUMNS)
      .executeTakeFirstOrThrow();
    if (row.thread_id && json(row.labels) !== json(change.labels))
      await threadsRepository.refreshLabels(db, row.thread_id, change.now);
    return updated;
  },

  /** An attempt's per-recipient outcomes, while the message is still on its way. */
  async saveRecipients(db: Executor, id: string, recipients: OutboundRecipient[], now: Date): Promise<void> {
    await db
      .updateTable('mailbox_messages')
      .set({ recipients: json(recipients), updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  },
};
