import { type ParsedMail, simpleParser } from 'mailparser';
import type { Clock } from '../../core/clock.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { MailboxEvent } from '../events/types.ts';
import { newId } from '../ids.ts';
import { type InboxRow, inboxesRepository } from '../inboxes/repository.ts';
import { presentRefusal } from '../lists/policy.ts';
import { detectAutoReply, type HeaderMap } from '../threading/auto-reply.ts';
import { normalizeMessageId, parseMessageIdList } from '../threading/resolve.ts';
import { normalizeSubject } from '../threading/subject.ts';
import { addressList, bareAddress, formatAddress } from './addresses.ts';
import { safeFilename } from './filename.ts';
import { headerMap, utf8Headers } from './headers.ts';
import { previewOf, toMessage, toThread } from './present.ts';
import { type StoredAttachment, type StoreResult, storeMessage } from './store.ts';

export interface InboundEnvelope {
  mailFrom: string | null;
  /** Inbox ids (addresses) the message is delivered to. */
  recipients: string[];
  /** Inbox rows already read (by the SMTP listener at RCPT TO). */
  inboxes?: Map<string, InboxRow>;
}

export interface InboundOutcome {
  inboxId: string;
  messageId: string;
  status: 'received' | 'blocked' | 'duplicate' | 'missing';
  event: MailboxEvent | null;
}

/**
 * Inbound mail, from the SMTP listener or internal delivery: parse, keep the raw MIME and the
 * attachments in storage, check the receive lists, thread, and store the message together with its
 * event in one transaction.
 */
export class InboundMail {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      recorder: EventRecorder;
      mailDomain: string;
    },
  ) {}

  async deliver(raw: Buffer, envelope: InboundEnvelope): Promise<InboundOutcome[]> {
    const recipients = [...new Set(envelope.recipients.map((r) => r.toLowerCase()))];
    const rowIds = recipients.map(() => newId('msg'));
    // The raw bytes go to storage while the message is parsed: neither waits for the other.
    const [parsed] = await Promise.all([
      simpleParser(utf8Headers(raw), {
        skipImageLinks: true,
        skipTextToHtml: true,
        skipTextLinks: true,
        maxHtmlLengthToParse: 5_000_000,
      }),
      ...rowIds.map((rowId) => this.deps.storage.put(rawKeyOf(rowId), raw, 'message/rfc822')),
    ]);
    const outcomes: InboundOutcome[] = [];
    for (const [index, inboxId] of recipients.entries()) {
      outcomes.push(await this.deliverTo(inboxId, rowIds[index]!, raw, parsed, envelope));
    }
    return outcomes;
  }

  private async deliverTo(
    inboxId: string,
    rowId: string,
    raw: Buffer,
    parsed: ParsedMail,
    envelope: InboundEnvelope,
  ): Promise<InboundOutcome> {
    const { storage } = this.deps;
    const messageId = normalizeMessageId(parsed.messageId) ?? `<${newId('gen')}@${this.deps.mailDomain}>`;
    const rawKey = rawKeyOf(rowId);
    const { headers, truncated: headersTruncated } = headerMap(parsed);
    const fromList = parsed.from ? addressList(parsed.from) : [];
    const from = fromList[0] ?? formatAddress({ address: envelope.mailFrom ?? '' });
    const sender = bareAddress(from) || (envelope.mailFrom ?? '').toLowerCase();
    const inbox = envelope.inboxes?.get(inboxId) ?? (await inboxesRepository.byId(this.deps.db, inboxId));
    if (!inbox) {
      await storage.delete(rawKey).catch(() => {});
      return { inboxId, messageId, status: 'missing', event: null };
    }
    const attachments: StoredAttachment[] = [];
    for (const attachment of parsed.attachments) {
      const id = newId('att');
      const key = attachmentKeyOf(rowId, id);
      await storage.put(key, attachment.content, attachment.contentType || 'application/octet-stream');
      attachments.push({
        id,
        filename: safeFilename(attachment.filename),
        content_type: attachment.contentType || 'application/octet-stream',
        content_disposition: attachment.contentDisposition ?? 'attachment',
        content_id: attachment.cid ?? null,
        size: attachment.size ?? attachment.content.length,
        storage_key: key,
      });
    }

    const verdict = detectAutoReply(headers as HeaderMap);
    const receivedAt = this.deps.clock.now();
    const subject = parsed.subject ?? '';
    const text = parsed.text ?? null;
    const html = parsed.html || null;
    const keys = [rawKey, ...attachments.map((a) => a.storage_key)];
    let stored: StoreResult;
    try {
      stored = await storeMessage(this.deps, {
        inbox,
        // Also without a sender (''): it is on no allow list.
        blockListSender: sender,
        draft: (blockedBy) => ({
          id: rowId,
          message_id: messageId,
          direction: 'inbound',
          status: blockedBy ? 'blocked' : 'received',
          from_address: sender,
          from,
          reply_to: parsed.replyTo ? addressList(parsed.replyTo) : [],
          to: addressList(parsed.to),
          cc: addressList(parsed.cc),
          bcc: [],
          subject,
          normalized_subject: normalizeSubject(subject),
          preview: previewOf(text, html),
          text,
          html,
          in_reply_to: parseMessageIdList(parsed.inReplyTo)[0] ?? null,
          references: parseMessageIdList(parsed.references),
          labels: blockedBy ? ['received', 'blocked'] : ['received', 'unread'],
          headers,
          headers_truncated: headersTruncated,
          auto_reply: verdict.auto_reply,
          auto_reply_reason: verdict.reason,
          rejection_reason: null,
          raw_key: rawKey,
          size: raw.length,
          timestamp: receivedAt,
        }),
        attachments,
        event: ({ message, attachments: rows, thread, matchedBy, blockedBy }) =>
          blockedBy
            ? {
                type: 'message.received.blocked',
                body: {
                  message: toMessage(message, rows),
                  thread: null,
                  blocked_by: presentRefusal(blockedBy),
                },
              }
            : {
                type: 'message.received',
                body: {
                  message: toMessage(message, rows),
                  thread: toThread(thread!),
                  matched_by: matchedBy,
                  auto_reply: verdict.auto_reply,
                  auto_reply_reason: verdict.reason,
                },
              },
      });
    } catch (error) {
      await Promise.allSettled(keys.map((key) => storage.delete(key)));
      throw error;
    }
    // A duplicate (the same Message-ID delivered again) references none of the new objects.
    if (stored.duplicate) {
      await Promise.allSettled(keys.map((key) => storage.delete(key)));
      return { inboxId, messageId, status: 'duplicate', event: null };
    }
    return { inboxId, messageId, status: stored.blockedBy ? 'blocked' : 'received', event: stored.event };
  }
}

/** Raw MIME and attachments of one stored message row. */
export const rawKeyOf = (rowId: string) => `mailbox/raw/${rowId}.eml`;
export const attachmentKeyOf = (rowId: string, attachmentId: string) =>
  `mailbox/attachments/${rowId}/${attachmentId}`;
