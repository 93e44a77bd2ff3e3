import type { Clock } from '../../core/clock.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { type FiringEventType, type MailboxEvent, scopeOf } from '../events/types.ts';
import { newId } from '../ids.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { type ListRefusal, verdictFor } from '../lists/policy.ts';
import { type ReadBodies, readBodies } from '../reading/extract.ts';
import {
  type MatchedBy,
  quoteSearch,
  resolveThread,
  subjectSearch,
  type ThreadingInput,
} from '../threading/resolve.ts';
import { type ThreadRow, threadsRepository } from '../threads/repository.ts';
import { bareAddress, unique } from './addresses.ts';
import {
  type AttachmentRow,
  MESSAGE_ROW,
  type MessageRow,
  messagesRepository,
  type NewMessage,
} from './repository.ts';

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
  | 'id'
  | 'inbox_id'
  | 'thread_id'
  | 'matched_by'
  | 'created_at'
  | 'updated_at'
  | 'extracted_text'
  | 'extracted_html'
> & {
  id?: string;
};

export interface StoredMessage {
  message: MessageRow;
  attachments: AttachmentRow[];
  thread: ThreadRow | null;
  matchedBy: MatchedBy | null;
  /** Why the receive lists refused the sender (when asked to check): such mail is in no thread. */
  blockedBy: ListRefusal | null;
}

export interface StoreResult extends StoredMessage {
  /** Already stored (same Message-ID in this inbox): nothing was written and no event fired. */
  duplicate: boolean;
  event: MailboxEvent | null;
}

export interface StoreRequest {
  inbox: InboxRow;
  /** The message to store; `blockedBy` is set when the receive lists refuse the sender. */
  draft: (blockedBy: ListRefusal | null) => MessageDraft;
  attachments: StoredAttachment[];
  /** Inbound mail: the sender ('' if none) to check against the receive lists of the inbox, its pod and namespace. */
  blockListSender?: string;
  /** The event the stored message causes, built from the rows exactly as they are written; none if absent. */
  event?: (stored: StoredMessage) => { type: FiringEventType; body: Record<string, unknown> };
  /**
   * Written in the same transaction as the message (an outbound message's queued send job):
   * with it, storing always runs in a transaction.
   */
  inTransaction?: (db: Executor, stored: StoredMessage) => Promise<void>;
}

/** Rounds before giving up (a round repeats only after a lost race). */
const MAX_ROUNDS = 5;

type Deps = { db: Executor; clock: Clock; recorder: EventRecorder };

/**
 * Threads and stores one message with the event it causes. Usually two statements and no
 * transaction: one read (receive lists, the messages its Message-ID, In-Reply-To and References
 * name, the subject candidate and their threads), then one write of the thread, the message, its
 * attachments, the event and its webhook deliveries, which commits them together. The thread's
 * new aggregates are computed here, so the event can carry them; the write updates the thread
 * only if it is still the version that was read (its xmin). If another message or a label change
 * got there first, the next round runs in a transaction that locks the thread before computing,
 * so a thread that many messages reach at once still makes progress. A copy of the same message
 * stored meanwhile (Message-IDs are unique per inbox) is found by the next round as a duplicate.
 *
 * Two statements instead of a transaction of six to eight: bench/mailbox is bound by the
 * service's CPU per statement (docs/performance.md).
 */
export async function storeMessage(deps: Deps, request: StoreRequest): Promise<StoreResult> {
  // Received and sent mail alike: the reply's new part and what it quotes, read once.
  const { text, html } = request.draft(null);
  const bodies = readBodies(text, html);
  for (let round = 1; ; round++) {
    const lock = round > 1;
    const outcome = await (lock || request.inTransaction
      ? deps.db.transaction().execute((trx) => storeOnce({ ...deps, db: trx }, request, bodies, true))
      : storeOnce(deps, request, bodies, false)
    ).catch((error: unknown) => {
      if (isUniqueViolation(error) && round < MAX_ROUNDS) return 'changed' as const;
      throw error;
    });
    if (outcome === 'changed') {
      if (round >= MAX_ROUNDS) throw new Error('the thread kept changing while a message was stored');
      continue;
    }
    // Only what committed reaches workers and sockets.
    if (outcome.event) await deps.recorder.committed(deps.db, [outcome.event], outcome.queued);
    return outcome;
  }
}

