import type { Static } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/http/errors.ts';
import { type ObjectStorage, toBuffer } from '../../core/storage/types.ts';
import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import { requireScope } from '../auth/scopes.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { scopeOf } from '../events/types.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { loadInbox } from '../inboxes/service.ts';
import { checkRecipientLists } from '../lists/recipients.ts';
import { normalizeMessageId } from '../threading/resolve.ts';
import { type ThreadRow, TRASH, threadsRepository } from '../threads/repository.ts';
import { unique } from './addresses.ts';
import { checkCustomHeaders } from './custom-headers.ts';
import { forwardBodies, forwardSubject } from './forward.ts';
import { type AttachmentReader, asList, parseSendAt } from './input.ts';
import { checkCallerLabels } from './labels.ts';
import type { OutboundMail } from './outbound.ts';
import { outboundRepository } from './outbound-repository.ts';
import { toMessage, toThread } from './present.ts';
import { replyRecipients } from './reply-recipients.ts';
import { messagesRepository } from './repository.ts';
import type { ForwardBody, ReplyBody, SendBody } from './schemas.ts';

/** What a deletion answers: the message and whether it is gone for good or in the trash. */
export interface DeletedMessage {
  inbox_id: string;
  message_id: string;
  thread_id: string | null;
  permanent: boolean;
}

