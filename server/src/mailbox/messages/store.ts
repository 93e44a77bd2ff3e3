import type { Clock } from '../../core/clock.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { type MatchedBy, resolveThread } from '../threading/resolve.ts';
import { type ThreadRow, threadsRepository } from '../threads/repository.ts';
import { bareAddress, unique } from './addresses.ts';
import { type AttachmentRow, type MessageRow, messagesRepository, type NewMessage } from './repository.ts';

export interface StoredAttachment {
  id: string;
  filename: string | null;
  content_type: string;
  content_disposition: string | null;
  content_id: string | null;
  size: number;
  storage_key: string;
}

export type MessageDraft = Omit<
  NewMessage,
  'id' | 'inbox_id' | 'thread_id' | 'matched_by' | 'created_at' | 'updated_at'
> & {
  id?: string;
};

export interface StoreResult {
  message: MessageRow;
  attachments: AttachmentRow[];
  thread: ThreadRow | null;
  matchedBy: MatchedBy | null;
  /** The message was already stored (same Message-ID in this inbox): nothing was written. */
  duplicate: boolean;
}

/**
 * Threads and stores one message in the caller's transaction: resolves its thread (or starts
 * one), inserts the message and its attachments, and updates the thread's aggregates.
 * `thread: false` stores it outside any thread (blocked mail).
 */
export async function storeMessage(
  trx: Executor,
  clock: Clock,
  inbox: InboxRow,
  draft: MessageDraft,
  attachments: StoredAttachment[],
  options: { thread: boolean },
): Promise<StoreResult> {
  // One lookup answers both "is this a duplicate?" and the Message-ID layers of threading.
  const threadIds = [draft.in_reply_to, ...draft.references].filter((id): id is string => Boolean(id));
  const known = await messagesRepository.threadsByMessageIds(
    trx,
    inbox.id,
    [draft.message_id, ...threadIds],
    {
      includeUnthreaded: true,
    },
  );
  const existing = known.has(draft.message_id)
    ? await messagesRepository.byMessageId(trx, inbox.id, draft.message_id)
    : undefined;
  if (existing) {
    const thread = existing.thread_id
      ? ((await threadsRepository.get(trx, null, existing.thread_id)) ?? null)
      : null;
    const rows = (await messagesRepository.attachmentsFor(trx, [existing.id])).get(existing.id) ?? [];
    return { message: existing, attachments: rows, thread, matchedBy: existing.matched_by, duplicate: true };
  }
  const now = clock.now();
  const participants = unique(
    [draft.from, ...draft.to, ...draft.cc, ...draft.reply_to].map(bareAddress).filter(Boolean),
  );
  let thread: ThreadRow | null = null;
  let matchedBy: MatchedBy | null = null;
  if (options.thread) {
    const resolved = await resolveThread(
      {
        inboxAddress: inbox.id,
        inReplyTo: draft.in_reply_to ?? null,
        references: draft.references,
        normalizedSubject: draft.normalized_subject ?? '',
        participants,
        timestamp: new Date(draft.timestamp as Date),
      },
      {
        threadsByMessageIds: async (_inboxId, ids) =>
          new Map(ids.filter((id) => known.get(id)).map((id) => [id, known.get(id)!])),
        threadBySubject: (inboxId, subject, since, people) =>
          threadsRepository.bySubject(trx, inboxId, subject, since, people),
      },
    );
    matchedBy = resolved.matchedBy;
    const addition = {
      senders: [bareAddress(draft.from)],
      recipients: [...draft.to, ...draft.cc].map(bareAddress),
      participants,
      labels: draft.labels,
      preview: draft.preview ?? '',
      size: draft.size ?? 0,
      last_message_id: draft.message_id,
      timestamp: new Date(draft.timestamp as Date),
      now,
    };
    thread = resolved.threadId
      ? ((await threadsRepository.append(trx, resolved.threadId, addition)) ?? null)
      : null;
    if (!thread) {
      matchedBy = 'new';
      thread = await threadsRepository.insertWith(
        trx,
        {
          id: newId('thr'),
          inbox_id: inbox.id,
          subject: draft.subject ?? '',
          normalized_subject: draft.normalized_subject ?? '',
          now,
        },
        addition,
      );
    }
  }
  const messageRowId = draft.id ?? newId('msg');
  const message = await messagesRepository.insert(trx, {
    ...draft,
    id: messageRowId,
    inbox_id: inbox.id,
    thread_id: thread?.id ?? null,
    matched_by: matchedBy,
    created_at: now,
    updated_at: now,
  });
  const attachmentRows: AttachmentRow[] = attachments.map((a) => ({
    ...a,
    message_row_id: messageRowId,
    created_at: now,
  }));
  await messagesRepository.insertAttachments(trx, attachmentRows);
  return { message, attachments: attachmentRows, thread, matchedBy, duplicate: false };
}
