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

  /** The row locked for this transaction, so the status checks below and the write cannot interleave. */
  async lock(db: Executor, id: string): Promise<MessageRow | undefined> {
    return db
      .selectFrom('mailbox_messages')
      .select(MESSAGE_COLUMNS)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Status, labels and recipients of a locked row; the thread's labels follow its messages'. */
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
