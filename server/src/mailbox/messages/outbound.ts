import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { invalidParam } from '../../core/http/errors.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import type { Executor } from '../db.ts';
import { domainsRepository } from '../domains/repository.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { newId } from '../ids.ts';
import { type InboxRow, inboxesRepository } from '../inboxes/repository.ts';
import { checkRecipientLists } from '../lists/recipients.ts';
import { normalizeSubject } from '../threading/subject.ts';
import { bareAddress, formatAddress, isValidAddress, unique } from './addresses.ts';
import { composeMime, type MailContent } from './compose.ts';
import { lowerCaseNames } from './custom-headers.ts';
import { attachmentKeyOf, type InboundMail, rawKeyOf } from './ingest.ts';
import { type MessageObject, previewOf, toMessage, toThread } from './present.ts';
import { type StoredAttachment, storeMessage } from './store.ts';
import type { DkimKey, MailRelay } from './transport.ts';

export interface SendInput extends MailContent {
  in_reply_to: string | null;
  references: string[];
  labels: string[];
}

const MAX_RECIPIENTS = 50;

/**
 * Outbound mail: compose once, relay what leaves the service (DKIM-signed for verified custom
 * domains), deliver internally what stays, then store the sent copy, threaded, with its
 * `message.sent` or `message.rejected` event in one transaction.
 */
export class OutboundMail {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      recorder: EventRecorder;
      relay: MailRelay;
      inbound: InboundMail;
      secretBox: SecretBox;
      mailDomain: string;
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
      date: now,
      attachments: input.attachments,
      headers: input.headers,
    });
    if (raw.length > this.deps.maxMessageBytes) {
      throw invalidParam(
        'attachments',
        `The message is ${raw.length} bytes; the limit is ${this.deps.maxMessageBytes}.`,
      );
    }

    const recipients = unique([...input.to, ...input.cc, ...input.bcc].map(bareAddress));
    const internal = await this.internalRecipients(recipients);
    const external = recipients.filter((address) => !internal.includes(address));
    let outcome: { ok: true; rejected: string[] } | { ok: false; reason: string } = {
      ok: true,
      rejected: [],
    };
    if (external.length > 0) {
      const result = await this.deps.relay.send(
        raw,
        { from: inbox.id, to: external },
        await this.dkimFor(inbox.domain),
      );
      outcome = result.ok ? { ok: true, rejected: result.rejected } : { ok: false, reason: result.reason };
    }

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

    const result = await storeMessage(this.deps, {
      inbox,
      draft: () => ({
        id: rowId,
        message_id: messageId,
        direction: 'outbound',
        status: outcome.ok ? 'sent' : 'rejected',
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
        labels: unique([outcome.ok ? 'sent' : 'rejected', ...input.labels]),
        headers: lowerCaseNames(input.headers ?? {}),
        auto_reply: false,
        rejection_reason: outcome.ok ? null : outcome.reason,
        raw_key: rawKeyOf(rowId),
        size: raw.length,
        timestamp: now,
      }),
      attachments: stored,
      event: ({ message: row, attachments, thread }) => {
        const sent = { message: toMessage(row, attachments), thread: thread ? toThread(thread) : null };
        return outcome.ok
          ? {
              type: 'message.sent',
              body: { ...sent, recipients: { internal, external, rejected: outcome.rejected } },
            }
          : { type: 'message.rejected', body: { ...sent, reason: outcome.reason } };
      },
    });

    // Inboxes of this service get the same bytes as if they came over SMTP.
    if (outcome.ok && internal.length > 0)
      await this.deps.inbound.deliver(raw, { mailFrom: inbox.id, recipients: internal });
    return toMessage(result.message, result.attachments);
  }

  /** Recipients that are inboxes of this service (on its domain or a verified custom domain). */
  private async internalRecipients(addresses: string[]): Promise<string[]> {
    const inboxes = await inboxesRepository.placesOf(this.deps.db, addresses);
    return inboxes.map((inbox) => inbox.id);
  }

  private async dkimFor(domain: string): Promise<DkimKey | null> {
    if (domain === this.deps.mailDomain.toLowerCase()) return null;
    const row = await domainsRepository.signingKey(this.deps.db, domain);
    if (!row) return null;
    return {
      domainName: row.id,
      keySelector: row.dkim_selector,
      privateKey: this.deps.secretBox.open(row.dkim_private_key_sealed),
    };
  }
}