async function storeOnce(
  { db, clock, recorder }: Deps,
  request: StoreRequest,
  bodies: ReadBodies,
  lockThread: boolean,
): Promise<(StoreResult & { queued: Array<{ pending: boolean }> }) | 'changed'> {
  const { inbox } = request;
  const asReceived = request.draft(null);
  const timestamp = new Date(asReceived.timestamp as Date);
  const participants = unique(
    [asReceived.from, ...asReceived.to, ...asReceived.cc, ...asReceived.reply_to]
      .map(bareAddress)
      .filter(Boolean),
  );
  const threading: ThreadingInput = {
    inboxAddress: inbox.id,
    inReplyTo: asReceived.in_reply_to ?? null,
    references: asReceived.references,
    normalizedSubject: asReceived.normalized_subject ?? '',
    participants,
    timestamp,
    quoted: bodies.quoted,
  };
  const context = await messagesRepository.storeContext(db, {
    inboxId: inbox.id,
    messageIds: [asReceived.message_id, asReceived.in_reply_to ?? '', ...asReceived.references],
    subject: subjectSearch(threading),
    quote: quoteSearch(threading),
    receiveLists:
      request.blockListSender !== undefined
        ? {
            place: { namespaceId: inbox.namespace_id, podId: inbox.pod_id, inboxId: inbox.id },
            sender: request.blockListSender,
          }
        : undefined,
  });
  if (context.known.has(asReceived.message_id))
    return { ...(await duplicateOf(db, inbox.id, asReceived.message_id)), queued: [] };

  const blockedBy =
    request.blockListSender !== undefined && context.receiveLists
      ? verdictFor(request.blockListSender, context.receiveLists)
      : null;
  const draft = blockedBy ? request.draft(blockedBy) : asReceived;
  const now = clock.now();
  let thread: ThreadRow | null = null;
  let version: string | undefined;
  let matchedBy: MatchedBy | null = null;
  if (!blockedBy) {
    const resolved = resolveThread(threading, {
      threadByMessageId: context.known,
      subjectThreadId: context.subjectThreadId,
      quoteThreadId: context.quoteThreadId,
    });
    const read = resolved.threadId ? context.threads.get(resolved.threadId) : undefined;
    const current = read && lockThread ? await threadsRepository.lockForUpdate(db, read.row.id) : read;
    const addition = {
      senders: [bareAddress(draft.from)],
      recipients: [...draft.to, ...draft.cc].map(bareAddress),
      participants,
      labels: draft.labels,
      preview: draft.preview ?? '',
      size: draft.size ?? 0,
      last_message_id: draft.message_id,
      timestamp,
      now,
    };
    if (current) {
      thread = threadsRepository.appended(current.row, addition);
      version = current.version;
      matchedBy = resolved.matchedBy;
    } else {
      thread = threadsRepository.started(
        {
          id: newId('thr'),
          inbox_id: inbox.id,
          subject: draft.subject ?? '',
          normalized_subject: draft.normalized_subject ?? '',
          now,
        },
        addition,
      );
      matchedBy = 'new';
    }
  }

  const message = messageRow(draft, bodies, {
    inboxId: inbox.id,
    threadId: thread?.id ?? null,
    matchedBy,
    now,
  });
  const attachments: AttachmentRow[] = request.attachments.map((a, position) => ({
    ...a,
    message_row_id: message.id,
    position,
    created_at: now,
  }));
  const stored: StoredMessage = { message, attachments, thread, matchedBy, blockedBy };
  const caused = request.event?.(stored);
  const event = caused ? recorder.prepare(caused.type, scopeOf(inbox), caused.body) : null;

  const written = await messagesRepository.writeStored(db, {
    thread: thread && { row: thread, version },
    message,
    attachments,
    event: event && recorder.writeParts(event, MESSAGE_ROW),
  });
  // The thread changed (or went) since it was read: nothing was written.
  if (!written.stored) return 'changed';
  await request.inTransaction?.(db, stored);
  return { ...stored, duplicate: false, event, queued: [{ pending: written.pending }] };
}

/** The row as it will be stored, every column filled in as the table's defaults would. */
function messageRow(
  draft: MessageDraft,
  bodies: ReadBodies,
  extra: { inboxId: string; threadId: string | null; matchedBy: MatchedBy | null; now: Date },
): MessageRow {
  return {
    id: draft.id ?? newId('msg'),
    inbox_id: extra.inboxId,
    message_id: draft.message_id,
    thread_id: extra.threadId,
    direction: draft.direction,
    status: draft.status,
    from_address: draft.from_address,
    from: draft.from,
    reply_to: draft.reply_to,
    to: draft.to,
    cc: draft.cc,
    bcc: draft.bcc,
    subject: draft.subject ?? '',
    normalized_subject: draft.normalized_subject ?? '',
    preview: draft.preview ?? '',
    text: draft.text ?? null,
    html: draft.html ?? null,
    extracted_text: bodies.extracted_text,
    extracted_html: bodies.extracted_html,
    in_reply_to: draft.in_reply_to ?? null,
    references: draft.references,
    labels: draft.labels,
    headers: draft.headers,
    headers_truncated: draft.headers_truncated ?? false,
    matched_by: extra.matchedBy,
    auto_reply: draft.auto_reply ?? false,
    auto_reply_reason: draft.auto_reply_reason ?? null,
    rejection_reason: draft.rejection_reason ?? null,
    raw_key: draft.raw_key ?? null,
    size: draft.size ?? 0,
    timestamp: new Date(draft.timestamp as Date),
    recipients: draft.recipients ?? [],
    send_at: draft.send_at ? new Date(draft.send_at) : null,
    created_at: extra.now,
    updated_at: extra.now,
  };
}

async function duplicateOf(db: Executor, inboxId: string, messageId: string): Promise<StoreResult> {
  const existing = await messagesRepository.byMessageId(db, inboxId, messageId);
  if (!existing) throw new Error('a stored message vanished while its copy was checked');
  const thread = existing.thread_id
    ? ((await threadsRepository.get(db, null, existing.thread_id)) ?? null)
    : null;
  const attachments = (await messagesRepository.attachmentsFor(db, [existing.id])).get(existing.id) ?? [];
  return {
    message: existing,
    attachments,
    thread,
    matchedBy: existing.matched_by,
    blockedBy: null,
    duplicate: true,
    event: null,
  };
}