/** The messages of an inbox: read, labelled, downloaded, sent and replied to. */
export class MessageService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      recorder: EventRecorder;
      outbound: Pick<OutboundMail, 'send' | 'validate'>;
      attachments: AttachmentReader;
    },
  ) {}

  /** The inbox and the message (by its Message-ID) if the principal reaches them; otherwise 404. */
  private async find(principal: MailboxPrincipal, inboxId: string, rawMessageId: string) {
    const { db } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const messageId = normalizeMessageId(rawMessageId);
    const row = messageId ? await messagesRepository.byMessageId(db, inbox.id, messageId) : undefined;
    if (!row) throw notFound('message', 'message_id');
    return { inbox, row };
  }

  async get(principal: MailboxPrincipal, inboxId: string, messageId: string) {
    const { row } = await this.find(principal, inboxId, messageId);
    const attachments = await messagesRepository.attachmentsFor(this.deps.db, [row.id]);
    return toMessage(row, attachments.get(row.id));
  }

  /** Adds and removes labels; the system labels (received, sent…) cannot be changed. */
  async updateLabels(
    principal: MailboxPrincipal,
    inboxId: string,
    messageId: string,
    change: { add_labels?: string[]; remove_labels?: string[] },
  ) {
    const { db, clock } = this.deps;
    const { row } = await this.find(principal, inboxId, messageId);
    const add = change.add_labels ?? [];
    const remove = change.remove_labels ?? [];
    checkCallerLabels(add, 'add_labels');
    checkCallerLabels(remove, 'remove_labels');
    // An empty update changes nothing (not even updated_at) and answers the message.
    const updated =
      add.length || remove.length
        ? await messagesRepository.changeLabels(db, row, { add, remove }, clock.now())
        : row;
    const attachments = await messagesRepository.attachmentsFor(db, [row.id]);
    return toMessage(updated, attachments.get(row.id));
  }

  /**
   * Moves the message to the trash (label `trash`: hidden from lists and searches unless asked
   * for), or with `permanent` deletes it for good: its row, attachments, stored bytes, and its
   * place in the thread (aggregates recomputed; a thread left empty goes too), with the event
   * `message.deleted`. Moving to the trash again changes nothing (a retried DELETE never destroys).
   */
  async delete(
    principal: MailboxPrincipal,
    inboxId: string,
    messageId: string,
    permanent: boolean,
  ): Promise<DeletedMessage> {
    const { inbox, row } = await this.find(principal, inboxId, messageId);
    const deleted = { inbox_id: inbox.id, message_id: row.message_id, thread_id: row.thread_id, permanent };
    if (!permanent) {
      if (!row.labels.includes(TRASH))
        await messagesRepository.changeLabels(
          this.deps.db,
          row,
          { add: [TRASH], remove: [] },
          this.deps.clock.now(),
        );
      return deleted;
    }
    const { recorder, clock, storage } = this.deps;
    const keys = await recorder.transaction(async (trx, emit) => {
      const now = clock.now();
      const lock = row.thread_id ? await threadsRepository.lockForUpdate(trx, row.thread_id) : undefined;
      // Deleted by a concurrent call meanwhile: that one reported it (and fired the event).
      if (!(await messagesRepository.lockRow(trx, row.id))) throw notFound('message', 'message_id');
      const keys = await messagesRepository.deleteRows(trx, [row.id]);
      let thread: ThreadRow | null = null;
      if (lock) {
        const remaining = await messagesRepository.inThread(trx, lock.row.id);
        thread = threadsRepository.recomputed(lock.row, remaining, now);
        if (thread) await threadsRepository.writeAggregates(trx, thread);
        else await threadsRepository.delete(trx, lock.row.id);
      }
      await emit('message.deleted', scopeOf(inbox), {
        message_id: row.message_id,
        thread_id: row.thread_id,
        thread: thread && toThread(thread),
      });
      return keys;
    });
    // The rows are gone; the bytes follow, best effort (a leftover object is unreachable).
    await Promise.allSettled(keys.map((key) => storage.delete(key)));
    return deleted;
  }

  /** Takes the message out of the trash (its thread with it, if the whole thread was there). */
  async restore(principal: MailboxPrincipal, inboxId: string, messageId: string) {
    const { db, clock } = this.deps;
    const { row } = await this.find(principal, inboxId, messageId);
    const updated = row.labels.includes(TRASH)
      ? await messagesRepository.changeLabels(db, row, { add: [], remove: [TRASH] }, clock.now())
      : row;
    const attachments = await messagesRepository.attachmentsFor(db, [row.id]);
    return toMessage(updated, attachments.get(row.id));
  }

  /** The stored message/rfc822 bytes. */
  async raw(principal: MailboxPrincipal, inboxId: string, messageId: string) {
    const { row } = await this.find(principal, inboxId, messageId);
    const object = row.raw_key ? await this.deps.storage.get(row.raw_key) : null;
    if (!object) throw notFound('raw message', 'message_id');
    return object;
  }

  /** An attachment's row (name, type) and its stored bytes. */
  async attachment(principal: MailboxPrincipal, inboxId: string, messageId: string, attachmentId: string) {
    const { row } = await this.find(principal, inboxId, messageId);
    const attachment = await messagesRepository.attachment(this.deps.db, row.id, attachmentId);
    const object = attachment ? await this.deps.storage.get(attachment.storage_key) : null;
    if (!attachment || !object) throw notFound('attachment', 'attachment_id');
    return { attachment, object };
  }

  async send(principal: MailboxPrincipal, inboxId: string, body: Static<typeof SendBody>) {
    const inbox = await loadInbox(this.deps.db, principal, inboxId);
    return this.deps.outbound.send(inbox, {
      ...(await this.content(inbox, body)),
      in_reply_to: null,
      references: [],
      send_at: parseSendAt(body.send_at, this.deps.clock.now()),
    });
  }

  /**
   * Cancels a scheduled message that has not gone yet: 200 with status `cancelled`; 409 once it
   * went (or was cancelled before). The queued job finds it cancelled and does nothing.
   */
  async cancel(principal: MailboxPrincipal, inboxId: string, messageId: string) {
    const { db, clock } = this.deps;
    const { row: found } = await this.find(principal, inboxId, messageId);
    const cancelled = await db.transaction().execute(async (trx) => {
      const row = await outboundRepository.lockWithThread(trx, found.id);
      if (row?.status !== 'scheduled') return null;
      const labels = unique([...row.labels.filter((label) => label !== 'scheduled'), 'cancelled']);
      return outboundRepository.update(trx, row, { status: 'cancelled', labels, now: clock.now() });
    });
    if (!cancelled) {
      throw new AppError(
        'resource_conflict',
        'Only a scheduled message that has not gone yet can be cancelled.',
        {
          param: 'message_id',
        },
      );
    }
    const attachments = await messagesRepository.attachmentsFor(db, [cancelled.id]);
    return toMessage(cancelled, attachments.get(cancelled.id));
  }

  /** Addressed as a mail client would (see replyRecipients) unless `to` is given; threads with the original. */
  async reply(
    principal: MailboxPrincipal,
    inboxId: string,
    messageId: string,
    body: Static<typeof ReplyBody>,
  ) {
    const { inbox, row } = await this.find(principal, inboxId, messageId);
    const content = await this.content(inbox, body, (given) =>
      replyRecipients(row, inbox.id, {
        ...(body.to !== undefined ? { to: given.to } : {}),
        cc: given.cc,
        replyAll: body.reply_all ?? false,
      }),
    );
    return this.deps.outbound.send(inbox, {
      ...content,
      subject: body.subject ?? (/^re:/i.test(row.subject) ? row.subject : `Re: ${row.subject}`),
      in_reply_to: row.message_id,
      references: unique([...row.references, row.message_id]).slice(-50),
      send_at: parseSendAt(body.send_at, this.deps.clock.now()),
    });
  }

  /**
   * The original below the caller's note, with its attachments (read back from storage), under
   * `Fwd:`. References (not In-Reply-To: a forward answers no one) keep it in the original's thread.
   */
  async forward(
    principal: MailboxPrincipal,
    inboxId: string,
    messageId: string,
    body: Static<typeof ForwardBody>,
  ) {
    const { db, storage } = this.deps;
    // A forward sends (and answers) the original's content: a send-only key must not read through it.
    requireScope(principal, 'messages.read');
    const { inbox, row } = await this.find(principal, inboxId, messageId);
    const content = await this.content(inbox, body);
    const carried = [];
    if (body.include_attachments !== false) {
      for (const attachment of (await messagesRepository.attachmentsFor(db, [row.id])).get(row.id) ?? []) {
        const object = await storage.get(attachment.storage_key);
        if (!object) throw notFound('attachment of the original', 'message_id');
        carried.push({
          filename: attachment.filename,
          content_type: attachment.content_type,
          content: await toBuffer(object.body),
          content_id: attachment.content_id,
          inline: attachment.content_disposition === 'inline',
        });
      }
    }
    const bodies = forwardBodies(content, {
      from: row.from,
      to: row.to,
      cc: row.cc,
      subject: row.subject,
      date: row.headers.date ?? row.timestamp.toUTCString(),
      text: row.text,
      html: row.html,
    });
    return this.deps.outbound.send(inbox, {
      ...content,
      ...bodies,
      subject: body.subject ?? forwardSubject(row.subject),
      attachments: [...carried, ...content.attachments],
      in_reply_to: null,
      references: unique([...row.references, row.message_id]).slice(-50),
      send_at: parseSendAt(body.send_at, this.deps.clock.now()),
    });
  }

  /**
   * The compose fields of a send, reply or forward, checked: labels and headers allowed, the
   * recipients (as `address` settles them, for a reply) valid and admitted by the send lists
   * before any attachment URL is fetched, then the attachments read.
   */
  private async content(
    inbox: InboxRow,
    body: Static<typeof SendBody>,
    address: (given: { to: string[]; cc: string[] }) => { to: string[]; cc: string[] } = (given) => given,
  ) {
    checkCallerLabels(body.labels, 'labels');
    const recipients = {
      ...address({ to: asList(body.to), cc: asList(body.cc) }),
      bcc: asList(body.bcc),
      reply_to: asList(body.reply_to),
    };
    this.deps.outbound.validate(recipients);
    await checkRecipientLists(this.deps.db, inbox, recipients);
    return {
      ...recipients,
      subject: body.subject ?? '',
      text: body.text ?? null,
      html: body.html ?? null,
      headers: checkCustomHeaders(body.headers),
      attachments: await this.deps.attachments.read(body.attachments),
      labels: body.labels ?? [],
    };
  }
}
