import type { Clock } from '../../core/clock.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import { toBuffer } from '../../core/storage/types.ts';
import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { scopeOf } from '../events/types.ts';
import { newId } from '../ids.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { loadInbox } from '../inboxes/service.ts';
import { asList, decodeAttachments, parseSendAt } from '../messages/input.ts';
import type { OutboundMail } from '../messages/outbound.ts';
import type { MessageObject } from '../messages/present.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import type { DraftAttachment } from '../tables.ts';
import { normalizeMessageId, parseMessageIdList } from '../threading/resolve.ts';
import { toDraft } from './present.ts';
import { type DraftRow, draftsRepository } from './repository.ts';
import type { CreateDraftBody } from './schemas.ts';

/** Drafts of an inbox: composed now, sent later as they are (the draft then goes). */
export class DraftService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      recorder: EventRecorder;
      outbound: Pick<OutboundMail, 'validate' | 'send'>;
      pageTokens: PageTokens;
    },
  ) {}

  /** The draft, with `draft.created`; the same client_id answers the draft it created first. */
  async create(principal: MailboxPrincipal, inboxId: string, body: CreateDraftBody): Promise<DraftRow> {
    const { db, storage } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    if (body.client_id) {
      const existing = await draftsRepository.byClientId(db, inbox.id, body.client_id);
      if (existing) return existing;
    }
    const to = asList(body.to);
    const cc = asList(body.cc);
    const bcc = asList(body.bcc);
    const replyTo = asList(body.reply_to);
    // Addresses are checked now so a draft that could never be sent is refused early.
    if (to.length + cc.length + bcc.length > 0)
      this.deps.outbound.validate({ to, cc, bcc, reply_to: replyTo });
    const id = newId('drf');
    const attachments: DraftAttachment[] = [];
    for (const attachment of decodeAttachments(body.attachments)) {
      const key = `mailbox/drafts/${id}/${newId('att')}`;
      await storage.put(key, attachment.content, attachment.content_type);
      attachments.push({
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: attachment.content.length,
        storage_key: key,
        content_id: attachment.content_id,
        inline: attachment.inline,
      });
    }
    const now = this.deps.clock.now();
    const inReplyTo = normalizeMessageId(body.in_reply_to);
    return this.deps.recorder.transaction(async (trx, emit) => {
      const inserted = await draftsRepository.insert(trx, {
        id,
        inbox_id: inbox.id,
        client_id: body.client_id ?? null,
        to,
        cc,
        bcc,
        reply_to: replyTo,
        subject: body.subject ?? '',
        text: body.text ?? null,
        html: body.html ?? null,
        attachments,
        in_reply_to: inReplyTo,
        references: body.references ? parseMessageIdList(body.references) : inReplyTo ? [inReplyTo] : [],
        labels: body.labels ?? [],
        created_at: now,
        updated_at: now,
      });
      await emit('draft.created', scopeOf(inbox), { draft: toDraft(inserted) });
      return inserted;
    });
  }

  async list(principal: MailboxPrincipal, inboxId: string, query: ListQuery) {
    const inbox = await loadInbox(this.deps.db, principal, inboxId);
    const page = this.deps.pageTokens.parse(query, `drafts:${inbox.id}`, principal.subject);
    const rows = await draftsRepository.list(this.deps.db, inbox.id, keyset(page));
    return this.deps.pageTokens.envelope('drafts', page, rows, byCreation, toDraft);
  }

  /** The draft with its inbox, if the principal reaches the inbox; otherwise 404. */
  async get(
    principal: MailboxPrincipal,
    inboxId: string,
    draftId: string,
  ): Promise<{ inbox: InboxRow; draft: DraftRow }> {
    const inbox = await loadInbox(this.deps.db, principal, inboxId);
    const draft = await draftsRepository.byId(this.deps.db, inbox.id, draftId);
    if (!draft) throw notFound('draft', 'draft_id');
    return { inbox, draft };
  }

  async delete(principal: MailboxPrincipal, inboxId: string, draftId: string): Promise<void> {
    const { draft } = await this.get(principal, inboxId, draftId);
    await this.discard(draft);
  }

  /** Sends the draft as it is; once sent, it is gone and the sent message is answered. */
  async send(
    principal: MailboxPrincipal,
    inboxId: string,
    draftId: string,
    options: { send_at?: string },
  ): Promise<MessageObject> {
    const { inbox, draft } = await this.get(principal, inboxId, draftId);
    const sendAt = parseSendAt(options.send_at, this.deps.clock.now());
    const attachments = [];
    for (const attachment of draft.attachments) {
      const object = await this.deps.storage.get(attachment.storage_key);
      if (!object) continue;
      attachments.push({ ...attachment, content: await toBuffer(object.body) });
    }
    const message = await this.deps.outbound.send(inbox, {
      to: draft.to,
      cc: draft.cc,
      bcc: draft.bcc,
      reply_to: draft.reply_to,
      subject: draft.subject,
      text: draft.text,
      html: draft.html,
      attachments,
      in_reply_to: draft.in_reply_to,
      references: draft.references,
      labels: draft.labels,
      send_at: sendAt,
    });
    await this.discard(draft);
    return message;
  }

  /** The row first, then its stored bytes (best effort: a leftover object is unreachable). */
  private async discard(draft: DraftRow): Promise<void> {
    await draftsRepository.delete(this.deps.db, draft.id);
    await Promise.allSettled(draft.attachments.map((a) => this.deps.storage.delete(a.storage_key)));
  }
}
