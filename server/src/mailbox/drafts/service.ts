import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/http/errors.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import { toBuffer } from '../../core/storage/types.ts';
import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { scopeOf } from '../events/types.ts';
import { newId } from '../ids.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { loadInbox } from '../inboxes/service.ts';
import { checkCustomHeaders } from '../messages/custom-headers.ts';
import { type AttachmentReader, asList, parseSendAt } from '../messages/input.ts';
import { checkCallerLabels } from '../messages/labels.ts';
import type { OutboundMail } from '../messages/outbound.ts';
import type { MessageObject } from '../messages/present.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import type { DraftAttachment } from '../tables.ts';
import { normalizeMessageId, parseMessageIdList } from '../threading/resolve.ts';
import { toDraft } from './present.ts';
import { type DraftChange, type DraftRow, draftsRepository } from './repository.ts';
import type { CreateDraftBody, UpdateDraftBody } from './schemas.ts';

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
      attachments: AttachmentReader;
    },
  ) {}

  /** The draft, with `draft.created`; the same client_id answers the draft it created first. */
  async create(principal: MailboxPrincipal, inboxId: string, body: CreateDraftBody): Promise<DraftRow> {
    const { db } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    if (body.client_id) {
      const existing = await draftsRepository.byClientId(db, inbox.id, body.client_id);
      if (existing) return existing;
    }
    const id = newId('drf');
    checkCallerLabels(body.labels, 'labels');
    const recipients = this.recipients(body);
    const headers = checkCustomHeaders(body.headers);
    const attachments = await this.storeAttachments(id, body.attachments);
    const now = this.deps.clock.now();
    const inReplyTo = normalizeMessageId(body.in_reply_to);
    return this.deps.recorder.transaction(async (trx, emit) => {
      const inserted = await draftsRepository.insert(trx, {
        id,
        inbox_id: inbox.id,
        client_id: body.client_id ?? null,
        ...recipients,
        subject: body.subject ?? '',
        text: body.text ?? null,
        html: body.html ?? null,
        attachments,
        in_reply_to: inReplyTo,
        references: body.references ? parseMessageIdList(body.references) : inReplyTo ? [inReplyTo] : [],
        labels: body.labels ?? [],
        headers,
        created_at: now,
        updated_at: now,
      });
      await emit('draft.created', scopeOf(inbox), { draft: toDraft(inserted) });
      return inserted;
    });
  }

  /**
   * Changes the fields given (null clears one), checked as on create, with `draft.updated`. New
   * attachments replace the old ones, whose stored bytes go once the change is committed. Without
   * any field (`{}`) nothing changes (no event, same `updated_at`) and the draft is answered.
   */
  async update(
    principal: MailboxPrincipal,
    inboxId: string,
    draftId: string,
    body: UpdateDraftBody,
  ): Promise<DraftRow> {
    const { inbox, draft } = await this.get(principal, inboxId, draftId);
    if (Object.values(body).every((value) => value === undefined)) return draft;
    const change: DraftChange = {};
    for (const field of ['to', 'cc', 'bcc', 'reply_to'] as const)
      if (body[field] !== undefined) change[field] = asList(body[field]);
    // The recipients as they will be, so a draft that could never be sent is refused now.
    this.recipients({ ...draft, ...change });
    if (body.subject !== undefined) change.subject = body.subject ?? '';
    if (body.text !== undefined) change.text = body.text;
    if (body.html !== undefined) change.html = body.html;
    if (body.labels !== undefined) {
      checkCallerLabels(body.labels, 'labels');
      change.labels = body.labels ?? [];
    }
    if (body.headers !== undefined) change.headers = checkCustomHeaders(body.headers);
    if (body.in_reply_to !== undefined) {
      change.in_reply_to = normalizeMessageId(body.in_reply_to ?? undefined);
      // As on create: a new In-Reply-To without References threads through it alone.
      if (body.references === undefined) change.references = change.in_reply_to ? [change.in_reply_to] : [];
    }
    if (body.references !== undefined) change.references = parseMessageIdList(body.references ?? []);
    if (body.attachments !== undefined)
      change.attachments = await this.storeAttachments(draft.id, body.attachments);
    change.updated_at = this.deps.clock.now();
    const updated = await this.deps.recorder.transaction(async (trx, emit) => {
      const row = await draftsRepository.update(trx, draft.id, change);
      if (row) await emit('draft.updated', scopeOf(inbox), { draft: toDraft(row) });
      return row;
    });
    // Sent or deleted meanwhile: the new bytes are the leftovers then.
    const leftovers = updated ? (change.attachments ? draft.attachments : []) : (change.attachments ?? []);
    await Promise.allSettled(leftovers.map((a) => this.deps.storage.delete(a.storage_key)));
    if (!updated) throw notFound('draft', 'draft_id');
    return updated;
  }

  /** Addresses are checked now, so a draft that could never be sent is refused early. */
  private recipients(body: Pick<CreateDraftBody, 'to' | 'cc' | 'bcc' | 'reply_to'>) {
    const recipients = {
      to: asList(body.to),
      cc: asList(body.cc),
      bcc: asList(body.bcc),
      reply_to: asList(body.reply_to),
    };
    if (recipients.to.length + recipients.cc.length + recipients.bcc.length > 0)
      this.deps.outbound.validate(recipients);
    return recipients;
  }

  /** Reads (or fetches) the attachments and keeps their bytes under the draft until it is sent. */
  private async storeAttachments(draftId: string, list: CreateDraftBody['attachments'] | null) {
    const attachments: DraftAttachment[] = [];
    for (const attachment of await this.deps.attachments.read(list)) {
      const key = `mailbox/drafts/${draftId}/${newId('att')}`;
      await this.deps.storage.put(key, attachment.content, attachment.content_type);
      attachments.push({
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: attachment.content.length,
        storage_key: key,
        content_id: attachment.content_id,
        inline: attachment.inline,
      });
    }
    return attachments;
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

  /**
   * Sends the draft as it is; once sent, it is gone and the sent message is answered. The draft
   * is deleted in the transaction that stores the message, and only if it is still the version
   * read here: a crash at any point leaves either the draft or the message, never neither; an
   * update meanwhile makes the send a 409 (nothing sent, the update kept); a second send or a
   * delete meanwhile makes it a 404. A refused send leaves the draft untouched.
   */
  async send(
    principal: MailboxPrincipal,
    inboxId: string,
    draftId: string,
    options: { send_at?: string },
  ): Promise<MessageObject> {
    const { db, storage } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const sendAt = parseSendAt(options.send_at, this.deps.clock.now());
    const draft = await draftsRepository.byIdWithVersion(db, inbox.id, draftId);
    if (!draft) throw notFound('draft', 'draft_id');
    const attachments = [];
    for (const attachment of draft.attachments) {
      const object = await storage.get(attachment.storage_key);
      // Never send without an attachment the draft shows.
      if (!object)
        throw new AppError(
          'resource_conflict',
          `The draft's attachment ${attachment.filename ?? attachment.storage_key} is no longer stored; attach it again.`,
          { param: 'draft_id' },
        );
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
      headers: draft.headers,
      send_at: sendAt,
      inTransaction: async (trx) => {
        const claimed = await draftsRepository.claim(trx, inbox.id, draft.id, draft.version);
        if (claimed === 'gone') throw notFound('draft', 'draft_id');
        if (claimed === 'changed')
          throw new AppError(
            'resource_conflict',
            'The draft was changed while it was being sent; nothing was sent.',
            {
              param: 'draft_id',
            },
          );
      },
    });
    await Promise.allSettled(draft.attachments.map((a) => storage.delete(a.storage_key)));
    return message;
  }

  /** The row first, then its stored bytes (best effort: a leftover object is unreachable). */
  private async discard(draft: DraftRow): Promise<void> {
    await draftsRepository.delete(this.deps.db, draft.id);
    await Promise.allSettled(draft.attachments.map((a) => this.deps.storage.delete(a.storage_key)));
  }
}
