import type { Clock } from '../../core/clock.ts';
import { invalidParam } from '../../core/http/errors.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { newId } from '../ids.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { checkRecipientLists } from '../lists/recipients.ts';
import { normalizeSubject } from '../threading/subject.ts';
import { formatAddress, isValidAddress, unique } from './addresses.ts';
import { composeMime, type MailContent } from './compose.ts';
import { lowerCaseNames } from './custom-headers.ts';
import { attachmentKeyOf, rawKeyOf } from './ingest.ts';
import { outboundRepository } from './outbound-repository.ts';
import { type MessageObject, previewOf, toMessage } from './present.ts';
import { initialRecipients } from './recipients.ts';
import { messagesRepository } from './repository.ts';
import { MAILBOX_SEND_JOB } from './send-job.ts';
import { type StoredAttachment, storeMessage } from './store.ts';

export interface SendInput extends MailContent {
  in_reply_to: string | null;
  references: string[];
  labels: string[];
  /** Scheduled send: goes then (status `scheduled` until it does); null sends now. */
  send_at?: Date | null;
  /**
   * Run in the transaction that stores the message (a draft being sent is deleted there): the
   * message and what it replaces commit together or not at all. An error it throws stores nothing.
   */
  inTransaction?: (trx: Executor) => Promise<void>;
}

const MAX_RECIPIENTS = 50;

/**
 * Without a process to run it at once, the queued send is due this long after it was accepted:
 * the accepting process claims it immediately (see `send`), so workers must not race it for it.
 */
const FIRST_ATTEMPT_GRACE_MS = 60_000;

/**
 * Outbound mail is accepted here and delivered by the `mailbox.send` job (send-job.ts). The
 * message is composed once (Message-ID and bytes fixed from then on), stored as `sending` (or
 * `scheduled`) in its thread, with its queued job, in one transaction: once the call returned,
 * a crash loses nothing. The call then runs the first attempt itself and waits for it up to
 * MAIL_SEND_WAIT_MS, so with a healthy relay the answer is already `sent` or `rejected`.
 */
export class OutboundMail {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      recorder: EventRecorder;
      queue: JobQueue;
      /** Claims a queued send and runs it (JobRunner.runNow); resolves when that attempt ended. */
      runNow: (jobId: string) => Promise<unknown>;
      /** How long `send` waits for the first attempt; 0 leaves it to the workers. */
      sendWaitMs: number;
      maxMessageBytes: number;
    },
  ) {}

  validate(input: Pick<SendInput, 'to' | 'cc' | 'bcc' | 'reply_to'>): void {
    const all = [...input.to, ...input.cc, ...input.bcc];
    if (all.length === 0) throw invalidParam('to', 'At least one recipient is required in to, cc or bcc.');
    if (all.length > MAX_RECIPIENTS)
      throw invalidParam('to', `At most ${MAX_RECIPIENTS} recipients per message.`);
    for (const field of ['to', 'cc', 'bcc', 'reply_to'] as const) {
      input[field].forEach((address, index) => {
        if (!isValidAddress(address) || /[\r\n]/.test(address))
          throw invalidParam(`${field}[${index}]`, `Not a valid address: ${address}`);
      });
    }
  }

  async send(inbox: InboxRow, input: SendInput): Promise<MessageObject> {
    const { clock } = this.deps;
    this.validate(input);
    await checkRecipientLists(this.deps.db, inbox, input);
    const now = clock.now();
    const sendAt = input.send_at ?? null;
    const messageId = `<${newId('m').slice(2)}@${inbox.domain}>`;
    const from = formatAddress({ name: inbox.display_name, address: inbox.id });
    const raw = await composeMime({
      from,
      to: input.to,
      cc: input.cc,
      bcc: input.bcc,
      reply_to: input.reply_to,
      subject: input.subject,
      text: input.text,
      html: input.html,
      messageId,
      inReplyTo: input.in_reply_to,
      references: input.references,
      date: sendAt ?? now,
      attachments: input.attachments,
      headers: input.headers,
    });
    if (raw.length > this.deps.maxMessageBytes) {
      throw invalidParam(
        'attachments',
        `The message is ${raw.length} bytes; the limit is ${this.deps.maxMessageBytes}.`,
      );
    }

    // Bytes first: a crash before the commit below leaves unreachable objects, never a message without them.
    const rowId = newId('msg');
    await this.deps.storage.put(rawKeyOf(rowId), raw, 'message/rfc822');
    const stored: StoredAttachment[] = [];
    for (const attachment of input.attachments) {
      const id = newId('att');
      await this.deps.storage.put(attachmentKeyOf(rowId, id), attachment.content, attachment.content_type);
      stored.push({
        id,
        filename: attachment.filename,
        content_type: attachment.content_type,
        content_disposition: attachment.inline ? 'inline' : 'attachment',
        content_id: attachment.content_id,
        size: attachment.content.length,
        storage_key: attachmentKeyOf(rowId, id),
      });
    }

    const runNow = !sendAt && this.deps.sendWaitMs > 0;
    let jobId: string | null = null;
    const result = await storeMessage(this.deps, {
      inbox,
      draft: () => ({
        id: rowId,
        message_id: messageId,
        direction: 'outbound',
        status: sendAt ? 'scheduled' : 'sending',
        from_address: inbox.id,
        from,
        reply_to: input.reply_to,
        to: input.to,
        cc: input.cc,
        bcc: input.bcc,
        subject: input.subject,
        normalized_subject: normalizeSubject(input.subject),
        preview: previewOf(input.text, input.html),
        text: input.text,
        html: input.html,
        in_reply_to: input.in_reply_to,
        references: input.references,
        labels: unique([...(sendAt ? ['scheduled'] : []), ...input.labels]),
        headers: lowerCaseNames(input.headers ?? {}),
        auto_reply: false,
        rejection_reason: null,
        raw_key: rawKeyOf(rowId),
        size: raw.length,
        timestamp: sendAt ?? now,
        recipients: initialRecipients(input, now),
        send_at: sendAt,
      }),
      attachments: stored,
      inTransaction: async (trx) => {
        await input.inTransaction?.(trx);
        const runAt = sendAt ?? new Date(now.getTime() + (runNow ? FIRST_ATTEMPT_GRACE_MS : 0));
        const queued = await this.deps.queue.enqueue(
          trx,
          MAILBOX_SEND_JOB,
          { message_row_id: rowId },
          { runAt, dedupeKey: `${MAILBOX_SEND_JOB}:${rowId}` },
        );
        jobId = queued.id;
      },
    }).catch(async (error: unknown) => {
      // Not stored (a draft send that lost its claim: 409/404): its bytes are unreachable, remove them.
      const keys = [rawKeyOf(rowId), ...stored.map((attachment) => attachment.storage_key)];
      await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
      throw error;
    });
    if (runNow && jobId) await this.firstAttempt(jobId);
    const row = (await outboundRepository.byRowId(this.deps.db, rowId)) ?? result.message;
    const attachments = await messagesRepository.attachmentsFor(this.deps.db, [rowId]);
    return toMessage(row, attachments.get(rowId));
  }

  /**
   * Runs the first attempt here and waits for it, at most sendWaitMs: past that the caller gets
   * `sending` while the attempt carries on. If it cannot even be claimed (the database away for
   * a moment), the queued job still runs once its grace period passed.
   */
  private async firstAttempt(jobId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.deps.sendWaitMs);
    });
    await Promise.race([this.deps.runNow(jobId).catch(() => undefined), waited]);
    clearTimeout(timer);
  }
}
